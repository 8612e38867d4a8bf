// SPDX-License-Identifier: GPL-3.0-or-later
#include "metrics/basis_usage.h"

#include <algorithm>
#include <numeric>
#include <stdexcept>
#include <string>

namespace facet {

std::vector<double> basisWeights(MatrixCRef basis, MatrixCRef V)
{
    if (basis.cols() != V.cols())
        throw std::invalid_argument("basis has " + std::to_string(basis.cols())
            + " columns but V has " + std::to_string(V.cols()) + "; both need k");
    std::vector<double> weights(std::size_t(basis.cols()));
    for (Eigen::Index j = 0; j < basis.cols(); ++j)
        weights[std::size_t(j)]
            = double(basis.col(j).norm()) * double(V.col(j).template lpNorm<1>());
    return weights;
}

std::vector<int> orderByWeight(const std::vector<double>& weights)
{
    std::vector<int> order(weights.size());
    std::iota(order.begin(), order.end(), 0);
    std::stable_sort(order.begin(), order.end(),
        [&](int a, int b) { return weights[std::size_t(a)] > weights[std::size_t(b)]; });
    return order;
}

std::vector<int> strongestSamples(MatrixCRef V, int j, int count)
{
    if (j < 0 || j >= V.cols())
        throw std::invalid_argument(
            "part " + std::to_string(j) + " is outside 0.." + std::to_string(V.cols() - 1));
    std::vector<int> order(std::size_t(V.rows()));
    std::iota(order.begin(), order.end(), 0);
    const auto column = V.col(j);
    const auto size = std::size_t(std::clamp<Eigen::Index>(count, 0, V.rows()));
    std::partial_sort(
        order.begin(), order.begin() + std::ptrdiff_t(size), order.end(), [&](int a, int b) {
            const Scalar x = std::abs(column[a]);
            const Scalar y = std::abs(column[b]);
            return x > y || (x == y && a < b);
        });
    order.resize(size);
    return order;
}

} // namespace facet
