// SPDX-License-Identifier: GPL-3.0-or-later
#include "methods/nmf.h"

#include "core/skinny_product.h"
#include "core/update.h"
#include "methods/hals.h"

namespace facet {

Nmf::Nmf(MatrixCRef X, int rank, InitKind init)
    : Nmf(X, rank, init, "NMF")
{
}

Nmf::Nmf(MatrixCRef X, int rank, InitKind init, const char* label)
    : m_X(X)
    , m_rank(rank)
    , m_init(init)
    , m_xNorm2(sumOverSamples(m_dist, double(X.squaredNorm())))
{
    requireRank(rank, totalSamples(m_dist, X.cols()));
    requireUsableData(X);
    requireNonNegative(X, label, " (CF handles signed data through its general form)");
}

void Nmf::initialize(Rng& rng)
{
    NmfStart start = nmfFamilyStart(m_init, m_X, m_rank, rng, m_dist);
    initializeFrom(std::move(start.U), std::move(start.V));
}

void Nmf::initializeFrom(Matrix U, Matrix V)
{
    m_U = std::move(U);
    m_V = std::move(V);
    refreshCache();
}

void Nmf::refreshCache(bool vChanged)
{
    m_maskProductValid = false;
    m_maskCrossValid = false;
    if (m_mask) { // the masked rules use neither X^T U nor U^T U
        m_xvValid = false;
        if (vChanged)
            ++m_vVersion;
        return;
    }
    multiplyTransposedSkinny(m_X, m_U, m_XtU); // X^T U, the 2mnk half of the V rule
    m_UtU = skinnyTransposedProduct(m_U, m_U);
    m_xvValid = false; // V may have changed too (initialization, restore, normalization)
    if (vChanged)
        ++m_vVersion;
}

UpdateTerms Nmf::updateTerms(int factor) const
{
    if (m_mask) {
        UpdateTerms t = maskedUpdateTerms(factor);
        if (factor == 1) {
            const Regularizer r = vRegularizer();
            if (r.minus.size() > 0)
                t.numerator += r.minus;
            if (r.plus.size() > 0)
                t.denominator += r.plus;
        }
        return t;
    }
    if (factor == 0) { // U <- U o (X V) / (U V^T V)
        UpdateTerms t;
        multiplySkinny(m_X, m_V, t.numerator);
        sumOverSamples(m_dist, t.numerator);
        t.denominator = skinnyProduct(m_U, vtv());
        return t;
    }
    // V <- V o (X^T U) / (V U^T U)
    UpdateTerms t { m_XtU, skinnyProduct(m_V, m_UtU) };
    const Regularizer r = vRegularizer();
    if (r.minus.size() > 0)
        t.numerator += r.minus;
    if (r.plus.size() > 0)
        t.denominator += r.plus;
    return t;
}

void Nmf::step()
{
    if (m_algorithm == Algorithm::Hals) {
        if (m_mask)
            maskedHalsStep();
        else
            halsStep();
        return;
    }
    if (fusedRoute()) {
        fusedStep();
        return;
    }
    UpdateTerms t = updateTerms(0);
    multiplicativeUpdate(m_U, t.numerator, t.denominator);
    refreshCache(false); // the V rule uses the new U (and V's graph terms from objective())
    t = updateTerms(1);
    multiplicativeUpdate(m_V, t.numerator, t.denominator);
    ++m_vVersion;
    m_maskProductValid = false;
    m_maskCrossValid = false;
}

bool Nmf::fusedRoute() const
{
    return !m_mask && fusesPasses(m_X.rows(), totalSamples(m_dist, m_X.cols()), m_rank);
}

// The same rules as step(), on the fused route (core/skinny_product.h: fusesPasses): the V rule's
// X^T U and the next U rule's X V are computed in one pass over X (transposedUpdateProduct),
// since V's rule is row by row. X V is kept for the next step. The values are those of step() up to
// the rounding of the products' summation order: V's rows are updated in blocks, V U^T U block by
// block.
void Nmf::fusedStep(const std::function<void(Eigen::Index, Eigen::Index)>& afterRows)
{
    if (!m_xvValid) {
        multiplySkinny(m_X, m_V, m_XV);
        sumOverSamples(m_dist, m_XV);
    }
    // U <- U o (X V) / (U V^T V)
    multiplicativeUpdate(m_U, m_XV, skinnyProduct(m_U, vtv()));
    m_UtU = skinnyTransposedProduct(m_U, m_U);
    // V <- V o (X^T U [+ minus]) / (V U^T U [+ plus]), the regularizer at the V before the rule
    // as in step().
    const Regularizer r = vRegularizer();
    const bool minus = r.minus.size() > 0, plus = r.plus.size() > 0;
    const auto updateRows = [&](Eigen::Index first, Eigen::Index count) {
        auto V = m_V.middleRows(first, count);
        Matrix numerator = m_XtU.middleRows(first, count);
        if (minus)
            numerator += r.minus.middleRows(first, count);
        Matrix denominator = V * m_UtU;
        if (plus)
            denominator += r.plus.middleRows(first, count);
        V = (V.array() * numerator.array() / denominator.array().max(kUpdateEps))
                .max(kPositiveFloor);
        if (afterRows)
            afterRows(first, count);
    };
    transposedUpdateProduct(m_X, m_U, m_XtU, m_V, updateRows, m_XV);
    sumOverSamples(m_dist, m_XV);
    m_xvValid = true;
    ++m_vVersion;
}

// Accelerated HALS (methods/hals.h, docs/algorithms.md). The products are those of the mu rules;
// the sweep budgets follow Gillis & Glineur (2012) with alpha = 0.5: the U side's products cost
// 2mnk + 2nk^2 and a sweep 2mk^2, the V side's 2mnk + 2mk^2 and a sweep 2nk^2 (plus the graph
// term's O(nnz k) per sweep, small beside it). Sweeps stop early at delta = 0.1.
void Nmf::halsStep()
{
    constexpr double kDelta = 0.1;
    // The budgets from the whole n, so that every rank of a distributed solve runs the sweeps a
    // single process would.
    const double m = double(m_X.rows()), n = double(totalSamples(m_dist, m_X.cols()));
    const double k = double(m_rank);
    multiplySkinny(m_X, m_V, m_halsProduct); // X V
    sumOverSamples(m_dist, m_halsProduct);
    const HalsSweepStats u = halsSweeps(m_U, m_halsProduct, vtv(),
        halsSweepBudget(2 * m * n * k + 2 * n * k * k, 2 * m * k * k), kDelta);
    refreshCache(false); // X^T U and U^T U of the new U; V is unchanged so far
    const int vBudget = halsSweepBudget(2 * m * n * k + 2 * m * k * k, 2 * n * k * k);
    const GraphTerm term = halsGraphTerm();
    const HalsSweepStats v = term.graph && term.lambda != 0
        ? halsGraphSweeps(
            m_V, m_XtU, m_UtU, *term.graph, *term.majorizer, term.lambda, vBudget, kDelta)
        : halsSweeps(m_V, m_XtU, m_UtU, vBudget, kDelta, m_dist.firstSample);
    // U is the same on every rank; V's rows are this rank's, so is their part of the violation.
    m_stationarity = u.violation + sumOverSamples(m_dist, v.violation);
    m_xvValid = false;
    ++m_vVersion;
}

const Matrix& Nmf::vtv() const
{
    if (m_vtvVersion != m_vVersion) {
        multiplyTransposedSkinny(m_V, m_V, m_VtV);
        sumOverSamples(m_dist, m_VtV);
        m_vtvVersion = m_vVersion;
    }
    return m_VtV;
}

double Nmf::objective() const
{
    if (m_mask)
        return maskedObjective() + regularizerObjective();
    // ||X - U V^T||^2 = ||X||^2 - 2 Tr(V^T X^T U) + Tr(U^T U V^T V): O((m + n) k^2) from the
    // cached X^T U instead of another m n k product.
    const Matrix& VtV = vtv();
    const double value = m_xNorm2
        - 2.0 * sumOverSamples(m_dist, double((m_V.array() * m_XtU.array()).sum()))
        + double((m_UtU.array() * VtV.array()).sum());
    return std::max(value, 0.0) + regularizerObjective();
}

void Nmf::restore(const std::vector<Matrix>& state)
{
    initializeFrom(state.at(0), state.at(1));
}

void Nmf::restoreBeforeStep(const std::vector<Matrix>& state)
{
    m_U = state.at(0);
    m_V = state.at(1);
    m_xvValid = false;
    m_maskProductValid = false;
    m_maskCrossValid = false;
    ++m_vVersion;
}

void Nmf::finalize()
{
    // Unit-norm basis columns; V takes the norms, so U V^T is unchanged (METHODS.md 1.1).
    const Vector norms = m_U.colwise().norm().transpose();
    rescaleColumns(m_U, m_V, norms);
    refreshCache();
}

std::vector<std::string> Nmf::notes() const
{
    if (m_mask)
        return { maskNote(*m_mask) };
    if (!fusedRoute())
        return {};
    return { "fused passes: X is read once per iteration (X^T U, the V rule and X V in one pass)" };
}

void Nmf::exportTo(Factorization& out) const
{
    out.basis = m_U;
    out.W.resize(0, 0);
    out.V = m_V;
    out.randomStart = m_init == InitKind::Random;
}

} // namespace facet
