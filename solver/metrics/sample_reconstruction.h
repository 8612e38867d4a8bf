// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/method.h"

#include <vector>

namespace facet {

// One sample x_i (column i of X, m entries) against its approximation
// x^_i = basis V(i, :)^T = sum_j basis_j v_ij (NMF: U; CF family: basis = X W, so the same
// formula). PCA's basis describes the centred data: there x^_i = mu + basis V(i, :)^T.
struct SampleReconstruction {
    Vector original; // x_i
    Vector reconstruction; // x^_i
    Vector residual; // x_i - x^_i
    double residualPeak = 0; // max |residual|: the ends of a symmetric colour scale
    double relativeError = 0; // ||x_i - x^_i|| / ||x_i||; NaN for an all-zero sample
    // The largest terms basis_j v_ij, ranked by their norm |v_ij| ||basis_j|| (the coefficient
    // alone would mislead when basis columns differ in norm, as k-means centroids do).
    std::vector<int> topComponents;
    std::vector<double> topCoefficients; // v_ij of each, in the same order
};

// Throws std::invalid_argument when the shapes disagree or `sample` is out of range; `top` is
// clamped to [0, k].
SampleReconstruction reconstructSample(
    MatrixCRef X, const Factorization& factorization, Eigen::Index sample, int top);

} // namespace facet
