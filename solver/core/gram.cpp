// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/gram.h"

#include "core/huge_pages.h"
#include "core/skinny_product.h"

#include <algorithm>
#include <stdexcept>

namespace facet {

Gram::Gram(MatrixCRef X, bool formExplicitly)
    : m_n(X.cols())
    , m_dist(currentDistribution())
{
    if (m_dist.active()) {
        m_xData = X.data();
        m_m = X.rows();
        m_xStride = X.outerStride();
        m_diag = X.colwise().squaredNorm().transpose();
        m_hasNegative = sumOverSamples(m_dist, X.minCoeff() < 0 ? 1.0 : 0.0) > 0;
        m_trace = sumOverSamples(m_dist, double(m_diag.sum()));
        return;
    }
    if (formExplicitly) {
        m_K.resize(X.cols(), X.cols());
        adviseHugePages(m_K);
        m_K.noalias() = X.transpose() * X;
        m_diag = m_K.diagonal();
        m_hasNegative = m_K.minCoeff() < 0;
    } else {
        m_xData = X.data();
        m_m = X.rows();
        m_xStride = X.outerStride();
        m_diag = X.colwise().squaredNorm().transpose();
        // K = X^T X has a negative entry only if X has one; then find out blockwise without
        // ever holding more than a 512 x n slab.
        if (X.minCoeff() < 0) {
            constexpr Eigen::Index kBlock = 512;
            for (Eigen::Index j = 0; j < m_n && !m_hasNegative; j += kBlock) {
                const Eigen::Index width = std::min(kBlock, m_n - j);
                const Matrix slab = X.middleCols(j, width).transpose() * X;
                m_hasNegative = slab.minCoeff() < 0;
            }
        }
    }
    m_trace = double(m_diag.sum());
}

Gram::Gram(Matrix K)
    : m_n(K.rows())
    , m_K(std::move(K))
{
    if (m_K.rows() != m_K.cols())
        throw std::invalid_argument("a kernel matrix must be square, got "
            + std::to_string(m_K.rows()) + " x " + std::to_string(m_K.cols()));
    m_diag = m_K.diagonal();
    m_trace = double(m_diag.sum());
    m_hasNegative = m_K.size() > 0 && m_K.minCoeff() < 0;
}

std::shared_ptr<const Gram> Gram::linear(MatrixCRef X)
{
    // n <= m: K (n x n) is no larger than X itself and each product costs n^2 k < 2 m n k.
    return std::make_shared<const Gram>(X, X.cols() <= X.rows() && !currentDistribution().active());
}

std::shared_ptr<const Gram> Gram::fromMatrix(Matrix K)
{
    return std::make_shared<const Gram>(std::move(K));
}

Matrix Gram::times(const Matrix& M) const
{
    Matrix out;
    if (isExplicit()) {
        // A plain product (threaded), not the symmetric one (Eigen runs that on one thread).
        multiplySkinny(m_K, M, out);
    } else {
        const XMap X = xMap();
        Matrix XM; // m x k
        multiplySkinny(X, M, XM);
        sumOverSamples(m_dist, XM); // distributed: the sum over every rank's samples
        multiplyTransposedSkinny(X, XM, out);
    }
    return out;
}

} // namespace facet
