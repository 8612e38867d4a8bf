// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/collectives.h"
#include "core/gram.h"
#include "core/random.h"
#include "methods/registry.h" // InitKind

#include <initializer_list>
#include <string_view>

namespace facet {

// Starting factors of METHODS.md section 0. Shapes: X m x n, U m x k, W and V n x k.
struct NmfStart {
    Matrix U;
    Matrix V;
};
struct CfStart {
    Matrix W;
    Matrix V;
};

// Iterations of the NMF run behind InitKind::Nmf.
inline constexpr int kShortNmfIterations = 30;
// Offset added to the k-means indicator H for the coefficient start V = H + 0.2.
inline constexpr Scalar kKMeansCoefficientOffset = Scalar(0.2);

std::string_view initName(InitKind kind);

// The start of an NMF-family method (U, V >= 0). Random: U then V uniform [0, 1) in that order of
// draws. X must be non-negative for every kind but kmeans.
// Distributed (core/collectives.h): U is drawn whole on every rank, then V's draws as one process
// makes them, of which this rank keeps its samples' rows, so the start is the single process's.
// Only the random and nmf starts are distributed (std::invalid_argument for the others).
NmfStart nmfFamilyStart(
    InitKind kind, MatrixCRef X, int rank, Rng& rng, const SampleDistribution& distribution = {});

// The start of a CF-family method (W, V >= 0) for the kernel operator `gram` of X. Random: W then
// V uniform [0, 1). Nmf needs X >= 0.
// Distributed: W's and V's rows of this rank from the single process's draws (random start), or
// the nmf start run distributed (the other starts throw std::invalid_argument).
CfStart cfFamilyStart(InitKind kind, MatrixCRef X, const Gram& gram, int rank, Rng& rng,
    const SampleDistribution& distribution = {});

// NNDSVD (Boutsidis & Gallopoulos 2008, Pattern Recognition 41): from the k leading singular
// triplets (sigma_j, p_j, q_j) of X, column j is the dominant sign part of the rank-one term:
// with p+/-, q+/- the positive and negative parts, s+ = |p+||q+|, s- = |p-||q-|, the larger
// one chosen, U_j = sqrt(sigma_j s) p+/-/|p+/-|, V_j = sqrt(sigma_j s) q+/-/|q+/-|. Zero entries
// are set to the mean of X (the NNDSVDa variant), since a multiplicative rule cannot revive 0.
// That fill makes the start's product worse than NNDSVD's, but on planted data the multiplicative
// updates then converge faster than from a small fill (mean / 100), which leaves entries stuck.
NmfStart nndsvdStart(MatrixCRef X, int rank);

// NNDSVD for the CF family, applied to K (n x n) rather than X, so it holds for any kernel: K is
// symmetric with eigenpairs (lambda_j, q_j), and the NNDSVD of K gives both factors equal to
// A_j = sqrt(lambda_j) q+/- with the larger-norm sign part of q_j (s+ = |q+|^2 vs s- = |q-|^2),
// so K ~ A A^T. CF needs K W V^T ~ K: take V = A and W with K W ~ A, i.e. (K q = lambda q)
// W_j = A_j / lambda_j. Then X W V^T ~ sum_j X q_j q_j^T, the truncated SVD of X for the linear
// kernel. Zeros are set to the mean entry of their factor (NNDSVDa on each factor's own scale).
CfStart nndsvdCfStart(MatrixCRef X, const Gram& gram, int rank);

// One k-means run with k clusters (seed drawn from rng) on the columns of X gives the indicator
// H (n x k): NMF starts from U = the centroids, V = H + 0.2.
NmfStart kmeansStart(MatrixCRef X, int rank, Rng& rng);

// As kmeansStart, for the CF family: W = H with column j divided by the size of cluster j, so
// X w_j is the centroid of cluster j, and V = H + 0.2. Entries of W outside the cluster start at
// 0 and stay at the update floor: each basis vector remains a combination of its cluster's
// samples. Clustering is done in input space for every kernel.
CfStart kmeansCfStart(MatrixCRef X, int rank, Rng& rng);

// kShortNmfIterations of NMF (Nmf class) from a random start drawn from rng.
NmfStart shortNmfStart(MatrixCRef X, int rank, Rng& rng);

// The CF-family start from a short NMF run X ~ U V^T. The coefficients keep their meaning
// (row i = sample i), so V_cf = V. The basis needs X W ~ U: least squares gives
// W = V (V^T V)^(-1), which can be negative; keeping only the diagonal of V^T V gives the
// non-negative W_j = V_j / |V_j|^2 (exact when the columns of V are orthogonal). The CF
// start-up normalization then fixes the scale of each pair (W_j, V_j).
// Distributed, |V_j|^2 sums over every rank's samples.
CfStart nmfCfStart(MatrixCRef X, int rank, Rng& rng, const SampleDistribution& distribution = {});

// The rows of rng.uniformMatrix(rows, cols) in the ranges `keep` (ordered, disjoint), stacked,
// drawn as that call would (column by column) with the other draws discarded: a rank's part of a
// single process's random start.
Matrix uniformRows(
    Rng& rng, Eigen::Index rows, Eigen::Index cols, std::initializer_list<SampleRange> keep);
// rng.uniformMatrix(localRows, cols) in one process; distributed, this rank's rows of the single
// process's draws of a totalSamples x cols matrix.
Matrix uniformSampleRows(
    Rng& rng, const SampleDistribution& distribution, Eigen::Index localRows, Eigen::Index cols);

} // namespace facet
