// SPDX-License-Identifier: GPL-3.0-or-later
#include "metrics/quality.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <string>

namespace facet {
namespace {

// Columns of X reconstructed at a time: an m x 256 scratch block instead of an m x n one.
constexpr Eigen::Index kColumnBlock = 256;

} // namespace

// X: m x n, basis: m x k, V: n x k. ||X - basis V^T||_F^2 is the sum over column blocks J of
// ||X_J - basis V_J^T||_F^2. A zero X gives 0 when the reconstruction is zero too, else +inf.
ReconstructionSums reconstructionSums(MatrixCRef X, MatrixCRef basis, MatrixCRef V)
{
    if (basis.rows() != X.rows() || V.rows() != X.cols() || basis.cols() != V.cols())
        throw std::invalid_argument("reconstruction error needs X (m x n), basis (m x k) and V "
                                    "(n x k); got X "
            + std::to_string(X.rows()) + " x " + std::to_string(X.cols()) + ", basis "
            + std::to_string(basis.rows()) + " x " + std::to_string(basis.cols()) + ", V "
            + std::to_string(V.rows()) + " x " + std::to_string(V.cols()));

    const Eigen::Index n = X.cols();
    Matrix residual(X.rows(), std::min(kColumnBlock, n));
    double residualSquared = 0;
    for (Eigen::Index start = 0; start < n; start += kColumnBlock) {
        const Eigen::Index count = std::min(kColumnBlock, n - start);
        auto block = residual.leftCols(count);
        block.noalias() = basis * V.middleRows(start, count).transpose();
        block = X.middleCols(start, count) - block;
        residualSquared += block.cast<double>().squaredNorm();
    }
    return { residualSquared, X.cast<double>().squaredNorm() };
}

double relativeReconstructionError(const ReconstructionSums& sums)
{
    if (sums.dataSquared == 0)
        return sums.residualSquared == 0 ? 0.0 : std::numeric_limits<double>::infinity();
    return std::sqrt(sums.residualSquared / sums.dataSquared);
}

double relativeReconstructionError(MatrixCRef X, MatrixCRef basis, MatrixCRef V)
{
    return relativeReconstructionError(reconstructionSums(X, basis, V));
}

// Hoyer (2004), "Non-negative matrix factorization with sparseness constraints", eq. (1):
// sparseness(v) = (sqrt(n) - |v|_1 / |v|_2) / (sqrt(n) - 1), 1 for a single non-zero entry and
// 0 for equal magnitudes. A zero column, or n = 1 (the formula is 0/0), counts as 0; a
// non-finite column gives NaN.
double hoyerSparseness(MatrixCRef V)
{
    const Eigen::Index n = V.rows();
    const Eigen::Index k = V.cols();
    if (k == 0 || n < 2)
        return 0.0;
    const double rootN = std::sqrt(double(n));
    double total = 0;
    for (Eigen::Index j = 0; j < k; ++j) {
        const double l2 = V.col(j).cast<double>().norm();
        if (l2 == 0)
            continue;
        const double l1 = V.col(j).cast<double>().lpNorm<1>();
        // |v|_1 / |v|_2 lies in [1, sqrt(n)] exactly; clamp the rounding outside it.
        total += std::clamp((rootN - l1 / l2) / (rootN - 1), 0.0, 1.0);
    }
    return total / double(k);
}

} // namespace facet
