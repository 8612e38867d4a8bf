// SPDX-License-Identifier: GPL-3.0-or-later
#include "methods/cf.h"

#include "methods/cf_fused.h"

#include "core/skinny_product.h"
#include "core/update.h"

#include <cmath>
#include <stdexcept>

namespace facet {

Cf::Cf(MatrixCRef X, std::shared_ptr<const Gram> gram, int rank, CfSettings settings)
    : m_X(X)
    , m_gram(std::move(gram))
    , m_rank(rank)
{
    if (!m_gram || m_gram->size() != X.cols())
        throw std::invalid_argument(
            "CF needs the kernel of the same data (n = " + std::to_string(X.cols()) + ")");
    requireRank(rank, totalSamples(m_dist, X.cols()));
    requireUsableData(X);
    configure(std::move(settings));
}

void Cf::configure(CfSettings settings)
{
    const auto& split = settings.generalForm;
    if (split && !split->trivial() && split->plus().rows() != m_gram->size())
        throw std::invalid_argument("the general form's K+ / K- do not match the kernel's size n = "
            + std::to_string(m_gram->size()));
    m_settings = std::move(settings);
}

void Cf::initialize(Rng& rng)
{
    CfStart start = cfFamilyStart(m_settings.init, m_X, *m_gram, m_rank, rng, m_dist);
    initializeFrom(std::move(start.W), std::move(start.V));
}

void Cf::initializeFrom(Matrix W, Matrix V)
{
    m_W = std::move(W);
    m_V = std::move(V);
    refreshCache();
    normalize();
}

void Cf::refreshCache(bool vChanged)
{
    m_xProductsValid = false; // W and V may have changed (start, restore, normalization)
    if (vChanged)
        ++m_vVersion;
    m_KW = m_gram->times(m_W);
    m_WtKW = skinnyTransposedProduct(m_W, m_KW);
    sumOverSamples(m_dist, m_WtKW);
    if (explicitSplit()) {
        m_KpW.noalias() = m_settings.generalForm->plus() * m_W;
        m_KmW.noalias() = m_settings.generalForm->minus() * m_W;
        m_WtKpW.noalias() = m_W.transpose() * m_KpW;
        m_WtKmW.noalias() = m_W.transpose() * m_KmW;
    }
}

void Cf::normalize()
{
    const Vector d = m_WtKW.diagonal().cwiseMax(Scalar(0)).cwiseSqrt();
    rescaleColumns(m_W, m_V, d);
    refreshCache();
}

Cf::RuleParts Cf::wParts() const
{
    const Matrix& VtV = vtv();
    RuleParts parts { m_gram->times(m_V), skinnyProduct(kPlusW(), VtV), {} };
    if (explicitSplit())
        parts.minus.noalias() = m_KmW * VtV;
    return parts;
}

// The regularizer joins the general form as METHODS.md 1.4 writes it: R.plus in Q+, R.minus in
// Q- (the log bound for -lambda Tr(V^T S V)). For K >= 0 and lambda > 0 that rule is valid and
// monotone but not the plain LCCF rule, which bounds the S term by its tangent instead (R.minus
// in the numerator, i.e. in `linear`); the two coincide for lambda = 0.
Cf::RuleParts Cf::vParts() const
{
    RuleParts parts { m_KW, skinnyProduct(m_V, wtKPlusW()), {} };
    if (explicitSplit())
        parts.minus.noalias() = m_V * m_WtKmW;
    // The graph term's negative part lambda S V joins the linear term, not Q- as METHODS.md 1.4
    // prints it: both give a valid auxiliary function (S V >= 0 is kept exact like K W), but
    // only this one meets the same section's requirement that the general form reduce exactly
    // to the plain LCCF rule when K >= 0 (with Q- = 0 the rule is (a + |a|) / 2 / Q+ = a / Q+).
    const Regularizer r = vRegularizer();
    if (r.plus.size() > 0)
        parts.plus += r.plus;
    if (r.minus.size() > 0)
        parts.linear += r.minus;
    return parts;
}

// METHODS.md 1.4, general form. With a = linear, b = plus, c = minus (grad / c0 = b - c - a),
// bound the convex part by sum b m^2 / m', the concave part -c by its log-tangent
// -c m' (1 + 2 log(m / m')), and keep the linear part exact; the minimum of that auxiliary
// function is m = m' (a + sqrt(a^2 + 4 b c)) / (2 b), for a of either sign. It is written as
// P = (a + sqrt(a^2 + 4 b c)) / 2 over N = b, and for a < 0 as the equal 2 b c /
// (sqrt(a^2 + 4 b c) - a), which does not cancel. With c = 0 and a >= 0, P = (a + |a|) / 2 = a
// exactly (hypot(a, 0) = |a|): the plain rule bit for bit.
UpdateTerms Cf::combine(RuleParts parts) const
{
    if (!usesGeneralForm()) {
        UpdateTerms t { std::move(parts.linear), std::move(parts.plus) };
        if (parts.minus.size() > 0)
            t.numerator += parts.minus;
        return t;
    }
    const bool hasMinus = parts.minus.size() > 0;
    Matrix P(parts.linear.rows(), parts.linear.cols());
    for (Eigen::Index i = 0; i < P.size(); ++i) {
        const Scalar a = parts.linear.data()[i];
        const Scalar bc = hasMinus ? parts.plus.data()[i] * parts.minus.data()[i] : Scalar(0);
        const Scalar root = std::hypot(a, 2 * std::sqrt(bc));
        P.data()[i] = a >= 0 ? (a + root) / 2 : 2 * bc / (root - a);
    }
    return { std::move(P), std::move(parts.plus) };
}

UpdateTerms Cf::updateTerms(int factor) const
{
    return factor == 0 ? wTerms() : vTerms();
}

void Cf::step()
{
    if (fusesPasses()) {
        fusedStep();
        return;
    }
    UpdateTerms t = wTerms();
    multiplicativeUpdate(m_W, t.numerator, t.denominator);
    refreshCache(false); // the V rule uses the new W (and V's graph terms from objective())
    t = vTerms();
    multiplicativeUpdate(m_V, t.numerator, t.denominator);
    ++m_vVersion;
}

bool Cf::fusesPasses() const
{
    // Distributed: the fused passes keep X W and X V of one rank's samples; the plain rules reduce
    // them through the gram.
    if (usesGeneralForm() || explicitSplit() || m_dist.active())
        return false;
    return facet::fusesPasses(*m_gram, m_rank);
}

// The plain rules of step() on the fused route: two passes over X instead of four, or one over a
// formed K instead of two (methods/cf_fused.h), with this class's hooks for the W rule's scale
// and inner matrix and the V rule's regularizer. The values are step()'s up to the rounding of
// the products' summation order.
void Cf::fusedStep(const std::function<void(Eigen::Index, Eigen::Index)>& afterVRows)
{
    Regularizer before;
    CfFusedRules rules;
    rules.wInner = fusedWInner(vtv());
    rules.kvScale = fusedKVScale();
    rules.beforeVPass = [&] {
        if (regularizerBeforePass())
            before = vRegularizer();
    };
    rules.addVRegularizer
        = [&](Eigen::Index first, Eigen::Index count, Matrix& numerator, Matrix& denominator) {
              addFusedVRegularizer(first, count, before, numerator, denominator);
          };
    rules.afterVRows = afterVRows;
    fusedCfStep(*m_gram, { m_W, m_V, m_KW, m_WtKW, m_XW, m_XV, m_xProductsValid }, rules);
    ++m_vVersion;
}

void Cf::addFusedVRegularizer(Eigen::Index first, Eigen::Index count, const Regularizer& before,
    Matrix& numerator, Matrix& denominator) const
{
    if (before.minus.size() > 0)
        numerator += before.minus.middleRows(first, count);
    if (before.plus.size() > 0)
        denominator += before.plus.middleRows(first, count);
}

const Matrix& Cf::vtv() const
{
    if (m_vtvVersion != m_vVersion) {
        multiplyTransposedSkinny(m_V, m_V, m_VtV);
        sumOverSamples(m_dist, m_VtV);
        m_vtvVersion = m_vVersion;
    }
    return m_VtV;
}

double Cf::reconstructionObjective() const
{
    // Tr(K) - 2 Tr(V^T K W) + Tr(V W^T K W V^T), with Tr(V A V^T) = sum(A o V^T V).
    const Matrix& VtV = vtv();
    const double value = m_gram->trace()
        - 2.0 * sumOverSamples(m_dist, double((m_V.array() * m_KW.array()).sum()))
        + double((m_WtKW.array() * VtV.array()).sum());
    return std::max(value, 0.0);
}

double Cf::objective() const
{
    return reconstructionObjective() + regularizerObjective();
}

void Cf::restore(const std::vector<Matrix>& state)
{
    m_W = state.at(0);
    m_V = state.at(1);
    refreshCache();
}

void Cf::finalize()
{
    normalize();
}

std::vector<std::string> Cf::notes() const
{
    std::vector<std::string> out = m_settings.notes;
    if (fusesPasses())
        out.emplace_back(m_gram->isExplicit()
                ? "fused passes: the formed K is read once per iteration (K V, the W rule and K W "
                  "in one pass)"
                : "fused passes: X is read twice per iteration (each K product, a rule and the "
                  "next X product in one pass)");
    return out;
}

void Cf::exportTo(Factorization& out) const
{
    out.W = m_W;
    out.V = m_V;
    out.basis.noalias() = m_X * m_W;
    sumOverSamples(m_dist, out.basis);
    out.randomStart = m_settings.init == InitKind::Random;
}

} // namespace facet
