// SPDX-License-Identifier: GPL-3.0-or-later
#include "methods/ccf.h"

#include "core/skinny_product.h"
#include "core/update.h"
#include "methods/initialization.h"

#include <stdexcept>

namespace facet {

Ccf::Ccf(MatrixCRef X, std::shared_ptr<const Gram> gram, int rank,
    std::shared_ptr<const ConstraintMatrix> A, CfSettings settings)
    : Cf(X, std::move(gram), rank, std::move(settings))
    , m_A(std::move(A))
{
    if (!m_A || m_A->rows() != X.cols())
        throw std::invalid_argument(
            "CCF needs a constraint matrix on the n = " + std::to_string(X.cols()) + " samples");
    if (!m_gram->isExplicit())
        m_classSums = m_A->classSums(m_gram->data());
}

void Ccf::initialize(Rng& rng)
{
    Matrix Z;
    if (m_settings.init == InitKind::Random) {
        // Distributed: this rank's rows of W and Z from the single process's draws.
        m_W = uniformSampleRows(rng, m_dist, m_gram->size(), m_rank);
        Z = m_A->uniformStart(rng, m_rank);
    } else {
        CfStart start = cfFamilyStart(m_settings.init, m_X, *m_gram, m_rank, rng, m_dist);
        m_W = std::move(start.W);
        Z = m_A->leastSquares(start.V);
    }
    m_Z = std::move(Z);
    m_V = m_A->times(m_Z);
    refreshCache();
    normalize();
}

void Ccf::normalize()
{
    const Vector d = m_WtKW.diagonal().cwiseMax(Scalar(0)).cwiseSqrt();
    rescaleColumns(m_W, m_Z, d);
    m_V = m_A->times(m_Z);
    refreshCache();
}

UpdateTerms Ccf::zTerms() const
{
    RuleParts parts = vParts();
    parts.linear = m_A->transposeTimes(parts.linear);
    parts.plus = m_A->transposeTimes(parts.plus);
    if (parts.minus.size() > 0)
        parts.minus = m_A->transposeTimes(parts.minus);
    return combine(std::move(parts));
}

UpdateTerms Ccf::updateTerms(int factor) const
{
    return factor == 0 ? wTerms() : zTerms();
}

void Ccf::step()
{
    if (fusesPasses()) {
        // As Cnmf::step: CF's fused passes treat every sample as unlabelled in the V rule and
        // leave the labelled rows out of X V; the labelled classes then take the Z rule from the
        // pass's K W, and X V gains their part, (class sums of X) Z_C. (A formed K keeps no X V:
        // the next pass starts from V.)
        const ConstraintMatrix& A = *m_A;
        fusedStep([this, &A](Eigen::Index first, Eigen::Index count) {
            A.clearLabelledRows(m_V, first, count);
        });
        A.finishFusedRule(m_KW, m_WtKW, m_Z, m_V);
        if (!m_gram->isExplicit() && A.classes() > 0)
            m_XV.noalias() += m_classSums * m_Z.topRows(A.classes());
        ++m_vVersion;
        return;
    }
    UpdateTerms t = wTerms(); // CF's W rule at V = A Z
    multiplicativeUpdate(m_W, t.numerator, t.denominator);
    refreshCache(false); // the Z rule uses the new W
    t = zTerms();
    multiplicativeUpdate(m_Z, t.numerator, t.denominator);
    m_V = m_A->times(m_Z);
    ++m_vVersion;
}

void Ccf::restore(const std::vector<Matrix>& state)
{
    m_W = state.at(0);
    m_Z = state.at(1);
    m_V = m_A->times(m_Z);
    refreshCache();
}

} // namespace facet
