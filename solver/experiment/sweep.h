// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "experiment/protocol.h"

#include <optional>
#include <stop_token>

namespace facet {

// What one sub-run of a trial scored, so an oracle selection can be audited.
struct SubrunScore {
    double objective = 0;
    double ac = 0;
    double nmi = 0;
};

// The record of one finished cell (the `trials` entries of a sweep's results.json).
struct TrialResult {
    ExperimentCell cell;
    double parameterValue = 0; // the grid value; NaN without a parameter sweep
    std::uint64_t seed = 0; // trialSeed(experiment seed, c, trial)
    std::vector<int> classes; // the dataset's class indices drawn for (c, trial), ascending
    int rank = 0; // k used
    int samples = 0; // samples of the drawn classes
    int labeled = 0; // samples whose label was given (semi-supervised protocol)
    int evaluated = 0; // samples AC and NMI are computed on
    double ac = 0;
    double nmi = 0;
    double objective = 0; // final objective of the kept sub-run
    int iterations = 0;
    StopReason stopReason = StopReason::MaxIterations;
    int subrun = 0; // index of the kept sub-run
    std::vector<SubrunScore> subruns; // every sub-run, in order
    // CF_OGL's learned graph, when it has exactly c connected components, is a clustering of
    // its own (METHODS.md 3.4): its AC and NMI for the kept sub-run, on the evaluated samples.
    // Empty for other methods and when the components are not c.
    std::optional<double> graphAc;
    std::optional<double> graphNmi;
    // False for a CF_OGL trial read from a results.json written before the sweep scored the
    // components (it has no graph_ac at all): unknown, not "another number of components".
    bool graphScored = true;
    double seconds = 0; // wall time of the whole cell (every sub-run, clustering included)
};

// The labelled data a cell draws from: X is m x n, labels holds the class index (0 .. C - 1)
// of every column.
struct ExperimentData {
    MatrixCRef X;
    const std::vector<int>& labels;
};

// Runs one cell: draws its classes, takes all their samples, runs R sub-runs of the method with
// k = c + rankOffset (or the swept rank), clusters into c groups and scores AC and NMI. Pure:
// the same data, options and cell give the same numbers on the same build whatever else runs,
// provided the calling thread's inner parallelism (Eigen/OpenMP) is the same; run every cell
// with one inner thread to make results independent of the machine's core count.
// Returns nullopt when `stop` was requested before the cell finished (a partial cell is not a
// result). Throws std::invalid_argument for bad options or data.
std::optional<TrialResult> runCell(const ExperimentData& data, const ExperimentOptions& options,
    const ExperimentCell& cell, std::stop_token stop = {});

// Sub-run `subrun` of a cell, set up to run again on its own (the explorer's "open this trial"):
// the drawn classes' samples, relabelled 0..c-1 in the order of `classes`, and the exact options
// runCell gives that sub-run, labelled subset included. runAndCluster(X, truth, run) repeats the
// sub-run bit for bit under the same inner threading (AC/NMI then count every sample, also under
// the protocol that evaluates on the unlabelled ones only).
struct CellReplay {
    Matrix X; // m x n_c
    std::vector<int> truth;
    std::vector<int> classes;
    RunOptions run;
};
CellReplay replayCell(const ExperimentData& data, const ExperimentOptions& options,
    const ExperimentCell& cell, int subrun);

// The run options of sub-run `subrun` of `cell` (method, rank, c, seed and the swept
// parameter applied to options.base), without the labelled subset.
RunOptions cellRunOptions(const ExperimentOptions& options, const ExperimentCell& cell, int subrun);

} // namespace facet
