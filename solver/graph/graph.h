// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/types.h"

#include <Eigen/SparseCore>

namespace facet {

// Edge weights of the kNN graph (METHODS.md 1.3).
enum class GraphWeight { Binary, Heat, Cosine };

using SparseMatrix = Eigen::SparseMatrix<Scalar, Eigen::ColMajor, Eigen::Index>;

// A sparse symmetric affinity graph S (n x n, no self-loops) with its degrees D = diag(S 1);
// the Laplacian is L = D - S (METHODS.md section 0). S V costs O(nnz k).
struct Graph {
    SparseMatrix S;
    Vector degree; // n

    Eigen::Index size() const { return S.rows(); }
};

} // namespace facet
