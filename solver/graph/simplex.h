// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/types.h"
#include "graph/graph.h"

#include <vector>

namespace facet {

// Euclidean projection onto the probability simplex (METHODS.md section 3, step 3):
//   q = argmin_{q >= 0, 1^T q = 1} ||q - y||^2 = max(y - tau, 0),
// with tau the unique value for which sum_j max(y_j - tau, 0) = 1 (the KKT conditions: the
// multiplier of 1^T q = 1 is tau, and q_j > 0 exactly where y_j > tau).
// Exact, O(d log d): Duchi, Shalev-Shwartz, Singer & Chandra, "Efficient projections onto the
// l1-ball for learning in high dimensions", ICML 2008; Wang & Carreira-Perpinan, "Projection
// onto the probability simplex", arXiv:1309.1541, 2013.

// tau for the d values y[0..d), d >= 1. `scratch` is reused to avoid an allocation per call.
Scalar simplexThreshold(const Scalar* y, Eigen::Index d, std::vector<Scalar>& scratch);

// The projection of y (size >= 1).
Vector projectOntoSimplex(const Vector& y);

// Projects each column of M, restricted to its stored entries (the support), onto the simplex,
// in place: entries outside the sparsity pattern stay 0. Every column must store at least one
// entry (std::invalid_argument otherwise). Columns are independent; cost O(nnz log(nnz/n)).
void projectColumnsOntoSimplex(SparseMatrix& M);

} // namespace facet
