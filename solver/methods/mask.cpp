// SPDX-License-Identifier: GPL-3.0-or-later
#include "methods/mask.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <stdexcept>
#include <string>
#include <vector>

namespace facet {

namespace {
using Index = Eigen::Index;

// w_max, sum W o X o X and the entries below w_max (ImputedEntries), by rows and by columns.
void buildImputedEntries(MaskedData& mask)
{
    const Matrix& W = mask.weights;
    const Index m = W.rows(), n = W.cols();
    mask.maxWeight = W.maxCoeff();
    double norm2 = 0;
    for (Index j = 0; j < n; ++j)
        for (Index i = 0; i < m; ++i)
            norm2 += double(mask.weighted(i, j)) * double(mask.filled(i, j));
    mask.weightedNorm2 = norm2;
    ImputedEntries& e = mask.imputed;
    const Scalar wmax = mask.maxWeight;
    e.colStart.assign(std::size_t(n) + 1, 0);
    e.rowStart.assign(std::size_t(m) + 1, 0);
    for (Index j = 0; j < n; ++j)
        for (Index i = 0; i < m; ++i)
            if (W(i, j) < wmax) {
                ++e.colStart[std::size_t(j) + 1];
                ++e.rowStart[std::size_t(i) + 1];
            }
    for (std::size_t j = 0; j < std::size_t(n); ++j)
        e.colStart[j + 1] += e.colStart[j];
    for (std::size_t i = 0; i < std::size_t(m); ++i)
        e.rowStart[i + 1] += e.rowStart[i];
    const std::size_t count = std::size_t(e.colStart.back());
    e.colRow.resize(count);
    e.colCoeff.resize(count);
    e.rowCol.resize(count);
    e.rowCoeff.resize(count);
    std::vector<Index> rowFill(e.rowStart.begin(), e.rowStart.end() - 1);
    std::size_t at = 0;
    for (Index j = 0; j < n; ++j) // columns in order, rows in order within each: both lists sorted
        for (Index i = 0; i < m; ++i)
            if (W(i, j) < wmax) {
                const Scalar c = 1 - W(i, j) / wmax;
                e.colRow[at] = int(i);
                e.colCoeff[at] = c;
                ++at;
                const std::size_t r = std::size_t(rowFill[std::size_t(i)]++);
                e.rowCol[r] = int(j);
                e.rowCoeff[r] = c;
            }
}
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
    buildImputedEntries(*mask);
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
    const double norm2 = mask.weightedNorm2;
    return norm2 > 0 ? std::sqrt(weightedSquaredError(mask, R) / norm2) : 0.0;
}

// hals by imputation (a majorize-minimize scheme; for 0/1 weights it is the EM algorithm of
// low-rank fitting with missing values, Srebro & Jaakkola 2003). Each term of the data part,
// W_ij (x_ij - p_ij)^2 with p = U V^T, is a quadratic in p_ij with curvature 2 W_ij <= 2 w_max,
// so at the current product P0 it is majorized by its tangent plus w_max (p_ij - p0_ij)^2:
//     W_ij (x_ij - p_ij)^2 <= w_max (z_ij - p_ij)^2 + const_ij,
//     z_ij = p0_ij + (W_ij / w_max)(x_ij - p0_ij) = (W o X)_ij / w_max + C_ij p0_ij,
// C = 1 - W / w_max, with equality (and equal gradients) at p = P0. Summed, the objective is at
// most w_max ||Z - U V^T||^2 (+ the graph term) + const, equal at the current factors: any
// step that does not increase the unmasked objective on Z does not increase the masked one
// (O(new) <= G(new) <= G(old) = O(old)). Each factor's step is A-HALS on Z (methods/hals.h), the
// exact minimization of one column at a time, with Z taken at the factors the step starts from:
// the products are
//     Z V   = (W o X) V / w_max + S V,      S = C o (U V^T)   (U's step),
//     Z^T U = (W o X)^T U / w_max + S^T U                     (V's step, at the new U),
// and the graph term of GNMF and SemiGNMF enters with weight lambda / w_max (the majorizer is
// w_max times the unmasked objective on Z with that weight). S is non-zero only where W < w_max
// (the missing entries of a 0/1 mask), so its products cost O(|imputed| k) beside the dense
// (W o X) V: a masked iteration costs little more than an unmasked one, where updating the
// residual after each column (exact masked coordinate descent) costs O(mnk) per sweep. At a fixed
// point Z's gradient equals the masked objective's (the majorizer touches it), so the stationarity
// measure of halsSweeps, on Z, vanishes where the masked projected gradient does.
namespace {
// f . g over k contiguous entries. The per-entry work of the sparse products is written as plain
// loops the compiler vectorizes (`omp simd`): Eigen's expressions on single dynamic-size columns,
// or gathering the columns for a matrix-vector product, cost more than the arithmetic at k of
// 10-50 (measured on ORL, k = 30).
inline Scalar dotK(const Scalar* f, const Scalar* g, Index k)
{
    Scalar sum = 0;
#pragma omp simd reduction(+ : sum)
    for (Index l = 0; l < k; ++l)
        sum += f[l] * g[l];
    return sum;
}

// For each `outer` index o (a row of U, or a sample): with f the factor row of o and g_e the other
// factor's row of entry e, a_o = sum_e c_e (f . g_e) g_e. F and G hold the factors' rows as
// columns (k x count); `add` (k x outer) receives a_o.
void imputedProducts(const std::vector<Index>& start, const std::vector<int>& index,
    const std::vector<Scalar>& coeff, const Matrix& F, const Matrix& G, Matrix& add)
{
    const Index outer = F.cols(), k = F.rows();
    add.setZero(k, outer);
#pragma omp parallel for schedule(static) if (index.size() * std::size_t(k) >= 65536)
    for (Index o = 0; o < outer; ++o) {
        const Scalar* f = F.data() + o * k;
        Scalar* a = add.data() + o * k;
        for (Index e = start[std::size_t(o)]; e < start[std::size_t(o) + 1]; ++e) {
            const Scalar* g = G.data() + Index(index[std::size_t(e)]) * k;
            const Scalar s = coeff[std::size_t(e)] * dotK(f, g, k);
#pragma omp simd
            for (Index l = 0; l < k; ++l)
                a[l] += s * g[l];
        }
    }
}
} // namespace

void addImputedTimesV(const ImputedEntries& entries, const Matrix& U, const Matrix& V, Matrix& out)
{
    Matrix add;
    imputedProducts(
        entries.rowStart, entries.rowCol, entries.rowCoeff, U.transpose(), V.transpose(), add);
    out += add.transpose();
}

void addImputedTransposedTimesU(
    const ImputedEntries& entries, const Matrix& U, const Matrix& V, Matrix& out)
{
    Matrix add;
    imputedProducts(
        entries.colStart, entries.colRow, entries.colCoeff, V.transpose(), U.transpose(), add);
    out += add.transpose();
}

double imputedSquaredSum(const ImputedEntries& entries, const Matrix& U, const Matrix& V)
{
    const Index n = V.rows(), k = V.cols();
    const Matrix Ut = U.transpose(), Vt = V.transpose();
    std::vector<double> column(std::size_t(n), 0.0);
#pragma omp parallel for schedule(static) if (entries.size() * std::size_t(k) >= 65536)
    for (Index t = 0; t < n; ++t) {
        const Scalar* v = Vt.data() + t * k;
        double sum = 0;
        for (Index e = entries.colStart[std::size_t(t)]; e < entries.colStart[std::size_t(t) + 1];
             ++e) {
            const double p
                = double(dotK(Ut.data() + Index(entries.colRow[std::size_t(e)]) * k, v, k));
            sum += double(entries.colCoeff[std::size_t(e)]) * p * p;
        }
        column[std::size_t(t)] = sum;
    }
    double total = 0;
    for (const double c : column) // in order: the same sum for any thread count
        total += c;
    return total;
}

} // namespace facet
