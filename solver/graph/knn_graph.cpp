// SPDX-License-Identifier: GPL-3.0-or-later
#include "graph/knn_graph.h"

#include "core/random.h"
#include "core/update.h"
#include "graph/adaptive_neighbors.h" // nearestNeighborTable
#include "graph/hnsw_search.h"

#include <algorithm>
#include <cmath>
#include <functional>
#include <limits>
#include <map>
#include <stdexcept>
#include <string>
#include <utility>

namespace facet {
namespace {

using Index = Eigen::Index;
using Triplet = Eigen::Triplet<Scalar, Index>;

// Pairwise distances are formed for kBlock x kBlock pairs at a time (2 MB in double).
constexpr Index kBlock = 512;
// Below this fraction of |x_i|^2 + |x_j|^2 the expanded form of |x_i - x_j|^2 has lost too many
// digits to cancellation; such pairs are recomputed from the difference.
constexpr Scalar kCancellationRatio = Scalar(1e-2);

// |x_i - x_j|^2 from the difference: no cancellation, and bit-identical for (i, j) and (j, i),
// as in nearestNeighborTable().
Scalar exactSquaredDistance(MatrixCRef X, Index i, Index j)
{
    return (X.col(i) - X.col(j)).squaredNorm();
}

Vector degreesOf(const SparseMatrix& S)
{
    return S * Vector::Ones(S.cols());
}

} // namespace

// Indices of the columns whose pairwise distances are averaged: all of them, or a sorted
// uniform sample without replacement (partial Fisher-Yates).
std::vector<Index> pairwiseSampleIndices(Index n, std::uint64_t seed)
{
    std::vector<Index> index(static_cast<std::size_t>(n));
    for (Index i = 0; i < n; ++i)
        index[std::size_t(i)] = i;
    if (n <= kPairwiseSampleSize)
        return index;
    Rng rng(seed);
    for (Index i = 0; i < kPairwiseSampleSize; ++i)
        std::swap(
            index[std::size_t(i)], index[std::size_t(i + Index(rng.below(std::uint64_t(n - i))))]);
    index.resize(std::size_t(kPairwiseSampleSize));
    std::sort(index.begin(), index.end());
    return index;
}

double meanPairwiseDistance(MatrixCRef X, std::uint64_t seed)
{
    const std::vector<Index> sample = pairwiseSampleIndices(X.cols(), seed);
    const Index s = Index(sample.size());
    if (s < 2)
        return 0;
    Matrix gathered;
    if (s < X.cols()) {
        gathered.resize(X.rows(), s);
        for (Index a = 0; a < s; ++a)
            gathered.col(a) = X.col(sample[std::size_t(a)]);
    }
    const MatrixCRef Y = s < X.cols() ? MatrixCRef(gathered) : X;
    const Vector norm2 = Y.colwise().squaredNorm().transpose();
    double sum = 0;
    Matrix G;
    for (Index a0 = 0; a0 < s; a0 += kBlock) {
        const Index as = std::min(kBlock, s - a0);
        for (Index b0 = a0; b0 < s; b0 += kBlock) {
            const Index bs = std::min(kBlock, s - b0);
            G.noalias() = Y.middleCols(b0, bs).transpose() * Y.middleCols(a0, as);
            for (Index a = 0; a < as; ++a) {
                const Index i = a0 + a;
                for (Index b = std::max<Index>(0, i + 1 - b0); b < bs; ++b) {
                    const Index j = b0 + b;
                    Scalar d2 = norm2(i) + norm2(j) - 2 * G(b, a);
                    if (d2 <= kCancellationRatio * (norm2(i) + norm2(j)))
                        d2 = exactSquaredDistance(Y, i, j);
                    sum += std::sqrt(double(std::max(d2, Scalar(0))));
                }
            }
        }
    }
    return sum / (0.5 * double(s) * double(s - 1));
}

void requireKnnOptions(const KnnOptions& options, Index samples)
{
    if (options.p < 1 || options.p > samples - 1)
        throw std::invalid_argument("the kNN graph needs 1 <= p <= n - 1 neighbours, got p = "
            + std::to_string(options.p) + " with n = " + std::to_string(samples) + " samples");
    if (options.weight == GraphWeight::Heat && options.heatT) {
        const double t = *options.heatT;
        if (!(t > 0) || !std::isfinite(t))
            throw std::invalid_argument(
                "the heat width t must be positive and finite, got " + std::to_string(t));
    }
}

double heatWidth(const KnnOptions& options, const std::function<double()>& meanDistance)
{
    if (options.weight != GraphWeight::Heat)
        return 1;
    if (options.heatT)
        return *options.heatT;
    const double t = meanDistance();
    return t > 0 ? t : 1; // every sampled pair coincides; any width gives them weight 1
}

Scalar knnEdgeWeight(GraphWeight weight, double t, Eigen::Ref<const Vector> xi,
    Eigen::Ref<const Vector> xj, Scalar normI, Scalar normJ)
{
    if (weight == GraphWeight::Heat)
        return Scalar(std::exp(-double((xi - xj).squaredNorm()) / (2 * t * t)));
    if (weight == GraphWeight::Cosine) {
        const Scalar scale = normI * normJ;
        return scale > 0 ? std::clamp(xi.dot(xj) / scale, Scalar(0), Scalar(1)) : Scalar(0);
    }
    return 1;
}

Graph buildKnnGraph(MatrixCRef X, const KnnOptions& options)
{
    const Index n = X.cols();
    requireKnnOptions(options, n);
    requireFinite(X);
    const double t = heatWidth(options, [&] { return meanPairwiseDistance(X, options.seed); });

    // Undirected edges (i < j) of the OR-symmetrized neighbour relation, each once.
    HnswParameters hnsw;
    hnsw.seed = options.seed;
    const NeighborTable neighbours = usesApproximateSearch(options.search, n)
        ? approximateNeighborTable(X, options.p, hnsw, options.stop, options.progress)
        : nearestNeighborTable(X, options.p, options.stop, options.progress);
    std::vector<std::pair<Index, Index>> edges;
    edges.reserve(std::size_t(n) * std::size_t(options.p));
    for (Index i = 0; i < n; ++i)
        for (Index h = 0; h < options.p; ++h) {
            const Index j = neighbours.index(h, i);
            edges.emplace_back(std::min(i, j), std::max(i, j));
        }
    std::sort(edges.begin(), edges.end());
    edges.erase(std::unique(edges.begin(), edges.end()), edges.end());

    const Vector norm = X.colwise().norm().transpose();
    std::vector<Triplet> triplets;
    triplets.reserve(2 * edges.size());
    for (const auto& [i, j] : edges) {
        const Scalar w = knnEdgeWeight(options.weight, t, X.col(i), X.col(j), norm(i), norm(j));
        triplets.emplace_back(i, j, w);
        triplets.emplace_back(j, i, w);
    }
    Graph graph;
    graph.S.resize(n, n);
    graph.S.setFromTriplets(triplets.begin(), triplets.end());
    graph.degree = degreesOf(graph.S);
    return graph;
}

Graph applyLabelConstraints(const Graph& graph, const std::vector<int>& knownLabels)
{
    const Index n = graph.size();
    if (knownLabels.empty())
        return graph;
    if (Index(knownLabels.size()) != n)
        throw std::invalid_argument("known labels must have one entry per sample (n = "
            + std::to_string(n) + "), got " + std::to_string(knownLabels.size()));
    std::map<int, std::vector<Index>> classes;
    for (Index i = 0; i < n; ++i) {
        const int label = knownLabels[std::size_t(i)];
        if (label < -1)
            throw std::invalid_argument(
                "a known label is a class index >= 0 or -1 (unknown); sample "
                + std::to_string(i + 1) + " has " + std::to_string(label));
        if (label >= 0)
            classes[label].push_back(i);
    }

    std::vector<Triplet> triplets;
    triplets.reserve(std::size_t(graph.S.nonZeros()));
    for (Index j = 0; j < graph.S.outerSize(); ++j)
        for (SparseMatrix::InnerIterator it(graph.S, j); it; ++it) {
            const bool bothLabelled = knownLabels[std::size_t(it.row())] >= 0
                && knownLabels[std::size_t(it.col())] >= 0;
            if (!bothLabelled) // labelled pairs are rewritten below; different classes vanish
                triplets.emplace_back(it.row(), it.col(), it.value());
        }
    for (const auto& [label, members] : classes)
        for (Index a : members)
            for (Index b : members)
                if (a != b)
                    triplets.emplace_back(a, b, Scalar(1));

    Graph out;
    out.S.resize(n, n);
    out.S.setFromTriplets(triplets.begin(), triplets.end());
    out.degree = degreesOf(out.S);
    return out;
}

} // namespace facet
