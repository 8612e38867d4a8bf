// SPDX-License-Identifier: GPL-3.0-or-later
#include "graph/simplex.h"

#include <algorithm>
#include <functional>
#include <stdexcept>
#include <string>

namespace facet {

// Sort u = y descending. With partial sums s_j = u_1 + ... + u_j, the support size is
//   rho = max{ j : u_j - (s_j - 1) / j > 0 }
// (j = 1 always qualifies, since u_1 - (u_1 - 1) = 1 > 0), and tau = (s_rho - 1) / rho
// (Wang & Carreira-Perpinan 2013, Algorithm 1). The condition holds exactly for j <= rho, so
// the scan may stop at the first failure.
Scalar simplexThreshold(const Scalar* y, Eigen::Index d, std::vector<Scalar>& scratch)
{
    scratch.assign(y, y + d);
    std::sort(scratch.begin(), scratch.end(), std::greater<Scalar>());
    Scalar sum = 0;
    Scalar tau = scratch[0] - 1;
    for (std::size_t j = 0; j < scratch.size(); ++j) {
        sum += scratch[j];
        const Scalar candidate = (sum - 1) / Scalar(j + 1);
        if (scratch[j] - candidate <= 0)
            break;
        tau = candidate;
    }
    return tau;
}

Vector projectOntoSimplex(const Vector& y)
{
    if (y.size() < 1)
        throw std::invalid_argument("the simplex projection needs at least one entry");
    std::vector<Scalar> scratch;
    const Scalar tau = simplexThreshold(y.data(), y.size(), scratch);
    return (y.array() - tau).max(Scalar(0)).matrix();
}

void projectColumnsOntoSimplex(SparseMatrix& M)
{
    M.makeCompressed();
    const auto* outer = M.outerIndexPtr();
    Scalar* values = M.valuePtr();
    std::vector<Scalar> scratch;
    for (Eigen::Index j = 0; j < M.outerSize(); ++j) {
        const Eigen::Index begin = outer[j];
        const Eigen::Index size = outer[j + 1] - begin;
        if (size < 1)
            throw std::invalid_argument("the simplex projection of column " + std::to_string(j + 1)
                + " needs at least one stored entry (its support is empty)");
        const Scalar tau = simplexThreshold(values + begin, size, scratch);
        for (Eigen::Index e = begin; e < begin + size; ++e)
            values[e] = std::max(values[e] - tau, Scalar(0));
    }
}

} // namespace facet
