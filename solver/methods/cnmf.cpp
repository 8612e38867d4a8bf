// SPDX-License-Identifier: GPL-3.0-or-later
#include "methods/cnmf.h"

#include "core/skinny_product.h"
#include "core/update.h"

#include <stdexcept>

namespace facet {

Cnmf::Cnmf(MatrixCRef X, int rank, std::shared_ptr<const ConstraintMatrix> A, InitKind init)
    : Nmf(X, rank, init, "CNMF")
    , m_A(std::move(A))
{
    if (!m_A || m_A->rows() != X.cols())
        throw std::invalid_argument(
            "CNMF needs a constraint matrix on the n = " + std::to_string(X.cols()) + " samples");
    m_classSums = m_A->classSums(X);
    // Distributed, the fused step's X V is reduced before the labelled part is added: that part
    // takes every rank's class sums.
    sumOverSamples(m_dist, m_classSums);
}

void Cnmf::initialize(Rng& rng)
{
    if (m_init == InitKind::Random) {
        Matrix U = rng.uniformMatrix(m_X.rows(), m_rank);
        Matrix Z = m_A->uniformStart(rng, m_rank); // distributed: this rank's rows
        setFactors(std::move(U), std::move(Z));
        return;
    }
    NmfStart start = nmfFamilyStart(m_init, m_X, m_rank, rng, m_dist);
    setFactors(std::move(start.U), m_A->leastSquares(start.V));
}

void Cnmf::setFactors(Matrix U, Matrix Z)
{
    m_Z = std::move(Z);
    initializeFrom(std::move(U), m_A->times(m_Z));
}

UpdateTerms Cnmf::updateTerms(int factor) const
{
    if (factor == 0) // U <- U o (X A Z) / (U Z^T A^T A Z), NMF's rule at V = A Z
        return Nmf::updateTerms(0);
    // Z <- Z o (A^T X^T U) / (A^T A Z U^T U)
    if (m_mask) {
        // Masked (methods/masked_nmf.cpp): O = sum W o (X - U Z^T A^T)^2 has the Z gradient A^T
        // times the V gradient, so the rule is A^T applied to both masked V terms:
        //   Z <- Z o (A^T (W o X)^T U) / (A^T (W o (U V^T))^T U).
        // Each row of A has one 1, so row t of Z fits the samples mapped to column t, with
        // Hessian sum over those samples of U^T diag(W_n) U (entries >= 0): Lee & Seung's
        // auxiliary function applies row by row and O does not increase.
        const UpdateTerms t = maskedUpdateTerms(1);
        return { m_A->transposeTimes(t.numerator), m_A->transposeTimes(t.denominator) };
    }
    return { m_A->transposeTimes(m_XtU), m_A->transposeTimes(m_V * m_UtU) };
}

void Cnmf::step()
{
    if (fusedRoute()) {
        // NMF's fused pass updates every row of V as an unlabelled sample's row of Z (which it
        // is for those samples) and clears the labelled rows before adding X V, so the pass's
        // X V is X_U V_U. The labelled classes then take the Z rule from the pass's X^T U, and
        // X V = X_U V_U + X_L A_L Z_C = X_U V_U + (class sums) Z_C: no second look at the
        // labelled columns of X. (Until 24 November the pass added the labelled rows' stale
        // values and a gather of those l columns corrected X V: 2mlk more multiply-adds and
        // a tenth more of X read at the bench's label fraction, more in the semi-supervised
        // sweeps.)
        const ConstraintMatrix& A = *m_A;
        fusedStep([this, &A](Eigen::Index first, Eigen::Index count) {
            A.clearLabelledRows(m_V, first, count);
        });
        A.finishFusedRule(m_XtU, m_UtU, m_Z, m_V);
        if (A.classes() > 0)
            m_XV.noalias() += m_classSums * m_Z.topRows(A.classes());
        ++m_vVersion;
        return;
    }
    UpdateTerms t = updateTerms(0);
    multiplicativeUpdate(m_U, t.numerator, t.denominator);
    refreshCache(false); // the Z rule uses the new U
    t = updateTerms(1);
    multiplicativeUpdate(m_Z, t.numerator, t.denominator);
    m_V = m_A->times(m_Z);
    ++m_vVersion;
    m_maskProductValid = false;
    m_maskCrossValid = false;
}

void Cnmf::restore(const std::vector<Matrix>& state)
{
    setFactors(state.at(0), state.at(1));
}

void Cnmf::finalize()
{
    // Unit-norm basis columns, Z (and so V = A Z) takes the norms (METHODS.md 1.1).
    const Vector norms = m_U.colwise().norm().transpose();
    rescaleColumns(m_U, m_Z, norms);
    m_V = m_A->times(m_Z);
    refreshCache();
}

} // namespace facet
