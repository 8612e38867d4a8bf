// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/driver.h"
#include "methods/registry.h"

#include <optional>
#include <string>
#include <vector>

namespace facet {

// METHODS.md section 4: from a factorization to clusters.
enum class ClusterMode { KMeans, ArgMax };

struct ClusterOptions {
    ClusterMode mode = ClusterMode::KMeans;
    bool cosine = false; // k-means on L2-normalized rows of V
    int replicates = 20;
};

struct RunOptions {
    std::string method = "nmf";
    MethodOptions params; // params.rank is k
    DriverOptions driver;
    ClusterOptions cluster;
    int clusters = 0; // c; 0 = number of classes when labelled, else the rank
    // Semi-supervised methods: the labelled subset is drawn from the truth labels (seeded by
    // driver.seed) unless params.knownLabels is already given.
    double labeledFraction = 0;
    int labeledPerClass = 0;
};

struct RunResult {
    Factorization factorization;
    std::vector<int> predicted; // cluster of each sample, 0-based
    int clusters = 0;
    std::vector<int> knownLabels; // the labelled subset given to a semi-supervised method
    std::optional<double> ac; // when truth labels were given
    std::optional<double> nmi;
    // CF_OGL: scores of the clustering by Q's connected components (METHODS.md 3).
    std::optional<double> graphAc;
    std::optional<double> graphNmi;
    double reconstructionError = 0; // ||X - basis V^T|| / ||X||
    double sparseness = 0; // Hoyer, of V
    double clusterSeconds = 0;
    // The method's set-up before its driver starts (the kNN graph, a formed kernel, the CF
    // family's shared pieces): Factorization::initSeconds counts only the starts.
    double setupSeconds = 0;
    // Set when the solve stopped as non-finite before an iteration of its own finished (the
    // first step overflowed): its factors are only the start's, so no AC or NMI is computed
    // (ac, nmi, graphAc, graphNmi stay unset); facet-cli writes nothing for such a run.
    bool stoppedAtStart = false;
    // Set when Cancel came during the set-up, before any factors existed (the stage, as
    // SetupCancelled names it: "the nearest-neighbour search"). The factorization then holds only
    // the method's name and StopReason::Cancelled, and nothing is clustered or scored.
    std::string cancelledDuring;
};

// What consecutive runs on one X can share, so that a re-run with another lambda, rank or seed
// (the explorer's auto re-run while a slider moves) does not build the same kNN graph again:
// at 16,000 samples of 500 features that is a second, at 70,000 of 1024 about a minute
// (bench/RESULTS.md). Holds the linear kernel's operator and the kNN graph of one set of graph
// options; runAndCluster reuses the graph only for the same p, weight, heat width and search,
// and replaces it otherwise. Both read X: the owner keeps the cache with the data it was filled
// from, never passes it a different X, and drops it when the data goes.
struct SetupCache {
    std::shared_ptr<const Gram> gram; // Gram::linear of X
    std::shared_ptr<const Graph> graph; // buildKnnGraph of X with the options below
    int p = 0;
    GraphWeight weight = GraphWeight::Binary;
    std::optional<double> heatT;
    KnnSearch search = KnnSearch::Auto;
};

// The number of clusters a run finds (METHODS.md 4), which is also k-means' k: options.clusters
// when set, else the number of classes in `truth`, else the rank.
int runClusters(const RunOptions& options, const std::vector<int>& truth);

// The labelled subset a semi-supervised method is given: params.knownLabels when set, else the
// draw from `truth` that labeledFraction or labeledPerClass asks for (seeded by driver.seed);
// empty for the other methods and without either option. Throws std::invalid_argument when a
// draw is asked for and truth is empty. runAndCluster and the distributed `run` both take it.
std::vector<int> runKnownLabels(const RunOptions& options, const std::vector<int>& truth);

// Whether a semi-supervised run was given the label of every sample (a labelled fraction or
// count that covers every class): its AC and NMI then score the labels it was given, not a
// clustering it found.
bool everySampleLabelled(const RunResult& result);

// Factorizes X (m x n) and clusters the rows of V; AC/NMI against `truth` when it is not empty
// (then it has n entries). Throws std::invalid_argument for bad options or data. A cancel is a
// result: during the iterations, StopReason::Cancelled with the factors reached; during the
// set-up, RunResult::cancelledDuring. With a cache (see SetupCache), the shared pieces it holds
// for these options are used, and those the method builds are kept in it; the factors are the
// same bits as without it.
RunResult runAndCluster(MatrixCRef X, const std::vector<int>& truth, const RunOptions& options,
    const SolveControl& control = {}, SetupCache* cache = nullptr);

// Whether a run is a CF-family method that the iteration limit stopped while its objective was
// still falling from the random start (Factorization::randomStart; METHODS.md 0: every CF basis
// vector then begins near the data mean, and the family leaves that symmetric start slowly; the
// k-means start, at cluster centroids, gets further in fewer iterations). The GUI's run summary
// and facet-cli then suggest that start. CF_OGL, with its own start, never reports a random one.
bool suggestsKMeansStart(const Factorization& factorization, const RunOptions& options);

// The seed of a run's clustering step (k-means on V), derived from the driver's seed: a run whose
// factors were computed elsewhere (a distributed solve) clusters them as runAndCluster would.
std::uint64_t runClusterSeed(std::uint64_t seed);

// The clustering step alone (also used for re-clustering a kept factorization).
std::vector<int> clusterRepresentation(
    const Matrix& V, int clusters, const ClusterOptions& options, std::uint64_t seed);

} // namespace facet
