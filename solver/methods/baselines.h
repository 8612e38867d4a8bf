// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "cluster/kmeans.h"
#include "core/method.h"

namespace facet {

// METHODS.md section 4, the two baselines without a factorization loop.

// k-means on the raw columns of X (m x n). The result reads like a factorization: basis = the
// centroids (m x c), V = the cluster indicator (n x c), history = the final k-means objective.
Factorization kmeansBaseline(MatrixCRef X, const KMeansOptions& options);

// The k leading principal components of the samples (columns of X): basis = unit principal
// directions (m x k, signed; each column's largest entry made positive for determinism),
// V = the centred samples' scores (n x k). Uses the m x m covariance when m <= n and the
// centred n x n Gram matrix otherwise, whichever is smaller.
Factorization pcaBaseline(MatrixCRef X, int rank);

} // namespace facet
