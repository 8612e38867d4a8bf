// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/cancellation.h"
#include "core/types.h"
#include "graph/graph.h"

#include <stop_token>

namespace facet {

// The `count` nearest neighbours of every column of X (m x n) by squared Euclidean distance,
// self excluded, ordered by (distance, index); 1 <= count <= n - 1. Exact: distances are
// screened tile by tile with d2(i, j) = |x_i|^2 - 2 x_i^T x_j + |x_j|^2 (a GEMM per 256 x 256
// tile, each pair's once: never n x n; each sample keeps only the candidates under its running
// threshold), and every candidate within the rounding bound of the count-th smallest is
// re-ranked by |x_i - x_j|^2 formed from the difference, so the result is that of a brute-force
// search even with duplicate samples, on any number of threads. Shapes: count x n.
// `stop` is checked between tiles: once set, the search throws SetupCancelled
// (core/cancellation.h) with the stage kNeighborSearchStage. `progress` hears the fraction of
// the tiles done after each row of them.
struct NeighborTable {
    Eigen::Matrix<Eigen::Index, Eigen::Dynamic, Eigen::Dynamic> index; // column i: i's neighbours
    Matrix squaredDistance; // column i: |x_i - x_j|^2 of those neighbours, non-decreasing
};

inline constexpr const char* kNeighborSearchStage = "the nearest-neighbour search";

NeighborTable nearestNeighborTable(
    MatrixCRef X, int count, const std::stop_token& stop = {}, const StageProgress& progress = {});

// METHODS.md section 3, the initial graph G of CF_OGL: adaptive-neighbour weights (Nie, Wang &
// Huang, "Clustering and projected clustering with adaptive neighbors", KDD 2014; CLR, Nie et
// al., AAAI 2016). With d_i1 <= ... <= d_i,p+1 the squared distances from x_i to its p + 1
// nearest other samples, row i solves min_{g >= 0, 1^T g = 1} sum_j d_ij g_ij + gamma_i g_ij^2
// with gamma_i chosen so that exactly the p nearest get weight:
//   g_ij = (d_i,p+1 - d_ij) / (p d_i,p+1 - sum_{h <= p} d_ih)   for the p nearest, else 0.
// Derivation where the formula is silent: when all p + 1 distances are equal the denominator is
// 0 and the limit of the problem is the uniform row g_ij = 1/p; when p = n - 1 there is no
// (p+1)-th neighbour and d_i,p+1 = d_ip is used (the farthest then gets weight 0 unless tied).
// Then G <- (G + G^T)/2. Only positive weights are stored (each row keeps at least one: row i
// of the unsymmetrized G sums to 1), no self-loops; degree = G 1.
// Throws std::invalid_argument unless 1 <= p <= n - 1 and X is finite; SetupCancelled when
// `stop` is set during the neighbour search, whose progress `progress` hears.
Graph adaptiveNeighborGraph(
    MatrixCRef X, int p, const std::stop_token& stop = {}, const StageProgress& progress = {});

} // namespace facet
