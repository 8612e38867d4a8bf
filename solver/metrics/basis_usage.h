// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/types.h"

#include <vector>

namespace facet {

// How much a factorization uses each of its k parts. Shapes: basis m x k, V n x k.
//
// X ~ basis V^T = sum_j u_j v_j^T, so part j adds V(i, j) u_j to sample i. Its weight is the
// size of that contribution summed over the samples:
//     weight_j = sum_i ||V(i, j) u_j||_2 = ||u_j||_2 * ||v_j||_1.
// The sum (not the Frobenius norm ||u_j||_2 ||v_j||_2 of the rank-one term) counts a part used a
// little by many samples as much as one used a lot by a few. It is invariant to the scaling
// u_j -> c u_j, v_j -> v_j / c that leaves the product unchanged, so NMF (normalized V) and the
// CF family (normalized U = X W) compare alike. Throws std::invalid_argument when the column
// counts differ.
std::vector<double> basisWeights(MatrixCRef basis, MatrixCRef V);

// The indices 0..k-1 ordered by weight, largest first; ties keep index order.
std::vector<int> orderByWeight(const std::vector<double>& weights);

// The (at most `count`) samples with the largest |V(i, j)|, largest first; ties keep sample
// order. For non-negative V this is the largest V(i, j); for signed V (PCA) a strongly negative
// coefficient uses the part as much as a strongly positive one.
std::vector<int> strongestSamples(MatrixCRef V, int j, int count);

} // namespace facet
