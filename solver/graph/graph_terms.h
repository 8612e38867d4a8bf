// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "graph/graph.h"

namespace facet {

// The graph regularizer's per-iteration work for GNMF and LCCF (METHODS.md 1.3), O(nnz k) each,
// with the rows in parallel on the calling thread's OpenMP team. Each row's sums run in the same
// order whatever the thread count, so a seed still reproduces its factors.

// plus = lambda D V and minus = lambda S V (V n x k): the two halves of the gradient of
// lambda Tr(V^T L V) that the multiplicative rule puts in its denominator and numerator.
void graphGradientParts(
    const Graph& graph, const Matrix& V, Scalar lambda, Matrix& plus, Matrix& minus);

// Tr(V^T (D - S) V) summed in double without cancellation (see graph_terms.cpp).
double graphQuadraticForm(const Graph& graph, const Matrix& V);

} // namespace facet
