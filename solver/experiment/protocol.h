// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "experiment/run.h"

#include <cstdint>
#include <string>
#include <vector>

namespace facet {

// METHODS.md section 6: the papers' evaluation protocols. One experiment is a grid of cells
// (method, cluster count c, trial, parameter value); a cell is the unit of work and of
// reproducibility: everything it draws comes from seeds derived from the experiment seed and
// (c, trial) alone, so any cell can be re-run by itself with identical numbers, and all methods
// and parameter values of one (c, trial) see the same classes, labelled subset and starts
// (paired comparisons).

// How a trial keeps one of its R sub-runs (full random restarts).
enum class SubrunSelection {
    Objective, // the lowest final objective: what an honest user can do without labels
    Accuracy, // the best AC, the papers' optimistic "oracle selection" (uses the truth)
};

enum class EvaluateOn { All, Unlabeled };

// The one parameter of a parameter sweep.
enum class SweepParameter { None, Lambda, P, Beta, Rank };

struct ExperimentOptions {
    std::vector<std::string> methods; // registry names (kmeans and pca included)
    std::vector<int> clusterCounts; // the values of c, e.g. 2..10
    int trials = 10; // T per c
    int subruns = 1; // R full restarts per trial
    SubrunSelection selection = SubrunSelection::Objective;
    // Semi-supervised protocol: a labelled subset per trial, either a fraction of each class or
    // a count per class (at most one of the two is set).
    double labeledFraction = 0;
    int labeledPerClass = 0;
    int rankOffset = 0; // k = c + rankOffset (0 or 1 in the papers)
    EvaluateOn evaluate = EvaluateOn::All;
    SweepParameter parameter = SweepParameter::None;
    std::vector<double> parameterValues; // the grid, when parameter != None
    std::uint64_t seed = 0;
    // Everything else of a run: driver, clustering and method parameters. Its method, rank,
    // clusters, labelled subset and seed are replaced per cell.
    RunOptions base;

    bool semiSupervised() const { return labeledFraction > 0 || labeledPerClass > 0; }
    bool parameterSweep() const { return parameter != SweepParameter::None; }
    // Number of grid values a cell can take (1 without a parameter sweep).
    int parameterCount() const { return parameterSweep() ? int(parameterValues.size()) : 1; }
};

struct ExperimentCell {
    std::string method;
    int clusters = 0; // c
    int trial = 0; // 0-based
    int parameterIndex = 0; // into ExperimentOptions::parameterValues; 0 without a sweep

    friend bool operator==(const ExperimentCell&, const ExperimentCell&) = default;
};

// "lambda", "p", "beta", "rank" (and "k" for rank); None for anything else.
SweepParameter sweepParameterFromName(const std::string& name);
std::string sweepParameterName(SweepParameter parameter);

// Throws std::invalid_argument with the broken rule: no methods, unknown method, c < 2 or more
// than the dataset's classCount, T or R < 1, a fraction outside (0, 1), an integer parameter
// (p, rank) with a non-integer value, ...
void validateExperiment(const ExperimentOptions& options, int classCount);

// What no cell could survive, from the classes' sizes: a rank (c + rankOffset, or a swept rank)
// above the samples of the c smallest classes, or, scoring the unlabelled samples only, a count
// per class that labels every sample of the smallest class. Throws std::invalid_argument naming
// the sizes, so a sweep fails before its first cell instead of writing a table of failures.
void validateExperimentSizes(const ExperimentOptions& options, std::vector<int> classSizes);

// Every cell, in the canonical order: c, then trial, then parameter value, then method. A pool
// taking cells in this order finishes whole (c, trial) rows early, so partial results of an
// interrupted experiment stay paired.
std::vector<ExperimentCell> planCells(const ExperimentOptions& options);

// Seed of trial `trial` at cluster count c; the method and the parameter value do not enter it.
std::uint64_t trialSeed(std::uint64_t experimentSeed, int clusters, int trial);

// Streams derived from a trial seed (deriveSeed(trialSeed, stream)).
inline constexpr std::uint64_t kClassDrawStream = 0;
inline constexpr std::uint64_t kLabeledSubsetStream = 1;
inline constexpr std::uint64_t kFirstSubrunStream = 2; // sub-run r uses stream 2 + r

// c distinct class indices out of classCount, drawn uniformly (partial Fisher-Yates), sorted.
std::vector<int> drawClasses(int classCount, int clusters, std::uint64_t seed);

} // namespace facet
