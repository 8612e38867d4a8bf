// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "graph/adaptive_neighbors.h" // NeighborTable

#include <cstdint>
#include <stop_token>

namespace facet {

// Parameters of the approximate search (Malkov & Yashunin, "Efficient and robust approximate
// nearest neighbor search using Hierarchical Navigable Small World graphs", TPAMI 2020), through
// Debian's header-only hnswlib. The defaults give a recall above 0.95 for p <= 10 on image sets
// (measured by `facet-cli bench --knn-recall`, bench/RESULTS.md).
struct HnswParameters {
    int links = 16; // M: links per node and layer
    int constructionBeam = 100; // ef_construction
    int searchBeam = 64; // ef at query time, raised to count + 1 when smaller
    std::uint64_t seed = 0; // hnswlib draws the layer of each node from it
};

// The `count` approximate nearest neighbours of every column of X (m x n) by Euclidean distance,
// self excluded, in the layout of nearestNeighborTable(). The index holds the columns in single
// precision (hnswlib's L2 space is float), built on one thread in sample order so that the same
// data and seed give the same table, then queried on all threads; the distances of the
// neighbours found are recomputed in Scalar from the difference and the list is ordered by
// (distance, index), so everything after the search matches the exact table's conventions.
// Cost ~ n log n distance evaluations instead of the exact n^2; memory ~ n (4 m + 8 links)
// bytes for the index, freed on return. Throws std::invalid_argument unless
// 1 <= count <= n - 1 and X is finite; SetupCancelled (kNeighborSearchStage) once `stop` is set,
// which is checked every 256 insertions and between queries. `progress` hears the fraction done
// every 256 insertions and after each block of queries (the insertions counted as
// kHnswInsertionShare of the work).
NeighborTable approximateNeighborTable(MatrixCRef X, int count,
    const HnswParameters& parameters = {}, const std::stop_token& stop = {},
    const StageProgress& progress = {});

// The insertions' share of the search's time (2 cores, bench/RESULTS.md's Intel host: 2.67 of
// 3.73 s at 20,000 x 784, 0.079 of 0.105 s on COIL-20), for its progress.
inline constexpr double kHnswInsertionShare = 0.7;

// Recall of an approximate table against the exact one: the fraction of the exact neighbour
// pairs (i, j) that the approximate table also has, averaged over all samples. Both tables
// must have the same shape (std::invalid_argument otherwise).
double neighborRecall(const NeighborTable& approximate, const NeighborTable& exact);

} // namespace facet
