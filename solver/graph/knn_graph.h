// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/cancellation.h"
#include "core/types.h"
#include "graph/graph.h"

#include <cstdint>
#include <functional>
#include <optional>
#include <stop_token>
#include <vector>

namespace facet {

// How the neighbours of the kNN graph are found. Exact is a brute-force search in tiled GEMMs,
// O(n^2 m / 2): on the 2-core Intel host of bench/RESULTS.md section 16, 5 s at n = 20,000,
// m = 784 and 70 s at n = 70,000, m = 1024. Approximate is an HNSW index (graph/hnsw_search.h),
// O(n log n) distance evaluations: 8 s and 61 s there, with a recall that `facet-cli bench
// --knn-recall` measures against the exact graph (0.9998 and 0.9967). Auto is exact below
// kApproximateKnnThreshold samples, where the exact search is the faster or about as fast, and
// approximate from there on. (The threshold was 20,000 while the exact search formed each
// distance twice: 17 s and 372 s.)
enum class KnnSearch { Auto, Exact, Approximate };
inline constexpr Eigen::Index kApproximateKnnThreshold = 50000;

// Whether `search` on n samples runs the approximate search.
constexpr bool usesApproximateSearch(KnnSearch search, Eigen::Index n)
{
    return search == KnnSearch::Approximate
        || (search == KnnSearch::Auto && n >= kApproximateKnnThreshold);
}

// METHODS.md 1.3: the p-nearest-neighbour affinity graph of LCCF, GNMF and CF_OGL.
struct KnnOptions {
    int p = 5; // neighbours per sample, 1 <= p <= n - 1
    GraphWeight weight = GraphWeight::Binary;
    std::optional<double> heatT; // heat width t > 0; unset: meanPairwiseDistance(X, seed)
    std::uint64_t seed = 0; // draws the sample of the default heat width (and seeds the HNSW index)
    KnnSearch search = KnnSearch::Auto;
    // Checked during the neighbour search (the long part): once set, buildKnnGraph throws
    // SetupCancelled (core/cancellation.h).
    std::stop_token stop {};
    // Hears the neighbour search's progress (core/cancellation.h).
    StageProgress progress {};
};

// The sample size of meanPairwiseDistance().
inline constexpr Eigen::Index kPairwiseSampleSize = 3000;

// Mean Euclidean distance |x_i - x_j| over all pairs i < j of at most kPairwiseSampleSize
// columns of X (m x n): every column when n <= kPairwiseSampleSize, else a uniform sample
// without replacement drawn with Rng(seed). The default heat width t (METHODS.md 1.3).
double meanPairwiseDistance(MatrixCRef X, std::uint64_t seed);

// The columns meanPairwiseDistance() averages over when X has n columns: every column when
// n <= kPairwiseSampleSize, else that many drawn with Rng(seed), sorted.
std::vector<Eigen::Index> pairwiseSampleIndices(Eigen::Index n, std::uint64_t seed);

// The checks of `options` against n samples: 1 <= p <= n - 1, and a heat width t > 0 and finite
// where one is given for heat weights. Throws std::invalid_argument.
void requireKnnOptions(const KnnOptions& options, Eigen::Index samples);

// The heat width of `options` (checked by requireKnnOptions): 1 unless the weight is heat; then
// options.heatT, or meanDistance() when unset (1 if that is 0).
double heatWidth(const KnnOptions& options, const std::function<double()>& meanDistance);

// The weight of the edge between samples x_i and x_j, i < j in the sample order (norms given):
// the modes below. Called with the lower index first, it gives the same bits wherever the pair
// is formed (one process or the rank that holds one end, graph/distributed_knn.h).
Scalar knnEdgeWeight(GraphWeight weight, double t, Eigen::Ref<const Vector> xi,
    Eigen::Ref<const Vector> xj, Scalar normI, Scalar normJ);

// The symmetric p-nearest-neighbour graph of the columns of X (m x n), by Euclidean distance.
// S_ij is stored iff i is among the p nearest of j or j among the p nearest of i (i != j);
// neighbours at equal distance are taken by smaller index first, so duplicate samples give a
// deterministic graph. Weights:
//   binary  1
//   heat    exp(-|x_i - x_j|^2 / (2 t^2))
//   cosine  max(0, x_i^T x_j / (|x_i| |x_j|)), and 0 when x_i or x_j is the zero vector.
// Every edge of the neighbour relation stays in the sparsity pattern even where its weight is 0
// (a zero vector, a negative cosine, a heat weight that underflows), so the pattern is the same
// in every weight mode; a stored 0 contributes nothing to S V or D. Negative cosines are cut at 0
// because L = D - S is positive semidefinite, and the multiplicative rules valid, only for S >= 0.
// degree = S 1. The search is nearestNeighborTable() (exact, blocked GEMMs, never n x n) or,
// as options.search says, approximateNeighborTable() (then the graph is that of the neighbours
// found; the tie rule holds among them).
// Throws std::invalid_argument unless 1 <= p <= n - 1, t > 0 and X is finite.
Graph buildKnnGraph(MatrixCRef X, const KnnOptions& options);

// METHODS.md 2.3 (SemiGNMF): the graph with label knowledge written in. knownLabels has one
// entry per sample, the class index (>= 0) or -1 when the label is unknown; empty means no
// labels. For two labelled samples i != j: same class -> S_ij = 1, the largest weight of every
// mode, for every such pair (edges are added where the kNN graph had none); different classes ->
// the edge is removed. Edges touching an unlabelled sample are unchanged; degrees are recomputed
// as S 1. Cost O(nnz(S) + sum over classes of l_c^2), l_c labelled samples of class c.
Graph applyLabelConstraints(const Graph& graph, const std::vector<int>& knownLabels);

} // namespace facet
