// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The candidate lists of the exact neighbour search (graph/adaptive_neighbors.cpp), shared with
// its distributed form (graph/distributed_knn.cpp). Internal to solver/graph.

#include "core/types.h"
#include "core/update.h" // requireFinite
#include "graph/adaptive_neighbors.h"

#include <algorithm>
#include <cstddef>
#include <limits>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace facet::neighbor_search {

using Index = Eigen::Index;
using Candidate = std::pair<Scalar, Index>; // (squared distance, sample index)

// The search's tiles: kTile x kTile screening distances (512 KiB in double) of two blocks of
// samples, one tile per thread at a time.
constexpr Index kTile = 256;
// A query's candidates are cut back to its threshold once it holds this many beyond the
// neighbour count (then at twice what a cut left), and ranked exactly at once when a cut leaves
// more than kListCap (near-ties: many samples at about the same distance, e.g. duplicates), so
// no list outgrows count + 2 kListCap entries.
constexpr std::size_t kListSlack = 32;
constexpr std::size_t kListCap = 256;

// The queries are the columns of X; their candidates are columns of `others`, candidate j being
// others.col(j - othersFirst). One process: others is X and othersFirst 0. Distributed
// (graph/distributed_knn.h): X holds this rank's samples and `others` the block of samples
// passing by on the ring, whose candidates are ranked before the block moves on.
struct Search {
    MatrixCRef X;
    std::size_t count;
    const Vector& slack; // per query: twice it bounds the rounding of a screening distance
    MatrixCRef others;
    Eigen::Index othersFirst = 0;
};

// One query's candidates for its `count` nearest. `entries`: every offered (screening distance,
// index) within `limit`, the count-th smallest screening distance among the entries at some cut
// plus twice the query's slack (infinite before). The limit only falls as candidates arrive and
// never below the final one over all n - 1 others, so every true neighbour stays (its screening
// distance is within 2 slack of the count-th smallest). `ranked`: at most `count` candidates by
// (exact distance, index), the best of those already ranked exactly; a candidate they beat
// cannot be among the final count either.
struct CandidateList {
    std::vector<Candidate> entries;
    std::vector<Candidate> ranked;
    Scalar limit = std::numeric_limits<Scalar>::infinity();
    std::size_t cutAt = 0;

    void offer(const Search& s, Index i, Scalar distance, Index j)
    {
        if (distance > limit)
            return;
        entries.emplace_back(distance, j);
        if (entries.size() >= std::max(cutAt, s.count + kListSlack))
            cut(s, i);
    }
    void cut(const Search& s, Index i)
    {
        if (entries.size() >= s.count) {
            const auto kth = entries.begin() + std::ptrdiff_t(s.count - 1);
            std::nth_element(entries.begin(), kth, entries.end());
            limit = std::min(limit, kth->first + 2 * s.slack(i));
            const Scalar keep = limit;
            std::erase_if(entries, [keep](const Candidate& c) { return c.first > keep; });
        }
        if (entries.size() > kListCap)
            rank(s, i);
        cutAt = 2 * entries.size();
    }
    // The entries' exact distances |x_i - x_j|^2 from the difference, into `ranked`.
    void rank(const Search& s, Index i)
    {
        for (const Candidate& c : entries)
            ranked.emplace_back(
                (s.X.col(i) - s.others.col(c.second - s.othersFirst)).squaredNorm(), c.second);
        entries.clear();
        trimRanked(s.count);
    }
    void trimRanked(std::size_t count)
    {
        if (ranked.size() <= count)
            return;
        std::partial_sort(ranked.begin(), ranked.begin() + std::ptrdiff_t(count), ranked.end());
        ranked.resize(count);
    }
    void merge(const Search& s, Index i, const CandidateList& other)
    {
        limit = std::min(limit, other.limit);
        for (const Candidate& c : other.entries)
            offer(s, i, c.first, c.second);
        ranked.insert(ranked.end(), other.ranked.begin(), other.ranked.end());
        trimRanked(s.count);
    }
};

// Sample i's exact neighbours: its remaining candidates ranked by the exact distance, merged
// with those ranked before, ties by index.
inline void selectNeighbors(const Search& s, Index i, CandidateList& list, NeighborTable& out)
{
    list.cut(s, i);
    list.rank(s, i);
    std::sort(list.ranked.begin(), list.ranked.end());
    for (std::size_t h = 0; h < s.count; ++h) {
        out.index(Index(h), i) = list.ranked[h].second;
        out.squaredDistance(Index(h), i) = list.ranked[h].first;
    }
    list = CandidateList {};
}

// A search for the `count` nearest of each column of X among `samples` samples: checks count
// and X, and returns the table for X's columns.
inline NeighborTable startTable(MatrixCRef X, int count, Index samples)
{
    if (count < 1 || count > samples - 1)
        throw std::invalid_argument("the neighbour count must be in [1, n - 1] = [1, "
            + std::to_string(samples - 1) + "], got " + std::to_string(count));
    requireFinite(X);
    NeighborTable table;
    table.index.resize(count, X.cols());
    table.squaredDistance.resize(count, X.cols());
    return table;
}

// Per query: the rounding bound of its screening distances, from its squared norm and the
// largest among all the samples searched (an m-term dot product's, doubled for the two norms
// and the exact form).
inline Vector screeningSlack(Index features, const Vector& norm2, Scalar maxNorm2)
{
    const Scalar errorScale = Scalar(2 * features + 8) * std::numeric_limits<Scalar>::epsilon();
    return (errorScale * (norm2.array() + maxNorm2)).matrix();
}

} // namespace facet::neighbor_search
