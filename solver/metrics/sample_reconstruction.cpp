// SPDX-License-Identifier: GPL-3.0-or-later
#include "metrics/sample_reconstruction.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>
#include <stdexcept>
#include <string>

namespace facet {

SampleReconstruction reconstructSample(
    MatrixCRef X, const Factorization& factorization, Eigen::Index sample, int top)
{
    const Matrix& basis = factorization.basis;
    const Matrix& V = factorization.V;
    if (basis.rows() != X.rows() || V.rows() != X.cols() || basis.cols() != V.cols())
        throw std::invalid_argument("reconstruction needs basis m x k and V n x k for X m x n; "
                                    "got X "
            + std::to_string(X.rows()) + " x " + std::to_string(X.cols()) + ", basis "
            + std::to_string(basis.rows()) + " x " + std::to_string(basis.cols()) + ", V "
            + std::to_string(V.rows()) + " x " + std::to_string(V.cols()));
    if (sample < 0 || sample >= X.cols())
        throw std::invalid_argument("sample " + std::to_string(sample) + " is outside [0, "
            + std::to_string(X.cols()) + ")");

    SampleReconstruction out;
    out.original = X.col(sample);
    out.reconstruction = basis * V.row(sample).transpose();
    if (factorization.method == "pca")
        out.reconstruction += X.rowwise().mean();
    out.residual = out.original - out.reconstruction;
    out.residualPeak = out.residual.size() ? double(out.residual.cwiseAbs().maxCoeff()) : 0.0;
    const double norm = double(out.original.norm());
    out.relativeError
        = norm > 0 ? double(out.residual.norm()) / norm : std::numeric_limits<double>::quiet_NaN();

    const Eigen::Index k = V.cols();
    std::vector<double> size(static_cast<std::size_t>(k), 0.0);
    for (Eigen::Index j = 0; j < k; ++j)
        size[std::size_t(j)] = std::abs(double(V(sample, j))) * double(basis.col(j).norm());
    std::vector<int> order(static_cast<std::size_t>(k));
    std::iota(order.begin(), order.end(), 0);
    const auto count = std::size_t(std::clamp<Eigen::Index>(top, 0, k));
    std::partial_sort(
        order.begin(), order.begin() + std::ptrdiff_t(count), order.end(), [&](int a, int b) {
            return size[std::size_t(a)] > size[std::size_t(b)]
                || (size[std::size_t(a)] == size[std::size_t(b)] && a < b);
        });
    order.resize(count);
    out.topComponents = order;
    for (int j : order)
        out.topCoefficients.push_back(double(V(sample, j)));
    return out;
}

} // namespace facet
