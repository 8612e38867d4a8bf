// SPDX-License-Identifier: GPL-3.0-or-later
#include "graph/adaptive_neighbors.h"

#include "core/update.h"

#include <algorithm>
#include <limits>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace facet {
namespace {

using Index = Eigen::Index;
using Candidate = std::pair<Scalar, Index>; // (squared distance, sample index)

// At most this many screening distances (32 MB in double) are held at once.
constexpr Index kBlockEntries = Index(1) << 22;
constexpr Index kMaxQueryBlock = 256;

// The exact neighbours of sample i from its column of screening distances `approx` (n).
// Every j whose expanded distance lies within 2 slack of the count-th smallest can be among the
// true count nearest; those are ranked again by the distance formed from the difference.
void selectNeighbors(MatrixCRef X, Index i, const Scalar* approx, Scalar slack, int count,
    std::vector<Candidate>& list, NeighborTable& out)
{
    const Index n = X.cols();
    list.clear();
    for (Index j = 0; j < n; ++j)
        if (j != i)
            list.emplace_back(approx[j], j);
    std::nth_element(list.begin(), list.begin() + (count - 1), list.end());
    const Scalar limit = list[std::size_t(count - 1)].first + 2 * slack;
    std::erase_if(list, [limit](const Candidate& c) { return c.first > limit; });
    for (Candidate& c : list)
        c.first = (X.col(i) - X.col(c.second)).squaredNorm();
    std::partial_sort(list.begin(), list.begin() + count, list.end());
    for (int h = 0; h < count; ++h) {
        out.index(h, i) = list[std::size_t(h)].second;
        out.squaredDistance(h, i) = list[std::size_t(h)].first;
    }
}

} // namespace

NeighborTable nearestNeighborTable(MatrixCRef X, int count)
{
    const Index n = X.cols();
    if (count < 1 || count > n - 1)
        throw std::invalid_argument("the neighbour count must be in [1, n - 1] = [1, "
            + std::to_string(n - 1) + "], got " + std::to_string(count));
    requireFinite(X);
    NeighborTable table;
    table.index.resize(count, n);
    table.squaredDistance.resize(count, n);
    const Vector norm2 = X.colwise().squaredNorm().transpose();
    const Scalar maxNorm2 = norm2.maxCoeff();
    // Rounding bound of an m-term dot product, doubled for the two norms and the exact form.
    const Scalar errorScale = Scalar(2 * X.rows() + 8) * std::numeric_limits<Scalar>::epsilon();
    const Index block = std::clamp(kBlockEntries / n, Index(1), kMaxQueryBlock);
    Matrix D; // n x queries: column q holds the screening distances of sample q0 + q
    for (Index q0 = 0; q0 < n; q0 += block) {
        const Index queries = std::min(block, n - q0);
        D.noalias() = X.transpose() * X.middleCols(q0, queries);
        D = ((-2 * D).colwise() + norm2).rowwise() + norm2.segment(q0, queries).transpose();
#pragma omp parallel
        {
            std::vector<Candidate> list;
#pragma omp for schedule(static)
            for (Index q = 0; q < queries; ++q) {
                const Index i = q0 + q;
                const Scalar slack = errorScale * (norm2(i) + maxNorm2);
                selectNeighbors(X, i, D.col(q).data(), slack, count, list, table);
            }
        }
    }
    return table;
}

Graph adaptiveNeighborGraph(MatrixCRef X, int p)
{
    const Index n = X.cols();
    if (p < 1 || p > n - 1)
        throw std::invalid_argument("the neighbour count p must be in [1, n - 1] = [1, "
            + std::to_string(n - 1) + "], got " + std::to_string(p));
    const int count = int(std::min<Index>(p + 1, n - 1));
    const NeighborTable table = nearestNeighborTable(X, count);
    std::vector<Eigen::Triplet<Scalar, Index>> triplets;
    triplets.reserve(std::size_t(2 * p * n));
    for (Index i = 0; i < n; ++i) {
        const auto d = table.squaredDistance.col(i);
        const Scalar far = d(count - 1); // d_i,p+1 (d_ip when p = n - 1)
        const Scalar denominator = p * far - d.head(p).sum();
        for (int h = 0; h < p; ++h) {
            const Scalar g = denominator > 0 ? (far - d(h)) / denominator : Scalar(1) / p;
            if (g > 0) {
                // (G + G^T)/2: each directed weight lands half on (i, j) and half on (j, i).
                triplets.emplace_back(i, table.index(h, i), g / 2);
                triplets.emplace_back(table.index(h, i), i, g / 2);
            }
        }
    }
    Graph graph;
    graph.S.resize(n, n);
    graph.S.setFromTriplets(triplets.begin(), triplets.end()); // duplicates are summed
    graph.S.makeCompressed();
    graph.degree = graph.S * Vector::Ones(n);
    return graph;
}

} // namespace facet
