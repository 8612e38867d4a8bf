// SPDX-License-Identifier: GPL-3.0-or-later
#include "methods/kernel_split.h"

#include "methods/kernels.h"

#include <algorithm>
#include <stdexcept>
#include <string>

namespace facet {

KernelSplit::KernelSplit(Matrix plus, Matrix minus)
    : m_plus(std::move(plus))
    , m_minus(std::move(minus))
{
    if (m_plus.rows() != m_plus.cols() || m_minus.rows() != m_plus.rows()
        || m_minus.cols() != m_plus.cols())
        throw std::invalid_argument("K+ and K- must be square matrices of the same size");
}

std::shared_ptr<const KernelSplit> KernelSplit::make(const Gram& gram, MatrixCRef X)
{
    if (!gram.hasNegativeEntries())
        return std::make_shared<const KernelSplit>();
    const Eigen::Index n = gram.size();
    requireDenseFits(n, 2, "the general form (K+ and K-)");
    Matrix plus(n, n);
    Matrix minus(n, n);
    if (gram.isExplicit()) {
        plus = gram.matrix().cwiseMax(Scalar(0));
        minus = (-gram.matrix()).cwiseMax(Scalar(0));
    } else {
        if (X.cols() != n)
            throw std::invalid_argument("the general form needs the data the kernel was built on");
        constexpr Eigen::Index kBlock = 512;
        Matrix slab;
        for (Eigen::Index j = 0; j < n; j += kBlock) {
            const Eigen::Index width = std::min(kBlock, n - j);
            slab.noalias() = X.transpose() * X.middleCols(j, width);
            plus.middleCols(j, width) = slab.cwiseMax(Scalar(0));
            minus.middleCols(j, width) = (-slab).cwiseMax(Scalar(0));
        }
    }
    return std::make_shared<const KernelSplit>(std::move(plus), std::move(minus));
}

} // namespace facet
