// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/collectives.h"
#include "graph/adaptive_neighbors.h"
#include "graph/graph.h"
#include "graph/knn_graph.h"

namespace facet {

// The kNN graph of GNMF and LCCF with the samples split over ranks (issue 40; docs/cluster.md).
// Collective: every rank calls it with its columns X (m x n_r) of the whole X.
//
// 1. The neighbours: distributedNeighborTable() passes the blocks of X around the ring of
//    ranks (N - 1 shifts; a rank holds its own block and one passing by). Each rank screens its
//    samples against the block with the GEMM distances and ranks the survivors by the exact
//    |x_i - x_j|^2 while the block is there, so each sample's list is that of the brute-force
//    search of one process: nearestNeighborTable()'s, index for index.
// 2. The edges: i's neighbour j on another rank sends that rank the pair (j, i) (one
//    allToAll), so each rank knows every edge of its samples: the OR-symmetrized relation.
// 3. The halo (graph/halo_exchange.h): the other ranks' samples these edges reach. Non-binary
//    weights fetch their columns of X once, and form each weight from the pair in sample order
//    (knnEdgeWeight), the bits one process forms. The default heat width is the mean distance
//    over the sample pairwiseSampleIndices() draws, gathered on rank 0 and broadcast.
//
// The result: S has the halo's extended rows and this rank's columns, in global order within
// each column, degree has this rank's samples, and graph.halo fetches the neighbours' rows of V
// each iteration. The exact search only: options.search must not be Approximate (Auto is taken
// as exact: the approximate index is built over all samples at once). `options.stop` is not
// checked (one rank leaving the ring would leave the others waiting); mpirun ends the job.
Graph buildDistributedKnnGraph(
    MatrixCRef X, const KnnOptions& options, const SampleDistribution& distribution);

// nearestNeighborTable()'s columns of this rank's samples, from the ring pass (global indices).
NeighborTable distributedNeighborTable(MatrixCRef X, int count,
    const SampleDistribution& distribution, const StageProgress& progress = {});

} // namespace facet
