// SPDX-License-Identifier: GPL-3.0-or-later
#include "graph/hnsw_search.h"

#include "core/cancellation.h"
#include "core/update.h"

#include <hnswlib/hnswlib.h>

#include <algorithm>
#include <exception>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace facet {
namespace {

using Index = Eigen::Index;
using Candidate = std::pair<Scalar, Index>; // (squared distance, sample index)
using FloatVector = Eigen::Matrix<float, Eigen::Dynamic, 1>;

// Sample i's list from the search hits: self removed, distances recomputed exactly, ordered
// by (distance, index). When the search came back short (tiny or degenerate data), the list
// is completed by a brute-force scan of that one sample, O(n m).
void fillNeighbors(
    MatrixCRef X, Index i, int count, std::vector<Candidate>& list, NeighborTable& out)
{
    std::erase_if(list, [i](const Candidate& c) { return c.second == i; });
    if (Index(list.size()) < count) {
        list.clear();
        for (Index j = 0; j < X.cols(); ++j)
            if (j != i)
                list.emplace_back(Scalar(0), j);
    }
    for (Candidate& c : list)
        c.first = (X.col(i) - X.col(c.second)).squaredNorm();
    std::partial_sort(list.begin(), list.begin() + count, list.end());
    for (int h = 0; h < count; ++h) {
        out.index(h, i) = list[std::size_t(h)].second;
        out.squaredDistance(h, i) = list[std::size_t(h)].first;
    }
}

} // namespace

NeighborTable approximateNeighborTable(MatrixCRef X, int count, const HnswParameters& parameters,
    const std::stop_token& stop, const StageProgress& progress)
{
    const Index n = X.cols();
    const Index m = X.rows();
    if (count < 1 || count > n - 1)
        throw std::invalid_argument("the neighbour count must be in [1, n - 1] = [1, "
            + std::to_string(n - 1) + "], got " + std::to_string(count));
    requireFinite(X);

    hnswlib::L2Space space(static_cast<std::size_t>(m));
    hnswlib::HierarchicalNSW<float> index(&space, static_cast<std::size_t>(n),
        static_cast<std::size_t>(parameters.links),
        static_cast<std::size_t>(parameters.constructionBeam),
        static_cast<std::size_t>(parameters.seed));
    index.setEf(static_cast<std::size_t>(std::max(parameters.searchBeam, count + 1)));

    NeighborTable table;
    table.index.resize(count, n);
    table.squaredDistance.resize(count, n);
    // Points go in one at a time, in sample order: hnswlib can insert from several threads, but
    // the graph it builds then depends on their timing, and a seed must reproduce its factors
    // (ARCHITECTURE.md). The queries below run in parallel on the finished, read-only index.
    // hnswlib copies each point into its own storage, so one float column is all the conversion
    // needs (never a float copy of X).
    FloatVector column(m);
    for (Index i = 0; i < n; ++i) {
        if (i % 256 == 0) {
            if (i > 0)
                reportProgress(progress, kHnswInsertionShare * double(i) / double(n));
            throwIfStopped(stop, kNeighborSearchStage);
        }
        column = X.col(i).cast<float>();
        index.addPoint(column.data(), static_cast<hnswlib::labeltype>(i));
    }
    reportProgress(progress, kHnswInsertionShare);
    // The queries in blocks, so that the progress is heard between parallel regions.
    constexpr Index kQueryBlock = 4096;
    std::exception_ptr failure;
    for (Index q0 = 0; q0 < n && !failure; q0 += kQueryBlock) {
        throwIfStopped(stop, kNeighborSearchStage);
        const Index q1 = std::min(n, q0 + kQueryBlock);
#pragma omp parallel
        {
            FloatVector query(m);
            std::vector<Candidate> list;
#pragma omp for schedule(dynamic, 64)
            for (Index i = q0; i < q1; ++i) {
                if (stop.stop_requested())
                    continue; // abandoned below, after the region
                try {
                    query = X.col(i).cast<float>();
                    auto hits = index.searchKnn(query.data(), static_cast<std::size_t>(count + 1));
                    list.clear();
                    for (; !hits.empty(); hits.pop())
                        list.emplace_back(Scalar(hits.top().first), Index(hits.top().second));
                    fillNeighbors(X, i, count, list, table);
                } catch (...) {
#pragma omp critical
                    failure = std::current_exception();
                }
            }
        }
        reportProgress(
            progress, kHnswInsertionShare + (1 - kHnswInsertionShare) * double(q1) / double(n));
    }
    if (failure)
        std::rethrow_exception(failure);
    throwIfStopped(stop, kNeighborSearchStage);
    return table;
}

double neighborRecall(const NeighborTable& approximate, const NeighborTable& exact)
{
    if (approximate.index.rows() != exact.index.rows()
        || approximate.index.cols() != exact.index.cols() || exact.index.size() == 0)
        throw std::invalid_argument("recall needs two neighbour tables of the same shape, got "
            + std::to_string(approximate.index.rows()) + " x "
            + std::to_string(approximate.index.cols()) + " and "
            + std::to_string(exact.index.rows()) + " x " + std::to_string(exact.index.cols()));
    Index found = 0;
    for (Index i = 0; i < exact.index.cols(); ++i)
        for (Index h = 0; h < exact.index.rows(); ++h) {
            const auto column = approximate.index.col(i);
            found += std::find(column.begin(), column.end(), exact.index(h, i)) != column.end();
        }
    return double(found) / double(exact.index.size());
}

} // namespace facet
