// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/collectives.h"
#include "core/types.h"

#include <memory>

namespace facet {

// The kernel matrix K (n x n) of the CF family as an operator. For the linear kernel
// K = X^T X it is formed only when that is cheaper (n <= m: forming costs m n^2 once, then
// each product n^2 k); otherwise K M = X^T (X M) costs 2 m n k and no n x n matrix exists.
// Built once per data set and shared by every replicate.
class Gram {
public:
    // Linear kernel of X (m x n, one sample per column). X must outlive the operator.
    // Distributed (core/collectives.h, the scope current at the call): X is this rank's samples,
    // K is never formed, times() reduces X M over the ranks, size() and diagonal() are this rank's
    // rows, trace() is the whole K's.
    static std::shared_ptr<const Gram> linear(MatrixCRef X);
    // An explicit symmetric kernel matrix (n x n).
    static std::shared_ptr<const Gram> fromMatrix(Matrix K);

    Eigen::Index size() const { return m_n; }
    bool isExplicit() const { return m_K.size() > 0; }
    // K M, M is n x k.
    Matrix times(const Matrix& M) const;
    // Tr(K).
    double trace() const { return m_trace; }
    // diag(K), n.
    const Vector& diagonal() const { return m_diag; }
    // Whether K has a negative entry (METHODS.md 1.4: then the general-form updates are used).
    // Distributed: whether any rank's X has one (K's entries across ranks are never formed).
    bool hasNegativeEntries() const { return m_hasNegative; }
    // The explicit matrix; empty when the operator is implicit.
    const Matrix& matrix() const { return m_K; }
    // The implicit form's X (m x n, K = X^T X): for callers that fuse the two products of K M
    // with other work (Cf's fused step). Only when !isExplicit().
    Eigen::Map<const Matrix, 0, Eigen::OuterStride<>> data() const { return xMap(); }

    explicit Gram(MatrixCRef X, bool formExplicitly);
    explicit Gram(Matrix K);

private:
    Eigen::Index m_n = 0;
    SampleDistribution m_dist;
    using XMap = Eigen::Map<const Matrix, 0, Eigen::OuterStride<>>;
    XMap xMap() const { return XMap(m_xData, m_m, m_n, Eigen::OuterStride<>(m_xStride)); }

    // Implicit form: a view of the caller's X (m x n), never a copy.
    const Scalar* m_xData = nullptr;
    Eigen::Index m_m = 0;
    Eigen::Index m_xStride = 0;
    Matrix m_K;
    Vector m_diag;
    double m_trace = 0;
    bool m_hasNegative = false;
};

} // namespace facet
