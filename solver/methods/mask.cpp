// SPDX-License-Identifier: GPL-3.0-or-later
#include "methods/mask.h"

#include "graph/graph_terms.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <stdexcept>
#include <string>
#include <vector>

namespace facet {

namespace {
using Index = Eigen::Index;
} // namespace

std::string maskNote(const MaskedData& mask)
{
    char text[160];
    std::snprintf(text, sizeof text,
        "mask: %.1f%% of the entries missing (weight 0); the objective is the weighted one",
        100 * mask.missingFraction);
    return text;
}

bool acceptsMask(const std::string& method)
{
    return method == "nmf" || method == "gnmf" || method == "semignmf" || method == "cnmf";
}

std::string maskRefusal(const std::string& method)
{
    if (method == "kmeans" || method == "pca")
        return method
            + " takes no mask: it measures distances between whole samples, which a missing "
              "entry leaves undefined; masks are taken by nmf, gnmf, semignmf and cnmf";
    return method
        + " takes no mask: its objective is written through the kernel K = X^T X of the "
          "samples, and every entry of K needs every entry of both samples; masks are taken by "
          "nmf, gnmf, semignmf and cnmf";
}

std::shared_ptr<const MaskedData> prepareMask(MatrixCRef X, const Matrix& weights)
{
    const Index m = X.rows(), n = X.cols();
    if (weights.rows() != m || weights.cols() != n)
        throw std::invalid_argument("the mask is " + std::to_string(weights.rows()) + " x "
            + std::to_string(weights.cols()) + " but the data is " + std::to_string(m) + " x "
            + std::to_string(n) + " (features x samples)");
    bool allOnes = true;
    Index observed = 0;
    for (Index j = 0; j < n; ++j)
        for (Index i = 0; i < m; ++i) {
            const Scalar w = weights(i, j);
            if (!std::isfinite(w) || w < 0)
                throw std::invalid_argument("mask weights must be finite and >= 0; sample "
                    + std::to_string(j + 1) + ", feature " + std::to_string(i + 1) + " has "
                    + std::to_string(double(w)));
            allOnes = allOnes && w == 1;
            if (w > 0) {
                ++observed;
                if (!std::isfinite(X(i, j)))
                    throw std::invalid_argument("sample " + std::to_string(j + 1) + ", feature "
                        + std::to_string(i + 1)
                        + " is not finite but its mask weight is not 0 (mark it missing)");
            }
        }
    if (allOnes)
        return nullptr; // the unmasked run, bit for bit
    if (observed == 0)
        throw std::invalid_argument("the mask marks every entry missing");

    auto mask = std::make_shared<MaskedData>();
    mask->weights = weights;
    mask->missingFraction = double(m * n - observed) / double(m * n);
    // Weighted row means of the observed entries, in double, in a fixed order.
    std::vector<double> sum(std::size_t(m), 0.0), weight(std::size_t(m), 0.0);
    double allSum = 0, allWeight = 0;
    for (Index j = 0; j < n; ++j)
        for (Index i = 0; i < m; ++i)
            if (const double w = double(weights(i, j)); w > 0) {
                sum[std::size_t(i)] += w * double(X(i, j));
                weight[std::size_t(i)] += w;
            }
    for (Index i = 0; i < m; ++i) {
        allSum += sum[std::size_t(i)];
        allWeight += weight[std::size_t(i)];
    }
    const double overall = allSum / allWeight;
    mask->filled.resize(m, n);
    mask->weighted.resize(m, n);
    for (Index j = 0; j < n; ++j)
        for (Index i = 0; i < m; ++i) {
            const Scalar w = weights(i, j);
            const double rowWeight = weight[std::size_t(i)];
            mask->filled(i, j) = w > 0
                ? X(i, j)
                : Scalar(rowWeight > 0 ? sum[std::size_t(i)] / rowWeight : overall);
            mask->weighted(i, j) = w > 0 ? w * X(i, j) : Scalar(0);
        }
    return mask;
}

double weightedSquaredError(const MaskedData& mask, const Matrix& R)
{
    double total = 0;
    for (Index j = 0; j < R.cols(); ++j) {
        double column = 0;
        for (Index i = 0; i < R.rows(); ++i) {
            const double d = double(mask.filled(i, j)) - double(R(i, j));
            column += double(mask.weights(i, j)) * d * d;
        }
        total += column;
    }
    return total;
}

double weightedRelativeError(const MaskedData& mask, const Matrix& basis, const Matrix& V)
{
    const Matrix R = basis * V.transpose();
    const double norm2 = double((mask.weighted.array() * mask.filled.array()).sum());
    return norm2 > 0 ? std::sqrt(weightedSquaredError(mask, R) / norm2) : 0.0;
}

// Masked HALS. With E = W o (X - U V^T), the objective's part in column u_j of U (V and the other
// columns fixed) is, row by row,
//     sum_n W_in (X - U V^T + u_ij v_nj - u'_ij v_nj)_in^2,
// a quadratic in u'_ij alone with curvature 2 c_i, c_i = sum_n W_in v_nj^2 = (W (v_j o v_j))_i,
// and slope -2 (E v_j)_i at u'_ij = u_ij. Entries of a column do not interact (each row of X has
// its own weights), so the exact minimizer over u'_ij >= 0 is
//     u_ij <- max(floor, u_ij + (E v_j)_i / c_i),
// one denominator per entry where unmasked HALS has B_jj for the whole column (W = 1 gives
// c_i = v_j^T v_j and E v_j = (X V - U V^T V)_j: the rule of methods/hals.h). Every column update
// is an exact block minimization, so the objective does not increase. E then takes the change:
// E <- E - W o (du v_j^T). A column costs 3mn multiply-adds, a sweep O(mnk), as much as the
// products that form E (A-HALS's budget floor(1 + 0.5 rho) is then 1: one sweep per factor).
// The V side is the same with the roles of U and V swapped (W^T, E^T).
HalsSweepStats maskedHalsSweepU(Matrix& U, const Matrix& V, const Matrix& W, Matrix& E)
{
    const Index m = U.rows(), n = V.rows(), k = U.cols();
    Vector a(m), c(m), du(m);
    double violation = 0;
    for (Index j = 0; j < k; ++j) {
        a.noalias() = E * V.col(j);
        c.noalias() = W * V.col(j).cwiseAbs2();
        for (Index i = 0; i < m; ++i) {
            du(i) = 0;
            if (!(c(i) > 0))
                continue; // no observed entry of row i meets a non-zero v_nj: nothing to fit
            const Scalar updated = std::max(kPositiveFloor, U(i, j) + a(i) / c(i));
            du(i) = updated - U(i, j);
            violation += std::abs(double(du(i))) * double(c(i));
            U(i, j) = updated;
        }
#pragma omp parallel for schedule(static) if (m * n >= 65536)
        for (Index t = 0; t < n; ++t)
            E.col(t).array() -= V(t, j) * W.col(t).array() * du.array();
    }
    return { 1, violation };
}

// V's column j with the graph term lambda Tr(V^T L V) of GNMF: as halsGraphSweeps, the term is
// majorized at the V the sweep starts from by a quadratic with the diagonal Hessian
// 2 lambda M (M = D + diag(S 1) >= L), so entry (n, j) has curvature 2 (c_n + lambda M_n),
// c_n = sum_i W_in u_ij^2, and half-gradient g_nj = -(E^T u_j)_n + lambda (D V - S V)_nj. Column j
// of D V and S V depends on column j of V only, which no earlier column update of the sweep
// changed, so the parts are computed once per sweep. The step minimizes the majorizer: the
// objective does not increase.
HalsSweepStats maskedHalsSweepV(Matrix& V, const Matrix& U, const Matrix& W, Matrix& E,
    const Graph* graph, const Vector* majorizer, Scalar lambda)
{
    const Index m = U.rows(), n = V.rows(), k = V.cols();
    const bool regularized = graph && lambda != 0;
    Matrix plus, minus;
    if (regularized)
        graphGradientParts(*graph, V, lambda, plus, minus);
    Vector u2(m), entryViolation(n);
    double violation = 0;
    for (Index j = 0; j < k; ++j) {
        const auto u = U.col(j);
        u2 = u.cwiseAbs2();
#pragma omp parallel for schedule(static) if (m * n >= 65536)
        for (Index t = 0; t < n; ++t) {
            Scalar g = -E.col(t).dot(u);
            Scalar curvature = W.col(t).dot(u2);
            if (regularized) {
                g += plus(t, j) - minus(t, j);
                curvature += lambda * (*majorizer)(t);
            }
            entryViolation(t) = 0;
            if (!(curvature > 0))
                continue;
            const Scalar updated = std::max(kPositiveFloor, V(t, j) - g / curvature);
            const Scalar dv = updated - V(t, j);
            entryViolation(t) = std::abs(dv) * curvature;
            V(t, j) = updated;
            E.col(t).array() -= dv * W.col(t).array() * u.array();
        }
        for (Index t = 0; t < n; ++t) // in order: the same sum for any thread count
            violation += double(entryViolation(t));
    }
    return { 1, violation };
}

} // namespace facet
