// SPDX-License-Identifier: GPL-3.0-or-later
#include "methods/lcf.h"

#include "core/update.h"

#include <cmath>
#include <stdexcept>

namespace facet {

Lcf::Lcf(MatrixCRef X, std::shared_ptr<const Gram> gram, int rank, double lambda,
    bool normalizeEach, CfSettings settings)
    : Cf(X, std::move(gram), rank, std::move(settings))
    , m_lambda(lambda)
    , m_normalizeEach(normalizeEach)
{
    if (!(lambda >= 0) || !std::isfinite(lambda))
        throw std::invalid_argument(
            "lambda must be finite and >= 0, got " + std::to_string(lambda));
    if (usesGeneralForm())
        throw std::invalid_argument("LCF has no general form: it needs a kernel K >= 0");
}

// Gradient in W (derivation): the CF part gives 2 (K W V^T V - K V); the locality term
// lambda sum_ij v_ij (-2 (K W)_ij + w_j^T K w_j) gives lambda (-2 K V + 2 K W diag(V^T 1)).
// Hence grad = 2 (N - P) with P = (1 + lambda) K V, N = K W (V^T V + lambda diag(V^T 1)), whose
// inner matrix is the fused route's (fusedWInner), from the cached V^T V.
UpdateTerms Lcf::wTerms() const
{
    return { Scalar(1 + m_lambda) * m_gram->times(m_V), m_KW * fusedWInner(vtv()) };
}

// Gradient in V: 2 (V W^T K W - K W) + lambda (a 1^T - 2 K W + 1 b^T). As a regularizer of the
// CF rule (whose terms are half the gradient): minus = lambda K W, plus = lambda/2 (a 1^T + 1 b^T),
// which is METHODS.md's rule divided by 2.
Cf::Regularizer Lcf::vRegularizer() const
{
    if (m_lambda == 0)
        return {};
    const Scalar lambda = Scalar(m_lambda);
    const Vector& a = m_gram->diagonal();
    const Vector b = m_WtKW.diagonal();
    Regularizer r;
    r.minus = lambda * m_KW;
    r.plus = (Scalar(0.5) * lambda)
        * (a * RowVector::Ones(m_rank) + Vector::Ones(a.size()) * b.transpose());
    return r;
}

// lambda (sum_i a_i (V 1)_i - 2 sum(V o K W) + sum_j b_j (V^T 1)_j), each v_ij times the
// squared distance ||X w_j - x_i||^2 >= 0.
double Lcf::regularizerObjective() const
{
    if (m_lambda == 0)
        return 0;
    // Distributed: a and V's rows are this rank's, b is the same on every rank; one reduction.
    const double aTerm = double(m_gram->diagonal().dot(m_V.rowwise().sum()));
    const double kTerm = double((m_V.array() * m_KW.array()).sum());
    const double bTerm = double(m_WtKW.diagonal().dot(m_V.colwise().sum().transpose()));
    return m_lambda * sumOverSamples(m_dist, aTerm - 2.0 * kTerm + bTerm);
}

Matrix Lcf::fusedWInner(const Matrix& VtV) const
{
    Matrix inner = VtV;
    Matrix columnSums = m_V.colwise().sum().transpose(); // V^T 1, over every rank's rows
    sumOverSamples(m_dist, columnSums);
    inner.diagonal() += Scalar(m_lambda) * columnSums;
    return inner;
}

// vRegularizer()'s rows: minus = lambda K W, plus = lambda/2 (a 1^T + 1 b^T), with K W and
// b = diag(W^T K W) of the new W (already in m_KW's rows and m_WtKW when this is called).
void Lcf::addFusedVRegularizer(Eigen::Index first, Eigen::Index count, const Regularizer&,
    Matrix& numerator, Matrix& denominator) const
{
    if (m_lambda == 0)
        return;
    const Scalar lambda = Scalar(m_lambda);
    numerator += lambda * m_KW.middleRows(first, count);
    const auto a = m_gram->diagonal().segment(first, count);
    const Vector b = m_WtKW.diagonal();
    denominator += (Scalar(0.5) * lambda)
        * (a * RowVector::Ones(m_rank) + Vector::Ones(count) * b.transpose());
}

void Lcf::step()
{
    Cf::step();
    if (m_normalizeEach) {
        // V_j <- V_j / |V_j|, W_j <- W_j |V_j|: W V^T is unchanged, the locality term is not.
        Vector norms = m_V.colwise().norm().transpose();
        if (m_dist.active()) { // over every rank's rows
            Matrix squares = m_V.colwise().squaredNorm().transpose();
            sumOverSamples(m_dist, squares);
            norms = squares.cwiseSqrt();
        }
        rescaleColumns(m_V, m_W, norms);
        refreshCache();
    }
}

void Lcf::finalize()
{
    if (m_normalizeEach)
        normalize();
}

std::vector<std::string> Lcf::notes() const
{
    std::vector<std::string> out = Cf::notes();
    if (m_normalizeEach)
        out.emplace_back("normalize-each: V's columns are scaled to unit norm after every step (as "
                         "LCF_Multi.m); this changes the objective, which is then not guaranteed "
                         "to decrease, so the run stops when it stands still (not when it rises) "
                         "and runs the plain multiplicative rules");
    return out;
}

} // namespace facet
