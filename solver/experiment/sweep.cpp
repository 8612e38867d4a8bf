// SPDX-License-Identifier: GPL-3.0-or-later
#include "experiment/sweep.h"

#include "core/random.h"
#include "experiment/labeled_subset.h"
#include "metrics/clustering_metrics.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <limits>
#include <stdexcept>

namespace facet {

namespace {

// The samples of the drawn classes, in dataset order, relabelled 0..c-1 by their class's place
// in `classes`.
struct Subset {
    Matrix X; // m x n_c
    std::vector<int> truth;
};

Subset takeClasses(const ExperimentData& data, const std::vector<int>& classes)
{
    std::vector<int> newIndex(
        std::size_t(*std::max_element(data.labels.begin(), data.labels.end()) + 1), -1);
    for (std::size_t k = 0; k < classes.size(); ++k)
        newIndex[std::size_t(classes[k])] = int(k);
    std::vector<Eigen::Index> kept;
    for (std::size_t i = 0; i < data.labels.size(); ++i)
        if (newIndex[std::size_t(data.labels[i])] >= 0)
            kept.push_back(Eigen::Index(i));
    Subset s;
    s.X.resize(data.X.rows(), Eigen::Index(kept.size()));
    s.truth.reserve(kept.size());
    for (std::size_t j = 0; j < kept.size(); ++j) {
        s.X.col(Eigen::Index(j)) = data.X.col(kept[j]);
        s.truth.push_back(newIndex[std::size_t(data.labels[std::size_t(kept[j])])]);
    }
    return s;
}

// Entries of `values` at the positions in `indices`.
std::vector<int> gather(const std::vector<int>& values, const std::vector<std::size_t>& indices)
{
    std::vector<int> out;
    out.reserve(indices.size());
    for (std::size_t i : indices)
        out.push_back(values[i]);
    return out;
}

bool better(const SubrunScore& a, const SubrunScore& b, SubrunSelection selection)
{
    if (selection == SubrunSelection::Accuracy)
        return a.ac > b.ac || (a.ac == b.ac && a.objective < b.objective);
    // A non-finite objective never wins against a finite one.
    if (!std::isfinite(b.objective))
        return std::isfinite(a.objective);
    return a.objective < b.objective;
}

// What a cell draws before any sub-run: its classes, their samples and the labelled subset.
struct DrawnCell {
    std::vector<int> classes;
    Subset subset;
    std::vector<int> known; // empty without the semi-supervised protocol
};

DrawnCell drawCell(const ExperimentData& data, const ExperimentOptions& options,
    const ExperimentCell& cell, int classCount)
{
    DrawnCell drawn;
    const std::uint64_t seed = trialSeed(options.seed, cell.clusters, cell.trial);
    drawn.classes = drawClasses(classCount, cell.clusters, deriveSeed(seed, kClassDrawStream));
    drawn.subset = takeClasses(data, drawn.classes);
    if (options.semiSupervised())
        drawn.known = chooseLabeledSubset(drawn.subset.truth,
            { options.labeledFraction, options.labeledPerClass,
                deriveSeed(seed, kLabeledSubsetStream) });
    return drawn;
}

void requireLabelled(const ExperimentData& data)
{
    if (data.labels.empty() || Eigen::Index(data.labels.size()) != data.X.cols())
        throw std::invalid_argument("an experiment needs one class label per sample");
    if (*std::min_element(data.labels.begin(), data.labels.end()) < 0)
        throw std::invalid_argument("an experiment needs every sample labelled");
}

} // namespace

CellReplay replayCell(const ExperimentData& data, const ExperimentOptions& options,
    const ExperimentCell& cell, int subrun)
{
    requireLabelled(data);
    if (subrun < 0 || subrun >= options.subruns)
        throw std::invalid_argument("sub-run " + std::to_string(subrun) + " does not exist (0.."
            + std::to_string(options.subruns - 1) + ")");
    const int classCount = *std::max_element(data.labels.begin(), data.labels.end()) + 1;
    DrawnCell drawn = drawCell(data, options, cell, classCount);
    CellReplay replay;
    replay.classes = std::move(drawn.classes);
    replay.X = std::move(drawn.subset.X);
    replay.truth = std::move(drawn.subset.truth);
    replay.run = cellRunOptions(options, cell, subrun);
    const MethodInfo* info = findMethod(cell.method);
    if (info && info->semiSupervised && !drawn.known.empty())
        replay.run.params.knownLabels = std::move(drawn.known);
    return replay;
}

RunOptions cellRunOptions(const ExperimentOptions& options, const ExperimentCell& cell, int subrun)
{
    RunOptions run = options.base;
    run.method = cell.method;
    run.clusters = cell.clusters;
    run.params.rank = cell.clusters + options.rankOffset;
    run.params.clusters = 0; // CF_OGL's c follows the cell's c
    run.params.knownLabels.clear();
    run.labeledFraction = 0; // the subset is drawn once per trial by runCell, not per sub-run
    run.labeledPerClass = 0;
    // One --algorithm for a sweep of several methods: those with that route run it, the others
    // their default (each cell's record names the algorithm that ran).
    if (run.params.algorithm && !supportsAlgorithm(cell.method, *run.params.algorithm))
        run.params.algorithm.reset();
    run.driver.seed = deriveSeed(trialSeed(options.seed, cell.clusters, cell.trial),
        kFirstSubrunStream + std::uint64_t(subrun));
    if (cell.method == "cf-ogl") {
        // One driver iteration of CF_OGL is one outer iteration (METHODS.md section 3).
        run.driver.maxIter = run.params.outerIterations;
        run.driver.minIter = std::min(run.driver.minIter, run.driver.maxIter);
    }
    if (options.parameterSweep()) {
        const double v = options.parameterValues.at(std::size_t(cell.parameterIndex));
        switch (options.parameter) {
        case SweepParameter::Lambda:
            run.params.lambda = v;
            break;
        case SweepParameter::P:
            run.params.p = int(v);
            break;
        case SweepParameter::Beta:
            run.params.beta = v;
            break;
        case SweepParameter::Rank:
            run.params.rank = int(v);
            break;
        case SweepParameter::None:
            break;
        }
    }
    return run;
}

std::optional<TrialResult> runCell(const ExperimentData& data, const ExperimentOptions& options,
    const ExperimentCell& cell, std::stop_token stop)
{
    requireLabelled(data);
    const int classCount = *std::max_element(data.labels.begin(), data.labels.end()) + 1;
    if (cell.parameterIndex < 0 || cell.parameterIndex >= options.parameterCount())
        throw std::invalid_argument("parameter index out of range");
    if (cell.trial < 0)
        throw std::invalid_argument("trial must be >= 0");
    const auto start = std::chrono::steady_clock::now();

    TrialResult result;
    result.cell = cell;
    result.parameterValue = options.parameterSweep()
        ? options.parameterValues[std::size_t(cell.parameterIndex)]
        : std::numeric_limits<double>::quiet_NaN();
    result.seed = trialSeed(options.seed, cell.clusters, cell.trial);
    DrawnCell drawn = drawCell(data, options, cell, classCount);
    result.classes = drawn.classes;
    const Subset& subset = drawn.subset;
    result.samples = int(subset.truth.size());
    const std::vector<int>& known = drawn.known;
    result.labeled = int(std::count_if(known.begin(), known.end(), [](int l) { return l >= 0; }));
    std::vector<std::size_t> evaluated;
    for (std::size_t i = 0; i < subset.truth.size(); ++i)
        if (options.evaluate == EvaluateOn::All || known.empty() || known[i] < 0)
            evaluated.push_back(i);
    if (evaluated.empty())
        throw std::invalid_argument("every sample of the drawn classes is labelled: nothing is "
                                    "left to evaluate on the unlabelled samples");
    result.evaluated = int(evaluated.size());
    const std::vector<int> evaluatedTruth = gather(subset.truth, evaluated);
    const MethodInfo* info = findMethod(cell.method);
    if (!info)
        throw std::invalid_argument("unknown method '" + cell.method + "'");

    SolveControl control;
    control.stop = stop;
    for (int r = 0; r < options.subruns; ++r) {
        RunOptions run = cellRunOptions(options, cell, r);
        result.rank = run.params.rank;
        if (info->semiSupervised && !known.empty())
            run.params.knownLabels = known;
        const RunResult rr = runAndCluster(subset.X, subset.truth, run, control);
        if (stop.stop_requested() || rr.factorization.stopReason == StopReason::Cancelled)
            return std::nullopt;
        // Its clusters would be the start's: a start is not a result to score (issue 36).
        if (rr.stoppedAtStart)
            throw std::invalid_argument(cell.method + " with " + std::to_string(cell.clusters)
                + " clusters, trial " + std::to_string(cell.trial + 1)
                + ": the run stopped before its first iteration, its first step's objective not "
                  "finite (the products overflow the double range); check the data's scale and "
                  "the weights");
        const std::vector<int> predicted = gather(rr.predicted, evaluated);
        const Factorization& f = rr.factorization;
        SubrunScore score;
        // The factors that were clustered: for the graph methods the final normalization
        // changes the objective, so the last iteration's value would rank other factors.
        score.objective = f.returnedObjective;
        score.ac = clusteringAccuracy(evaluatedTruth, predicted);
        score.nmi = normalizedMutualInformation(evaluatedTruth, predicted);
        result.subruns.push_back(score);
        if (r == 0
            || better(score, result.subruns[std::size_t(result.subrun)], options.selection)) {
            result.subrun = r;
            result.ac = score.ac;
            result.nmi = score.nmi;
            result.objective = score.objective;
            result.iterations = f.iterations;
            result.stopReason = f.stopReason;
            result.graphAc.reset();
            result.graphNmi.reset();
            if (!f.graphClusters.empty()) {
                const std::vector<int> components = gather(f.graphClusters, evaluated);
                result.graphAc = clusteringAccuracy(evaluatedTruth, components);
                result.graphNmi = normalizedMutualInformation(evaluatedTruth, components);
            }
        }
    }
    result.seconds
        = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    return result;
}

} // namespace facet
