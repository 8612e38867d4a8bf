// SPDX-License-Identifier: GPL-3.0-or-later
#include "graph/adaptive_neighbors.h"

#include "graph/neighbor_candidates.h"

#include "core/cancellation.h"
#include "core/openmp.h"
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

} // namespace

NeighborTable nearestNeighborTable(
    MatrixCRef X, int count, const std::stop_token& stop, const StageProgress& progress)
{
    using namespace neighbor_search;
    const Index n = X.cols();
    NeighborTable table = startTable(X, count, n);
    const Vector norm2 = X.colwise().squaredNorm().transpose();
    const Vector slack = screeningSlack(X.rows(), norm2, norm2.maxCoeff());
    const Search search { X, std::size_t(count), slack, X };
    // The screening distance of a pair is the same for both of its samples, so each pair's dot
    // product is formed once: tile (I, J), J >= I, of the blocks of kTile samples gives the
    // candidates of I's samples (from J) and of J's (from I). Row of tiles I after row: its
    // tiles in parallel, each thread with its own lists for I's samples (merged after the row),
    // while J's lists belong to the one thread that has tile (I, J). Until 24 November every
    // block of queries formed its distances to all n samples: twice the multiply-adds, and each
    // query sorted through a list of all n (issue 7).
    // The result does not depend on the tiles or the threads: every true neighbour survives
    // (CandidateList), and the exact ranking by (distance, index) decides.
    const Index blocks = (n + kTile - 1) / kTile;
    std::vector<CandidateList> lists(static_cast<std::size_t>(n));
    const int threads = omp::maxThreads();
    std::vector<std::vector<CandidateList>> own(static_cast<std::size_t>(threads));
    for (Index I = 0; I < blocks; ++I) {
        const Index i0 = I * kTile, rowsI = std::min(kTile, n - i0);
        for (std::vector<CandidateList>& mine : own)
            mine.clear(); // a thread the team may lack leaves nothing behind
#pragma omp parallel num_threads(threads)
        {
            std::vector<CandidateList>& mine = own[std::size_t(omp::threadNum())];
            mine.assign(std::size_t(rowsI), CandidateList {});
            Matrix T; // X_I^T X_J
#pragma omp for schedule(dynamic, 1)
            for (Index J = I; J < blocks; ++J) {
                if (stop.stop_requested())
                    continue; // abandoned below, after the region
                const Index j0 = J * kTile, colsJ = std::min(kTile, n - j0);
                T.noalias() = X.middleCols(i0, rowsI).transpose() * X.middleCols(j0, colsJ);
                for (Index b = 0; b < colsJ; ++b) {
                    const Index j = j0 + b;
                    CandidateList& other = lists[std::size_t(j)];
                    for (Index a = 0; a < rowsI; ++a) {
                        const Index i = i0 + a;
                        if (i == j)
                            continue;
                        const Scalar d = norm2(i) - 2 * T(a, b) + norm2(j);
                        mine[std::size_t(a)].offer(search, i, d, j);
                        // The diagonal tile holds both (i, j) and (j, i) already.
                        if (J != I)
                            other.offer(search, j, d, i);
                    }
                }
            }
        }
        throwIfStopped(stop, kNeighborSearchStage);
#pragma omp parallel for schedule(static) num_threads(threads)
        for (Index a = 0; a < rowsI; ++a)
            for (const std::vector<CandidateList>& mine : own)
                if (!mine.empty())
                    lists[std::size_t(i0 + a)].merge(search, i0 + a, mine[std::size_t(a)]);
        // Row I had blocks - I tiles: after it, the tiles of rows 0..I of the triangle's total.
        const double done = double(I + 1) * double(2 * blocks - I) / 2;
        reportProgress(progress, done / (double(blocks) * double(blocks + 1) / 2));
    }
#pragma omp parallel for schedule(static) num_threads(threads)
    for (Index i = 0; i < n; ++i)
        selectNeighbors(search, i, lists[std::size_t(i)], table);
    return table;
}

Graph adaptiveNeighborGraph(
    MatrixCRef X, int p, const std::stop_token& stop, const StageProgress& progress)
{
    const Index n = X.cols();
    if (p < 1 || p > n - 1)
        throw std::invalid_argument("the neighbour count p must be in [1, n - 1] = [1, "
            + std::to_string(n - 1) + "], got " + std::to_string(p));
    const int count = int(std::min<Index>(p + 1, n - 1));
    const NeighborTable table = nearestNeighborTable(X, count, stop, progress);
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
