// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/gram.h"

#include <memory>

namespace facet {

// METHODS.md 1.4: K = K+ - K-, the element-wise positive and negative parts of the kernel matrix
// (n x n each), for the general-form updates of CF, LCCF and CCF. Formed once per data set and
// shared by every replicate. When K has no negative entry the split is trivial (K+ = K, K- = 0)
// and nothing is stored: the methods then use the kernel operator itself, and the general form
// gives the plain updates bit for bit.
class KernelSplit {
public:
    // The trivial split.
    KernelSplit() = default;
    // An explicit split; plus and minus are n x n and non-negative.
    KernelSplit(Matrix plus, Matrix minus);

    // Splits the kernel of `gram`. An implicit linear kernel is formed from X (m x n, the data
    // the operator was built on) one column block at a time, straight into K+ and K-. Throws
    // std::invalid_argument, with the byte count, when K+ and K- exceed kDenseKernelBudget.
    static std::shared_ptr<const KernelSplit> make(const Gram& gram, MatrixCRef X);

    bool trivial() const { return m_plus.size() == 0; }
    const Matrix& plus() const { return m_plus; } // K+, empty when trivial
    const Matrix& minus() const { return m_minus; } // K-, empty when trivial

private:
    Matrix m_plus;
    Matrix m_minus;
};

} // namespace facet
