// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "graph/graph.h"

#include <cstdint>

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

// Both of the above from one gather of the neighbours' rows: returns Tr(V^T (D - S) V) and
// writes plus and minus, each the same bits as the separate functions give. At n = 70,000 the
// gathers (random rows of V, from L3 or memory) are latency-bound and cost as much as a tenth
// of a GNMF iteration each.
double graphTermsAndValue(
    const Graph& graph, const Matrix& V, Scalar lambda, Matrix& plus, Matrix& minus);

// GNMF's and LCCF's graph terms at one V, from one gather: the driver asks for the objective
// after every step, and the next step's rule needs lambda D V and lambda S V of that same V.
// `version` names V's contents: the method changes it whenever V may have changed (Nmf and Cf:
// m_vVersion), so a stale V is never served. Not thread-safe (one solve uses one method object
// on one thread).
class GraphTermCache {
public:
    // Tr(V^T (D - S) V); computes the parts of the same V alongside, for parts().
    double value(const Graph& graph, const Matrix& V, Scalar lambda, std::uint64_t version);
    // lambda D V and lambda S V: moved out of the cache when it holds them for this V (once),
    // else computed.
    void parts(const Graph& graph, const Matrix& V, Scalar lambda, std::uint64_t version,
        Matrix& plus, Matrix& minus);

private:
    bool holds(const Matrix& V, Scalar lambda, std::uint64_t version) const;

    bool m_valid = false;
    bool m_hasParts = false;
    std::uint64_t m_version = 0;
    Scalar m_lambda = 0;
    Eigen::Index m_rows = 0;
    double m_value = 0;
    Matrix m_plus, m_minus;
};

} // namespace facet
