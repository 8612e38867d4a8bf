// SPDX-License-Identifier: GPL-3.0-or-later
#include "experiment/run.h"

#include "cluster/kmeans.h"
#include "core/cancellation.h"
#include "experiment/labeled_subset.h"
#include "methods/baselines.h"
#include "methods/mask.h"
#include "metrics/clustering_metrics.h"
#include "metrics/quality.h"

#include <algorithm>
#include <chrono>
#include <limits>
#include <set>
#include <stdexcept>

namespace facet {

namespace {
// Stream index of the clustering seed, apart from the replicate streams 0..R-1.
constexpr std::uint64_t kClusterSeedStream = 1u << 20;

// Whether the cache's graph was built with the graph options of `params`.
bool sameGraphOptions(const SetupCache& cache, const MethodOptions& params)
{
    return cache.p == params.p && cache.weight == params.weight && cache.heatT == params.heatT
        && cache.search == params.knnSearch;
}

// What a method's set-up built, into the cache: also when Cancel ended the set-up later (a kNN
// graph finished before a kernel was cancelled is kept).
void keepSetup(SetupCache* cache, const MethodContext& context, const MethodOptions& params)
{
    if (!cache)
        return;
    if (context.gram)
        cache->gram = context.gram;
    if (context.graph && context.graph != cache->graph) {
        cache->graph = context.graph;
        cache->p = params.p;
        cache->weight = params.weight;
        cache->heatT = params.heatT;
        cache->search = params.knnSearch;
    }
}

// The method itself: result.factorization, and result.predicted for k-means (whose V is its own
// assignment). The set-up sees the run's cancel through the method context.
void runMethod(MatrixCRef X, const RunOptions& options, const MethodOptions& params,
    const SolveControl& control, std::uint64_t clusterSeed, RunResult& result, SetupCache* cache)
{
    if (options.method == "kmeans") {
        KMeansOptions km;
        km.clusters = result.clusters;
        km.replicates = options.cluster.replicates;
        km.cosine = options.cluster.cosine;
        km.seed = clusterSeed;
        km.stop = control.stop; // Cancel stops it between Lloyd rounds
        km.progress = control.onStageProgress;
        if (control.onStage)
            control.onStage(kKMeansStage);
        result.factorization = kmeansBaseline(X, km);
        // V is the k-means indicator: its argmax is the k-means assignment itself.
        result.predicted = clusterRepresentation(
            result.factorization.V, result.clusters, { ClusterMode::ArgMax }, clusterSeed);
    } else if (options.method == "pca") {
        if (control.onStage)
            control.onStage(kPcaStage);
        result.factorization
            = pcaBaseline(X, params.rank, nullptr, control.stop, control.onStageProgress);
    } else {
        MethodContext context;
        context.stop = control.stop;
        if (cache) {
            context.gram = cache->gram;
            if (sameGraphOptions(*cache, params))
                context.graph = cache->graph;
        }
        bool staged = false;
        if (control.onStage)
            context.onStage = [&](std::string_view stage) {
                staged = true;
                control.onStage(stage);
            };
        context.onStageProgress = control.onStageProgress;
        const auto setupStart = std::chrono::steady_clock::now();
        MethodFactory make;
        try {
            make = makeMethodFactoryInto(options.method, X, params, context);
        } catch (const SetupCancelled&) {
            keepSetup(cache, context, params);
            throw;
        }
        keepSetup(cache, context, params);
        result.setupSeconds
            = std::chrono::duration<double>(std::chrono::steady_clock::now() - setupStart).count();
        if (staged)
            control.onStage({}); // the set-up is over; the iterations follow
        result.factorization = solve(make, options.driver, control);
    }
}
} // namespace

std::vector<int> clusterRepresentation(
    const Matrix& V, int clusters, const ClusterOptions& options, std::uint64_t seed)
{
    if (clusters < 1 || clusters > V.rows())
        throw std::invalid_argument("cannot make " + std::to_string(clusters) + " clusters of "
            + std::to_string(V.rows()) + " samples");
    std::vector<int> labels(std::size_t(V.rows()));
    if (options.mode == ClusterMode::ArgMax) {
        for (Eigen::Index i = 0; i < V.rows(); ++i) {
            Eigen::Index best = 0;
            V.row(i).maxCoeff(&best);
            labels[std::size_t(i)] = int(best);
        }
        return labels;
    }
    KMeansOptions km;
    km.clusters = clusters;
    km.replicates = options.replicates;
    km.cosine = options.cosine;
    km.seed = seed;
    return kmeans(V.transpose(), km).labels;
}

std::uint64_t runClusterSeed(std::uint64_t seed)
{
    return deriveSeed(seed, kClusterSeedStream);
}

int runClusters(const RunOptions& options, const std::vector<int>& truth)
{
    const int classes = truth.empty() ? 0 : int(std::set<int>(truth.begin(), truth.end()).size());
    return options.clusters > 0 ? options.clusters : (classes > 0 ? classes : options.params.rank);
}

bool everySampleLabelled(const RunResult& result)
{
    return !result.knownLabels.empty()
        && std::ranges::all_of(result.knownLabels, [](int label) { return label >= 0; });
}

std::vector<int> runKnownLabels(const RunOptions& options, const std::vector<int>& truth)
{
    const MethodInfo* info = findMethod(options.method);
    if (!info || !info->semiSupervised || !options.params.knownLabels.empty()
        || (options.labeledFraction <= 0 && options.labeledPerClass <= 0))
        return options.params.knownLabels;
    if (truth.empty())
        throw std::invalid_argument(
            options.method + " with a labelled fraction needs a labelled dataset");
    return chooseLabeledSubset(
        truth, { options.labeledFraction, options.labeledPerClass, options.driver.seed });
}

RunResult runAndCluster(MatrixCRef X, const std::vector<int>& truth, const RunOptions& options,
    const SolveControl& control, SetupCache* cache)
{
    if (!truth.empty() && Eigen::Index(truth.size()) != X.cols())
        throw std::invalid_argument("there are " + std::to_string(truth.size()) + " labels for "
            + std::to_string(X.cols()) + " samples");
    const MethodInfo* info = findMethod(options.method);
    if (!info)
        (void)makeMethodFactory(options.method, X, options.params); // throws with the known names

    if (options.params.weights && !acceptsMask(options.method))
        throw std::invalid_argument(maskRefusal(options.method));

    RunResult result;
    result.clusters = runClusters(options, truth);
    const std::uint64_t clusterSeed = deriveSeed(options.driver.seed, kClusterSeedStream);

    MethodOptions params = options.params;
    if (params.clusters == 0)
        params.clusters = result.clusters; // CF_OGL's c
    params.knownLabels = runKnownLabels(options, truth);
    result.knownLabels = params.knownLabels;
    // Given factors replace the start, so none other (an NMF run for CCF's default, a k-means
    // run) is computed first only to be dropped.
    if (options.driver.start) {
        params.init = InitKind::Random;
        params.initSet = true;
    }

    try {
        runMethod(X, options, params, control, clusterSeed, result, cache);
    } catch (const SetupCancelled& cancelled) {
        // Cancel before the first iteration: no factors exist to report, and none are faked.
        result.cancelledDuring = cancelled.stage();
        result.factorization = Factorization {};
        result.factorization.method = options.method;
        result.factorization.stopReason = StopReason::Cancelled;
        result.predicted.clear();
        return result;
    }
    const bool clustered = options.method == "kmeans";
    const Factorization& f = result.factorization;

    if (options.cluster.mode == ClusterMode::ArgMax && result.clusters > f.V.cols())
        result.clusters = int(f.V.cols());
    const auto clusterStart = std::chrono::steady_clock::now();
    if (!clustered)
        result.predicted
            = clusterRepresentation(f.V, result.clusters, options.cluster, clusterSeed);
    result.clusterSeconds
        = std::chrono::duration<double>(std::chrono::steady_clock::now() - clusterStart).count();
    // A start is not a result: a run that never iterated is not scored as if it had.
    result.stoppedAtStart = f.stopReason == StopReason::NonFinite
        && f.iterations <= int(options.driver.startHistory.size());
    if (!truth.empty() && !result.stoppedAtStart) {
        result.ac = clusteringAccuracy(truth, result.predicted);
        result.nmi = normalizedMutualInformation(truth, result.predicted);
        if (!f.graphClusters.empty()) {
            result.graphAc = clusteringAccuracy(truth, f.graphClusters);
            result.graphNmi = normalizedMutualInformation(truth, f.graphClusters);
        }
    }
    // PCA's bases describe the centred data: its reconstruction error is not comparable.
    // A masked run's error is over the observed entries, weighted (methods/mask.h).
    const std::shared_ptr<const MaskedData> mask
        = options.params.weights ? prepareMask(X, *options.params.weights) : nullptr;
    result.reconstructionError = options.method == "pca"
        ? std::numeric_limits<double>::quiet_NaN()
        : (mask ? weightedRelativeError(*mask, f.basis, f.V)
                : relativeReconstructionError(X, f.basis, f.V));
    result.sparseness = hoyerSparseness(f.V);
    return result;
}

bool suggestsKMeansStart(const Factorization& f, const RunOptions& options)
{
    const MethodInfo* info = findMethod(options.method);
    return f.stopReason == StopReason::MaxIterations && f.stillDecreasing && f.randomStart && info
        && info->cfFamily && !options.driver.start; // a warm start replaced the random one
}

} // namespace facet
