// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/types.h"

#include <Eigen/SparseCore>

#include <memory>

namespace facet {

// Edge weights of the kNN graph (METHODS.md 1.3).
enum class GraphWeight { Binary, Heat, Cosine };

using SparseMatrix = Eigen::SparseMatrix<Scalar, Eigen::ColMajor, Eigen::Index>;

class HaloExchange;

// A sparse symmetric affinity graph S (n x n, no self-loops) with its degrees D = diag(S 1);
// the Laplacian is L = D - S (METHODS.md section 0). S V costs O(nnz k).
//
// Distributed (issue 40, graph/distributed_knn.h), a rank keeps S's columns of its own samples:
// S is then (halo->extendedRows()) x n_r, its rows the extended index space of the halo
// (graph/halo_exchange.h), degree has the n_r degrees of its samples, and the graph terms fetch
// the halo's rows of V before each gather. One process: S is square and halo null.
struct Graph {
    SparseMatrix S;
    Vector degree; // one per column of S
    std::shared_ptr<const HaloExchange> halo;

    Eigen::Index size() const { return S.cols(); } // the samples whose rows of V this graph sets
};

} // namespace facet
