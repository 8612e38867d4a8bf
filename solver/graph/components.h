// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "graph/graph.h"

#include <vector>

namespace facet {

// The connected components of the undirected graph whose edges are the off-diagonal entries
// A_ij > 0 (A n x n; an asymmetric A is read as undirected: i ~ j when A_ij > 0 or A_ji > 0).
// Stored zeros are not edges. labels[i] in [0, count); components are numbered in the order of
// their smallest member, so the labelling is deterministic. Cost O(n + nnz) (union-find).
// METHODS.md section 3: when the learned graph Q has exactly c components, they are a clustering.
struct Components {
    std::vector<int> labels;
    int count = 0;
};

Components connectedComponents(const SparseMatrix& A);

} // namespace facet
