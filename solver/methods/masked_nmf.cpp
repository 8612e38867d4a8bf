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
#include "core/update.h"
#include "methods/nmf.h"

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

double Nmf::maskedObjective() const
{
    return weightedSquaredError(*m_mask, maskedProduct());
}

// One masked HALS sweep per factor (methods/mask.cpp derives the sweeps): E = W o (X - U V^T) is
// formed once, U's sweep keeps it current for V's. A sweep costs as much as the products, so
// A-HALS's repeats (halsSweepBudget) come to one.
void Nmf::maskedHalsStep()
{
    Matrix E = m_mask->weighted - (m_mask->weights.array() * maskedProduct().array()).matrix();
    const HalsSweepStats u = maskedHalsSweepU(m_U, m_V, m_mask->weights, E);
    const GraphTerm term = halsGraphTerm();
    const HalsSweepStats v
        = maskedHalsSweepV(m_V, m_U, m_mask->weights, E, term.graph, term.majorizer, term.lambda);
    m_stationarity = u.violation + v.violation;
    m_maskProductValid = false;
    m_xvValid = false;
    ++m_vVersion;
}

} // namespace facet
