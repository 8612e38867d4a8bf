// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "cluster/kmeans.h"
#include "core/method.h"

namespace facet {

// METHODS.md section 4, the two baselines without a factorization loop.

// k-means on the raw columns of X (m x n). The result reads like a factorization: basis = the
// centroids (m x c), V = the cluster indicator (n x c), history = the final k-means objective,
// iterations = the kept start's Lloyd rounds; Converged when its last round moved no sample,
// MaxIterations when it stopped at options.maxIter rounds, Cancelled when options.stop ended it.
// runAndCluster reports its starts as the stage kKMeansStage (options.progress).
inline constexpr const char* kKMeansStage = "the k-means restarts";
Factorization kmeansBaseline(MatrixCRef X, const KMeansOptions& options);

// How pcaBaseline found its components (the bench's cost model reads it).
struct PcaStats {
    Eigen::Index order = 0; // p = min(m, n), the order of the matrix decomposed
    bool lanczos = false; // k leading pairs by Lanczos (Spectra); else a full decomposition
    Eigen::Index subspace = 0; // Lanczos: the Krylov subspace kept (ncv)
    Eigen::Index products = 0; // Lanczos: products with the p x p matrix
    Eigen::Index restarts = 0; // Lanczos: implicit restarts
};

// The k leading principal components of the samples (columns of X): basis = unit principal
// directions (m x k, signed; each column's largest entry made positive for determinism),
// V = the centred samples' scores (n x k). Uses the m x m covariance when m <= n and the
// centred n x n Gram matrix otherwise, whichever is smaller, formed as its lower triangle; from
// order 64 on, when Lanczos' subspace (max(2k + 1, k + 20)) is at most half the order, only the
// k leading eigenpairs are computed, else all of them. X is read twice. The history holds the
// variance left out, ||Xc||^2 - ||V||^2. `stop` is checked between the Gram matrix's slabs and
// before each Lanczos product: once set, pcaBaseline throws SetupCancelled (core/cancellation.h,
// stage kPcaStage); the full decomposition of a small matrix (order below 64, or a rank near the
// order) runs to its end. `progress` hears the fraction done between the Gram matrix's slabs and
// after each Lanczos product, and 1 at the end (on the calling thread).
inline constexpr const char* kPcaStage = "PCA's covariance and eigenvectors";
Factorization pcaBaseline(MatrixCRef X, int rank, PcaStats* stats = nullptr,
    const std::stop_token& stop = {}, const StageProgress& progress = {});

} // namespace facet
