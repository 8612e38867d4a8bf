// SPDX-License-Identifier: GPL-3.0-or-later
// The masked routes of Nmf (and so of GNMF, SemiGNMF and CNMF): methods/mask.h, docs/algorithms.md
// "Missing entries".
//
// Objective O = sum_ij W_ij (X - U V^T)_ij^2 (+ lambda Tr(V^T L V)). Its gradient in U is
//     -2 (W o X) V + 2 (W o (U V^T)) V,
// both parts non-negative, so the multiplicative rule of METHODS.md section 0 is
//     U <- U o ((W o X) V) / ((W o (U V^T)) V)
// and in V (GNMF's graph parts as in the unmasked rule)
//     V <- V o ((W o X)^T U + lambda S V) / ((W o (U V^T))^T U + lambda D V).
// Descent (Lee & Seung's auxiliary function, as for weighted NMF in Blondel, Ho & Van Dooren
// 2008): with V fixed, row i of U minimizes sum_n W_in (x_in - u_i^T v_n)^2, a quadratic with
// Hessian H_i = 2 V^T diag(W_i) V, whose entries are >= 0. For such a quadratic the diagonal
// K_aa = (H_i u_i)_a / u_ia dominates H_i (K - H_i is diagonally dominant), so
// G(u, u_i) = O(u_i) + grad^T (u - u_i) + (u - u_i)^T K (u - u_i) / 2 is an auxiliary function,
// and its minimizer is the rule above: O does not increase. V is the same with the roles swapped;
// the graph term's split is GNMF's own argument (D V in the denominator, S V in the numerator).
// W = 1 gives the unmasked rules (the route is not taken then: prepareMask returns null).
#include "core/skinny_product.h"
#include "core/update.h"
#include "methods/nmf.h"

#include <algorithm>
#include <limits>
#include <stdexcept>

namespace facet {

void Nmf::setMask(std::shared_ptr<const MaskedData> mask)
{
    if (mask && (mask->filled.rows() != m_X.rows() || mask->filled.cols() != m_X.cols()))
        throw std::invalid_argument("the mask does not have the data's shape");
    m_mask = std::move(mask);
    m_maskProductValid = false;
}

const Matrix& Nmf::maskedProduct() const
{
    if (!m_maskProductValid) {
        m_maskProduct.noalias() = m_U * m_V.transpose();
        m_maskProductValid = true;
    }
    return m_maskProduct;
}

UpdateTerms Nmf::maskedUpdateTerms(int factor) const
{
    const Matrix WR = (m_mask->weights.array() * maskedProduct().array()).matrix();
    UpdateTerms t;
    if (factor == 0) {
        t.numerator.noalias() = m_mask->weighted * m_V;
        t.denominator.noalias() = WR * m_V;
    } else {
        t.numerator.noalias() = m_mask->weighted.transpose() * m_U;
        t.denominator.noalias() = WR.transpose() * m_U;
    }
    return t;
}

// mu: from the product U V^T it forms anyway. hals: without it, from
//     sum W (X - P)^2 = sum W o X o X - 2 sum (W o X) o P + sum W o P o P,
//     sum (W o X) o P = sum V o ((W o X)^T U),
//     sum W o P o P   = w_max (sum P o P - sum C o P o P) = w_max (sum (U^T U) o (V^T V) - ...)
// (W = w_max (1 - C)): (W o X)^T U is the V step's product and the last sum runs over the imputed
// entries only, so the objective costs O(|imputed| k + (m + n) k^2) after a step, as the
// unmasked objective does through X^T U. When most entries are imputed (weights that vary
// everywhere) the last two sums nearly cancel and the round-off of their difference can exceed a
// step's decrease near a solution; the direct sum from U V^T is used then.
double Nmf::maskedObjective() const
{
    const auto entries = double(m_X.rows()) * double(m_X.cols());
    if (m_algorithm != Algorithm::Hals || 2 * double(m_mask->imputed.size()) > entries)
        return weightedSquaredError(*m_mask, maskedProduct());
    if (!m_maskCrossValid) {
        multiplyTransposedSkinny(m_mask->weighted, m_U, m_maskXtU);
        m_maskUtU = skinnyTransposedProduct(m_U, m_U);
        m_maskCrossValid = true;
    }
    const double cross = double((m_V.array() * m_maskXtU.array()).sum());
    const double gram = double((m_maskUtU.array() * vtv().array()).sum());
    const double value = m_mask->weightedNorm2 - 2 * cross
        + double(m_mask->maxWeight) * (gram - imputedSquaredSum(m_mask->imputed, m_U, m_V));
    return std::max(value, 0.0);
}

// One step of hals by imputation (methods/mask.cpp derives it): A-HALS on the imputed matrix Z,
// taken at the factors each factor's step starts from. The budgets count the sparse products with
// the dense ones.
void Nmf::maskedHalsStep()
{
    constexpr double kDelta = 0.1; // as halsStep()
    const MaskedData& mask = *m_mask;
    const Scalar scale = 1 / mask.maxWeight;
    const double m = double(m_X.rows()), n = double(m_X.cols()), k = double(m_rank);
    const double sparse = 4 * double(mask.imputed.size()) * k;
    multiplySkinny(mask.weighted, m_V, m_halsProduct); // (W o X) V
    if (scale != 1)
        m_halsProduct *= scale;
    addImputedTimesV(mask.imputed, m_U, m_V, m_halsProduct); // Z V
    halsSweeps(m_U, m_halsProduct, vtv(),
        halsSweepBudget(2 * m * n * k + sparse + 2 * n * k * k, 2 * m * k * k), kDelta);
    multiplyTransposedSkinny(mask.weighted, m_U, m_maskXtU); // (W o X)^T U, kept for objective()
    m_maskUtU = skinnyTransposedProduct(m_U, m_U);
    Matrix ZtU = scale != 1 ? Matrix(scale * m_maskXtU) : m_maskXtU;
    addImputedTransposedTimesU(mask.imputed, m_U, m_V, ZtU); // Z^T U, Z at the new U
    const int vBudget = halsSweepBudget(2 * m * n * k + sparse + 2 * m * k * k, 2 * n * k * k);
    const GraphTerm term = halsGraphTerm();
    if (term.graph && term.lambda != 0)
        halsGraphSweeps(m_V, ZtU, m_maskUtU, *term.graph, *term.majorizer, term.lambda * scale,
            vBudget, kDelta);
    else
        halsSweeps(m_V, ZtU, m_maskUtU, vBudget, kDelta);
    // The sweeps' violation is the masked projected gradient (the majorizer touches the objective
    // with its gradient), but it is not a stopping measure here: imputation steps shrink with
    // the missing information, so on ORL (k = 30, 10 % missing) it fell to 1e-4 of its start at
    // 0.6 % above where the run settled. The relative-decrease rule stops the run (as mu's).
    m_stationarity = std::numeric_limits<double>::quiet_NaN();
    m_maskCrossValid = true; // U is the one (W o X)^T U was formed with
    m_maskProductValid = false;
    m_xvValid = false;
    ++m_vVersion;
}

} // namespace facet
