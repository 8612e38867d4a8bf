// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "methods/constraint.h"
#include "methods/nmf.h"

#include <memory>

namespace facet {

// METHODS.md 2.1, CNMF, Constrained NMF (Liu & Wu 2010, AAAI; Liu, Wu, Li, Cai & Huang, PAMI
// 2012), parameter free: O = ||X - U Z^T A^T||_F^2, U, Z >= 0,
//   U <- U o (X A Z) / (U Z^T A^T A Z)
//   Z <- Z o (A^T X^T U) / (A^T A Z U^T U).
// Shapes: X m x n, U m x k, Z (c + n - l) x k, A n x (c + n - l) (ConstraintMatrix). The
// exported coefficients are V = A Z (n x k). With V = A Z kept current, the U rule and the
// objective are NMF's, and the Z rule is A^T applied to both terms of NMF's V rule (the chain
// rule through V = A Z): A^T (V U^T U) = A^T A Z U^T U. With A = I every operation is NMF's,
// so the same seed gives identical factors.
class Cnmf : public Nmf {
public:
    // X non-negative; A built from the known labels of X's samples.
    Cnmf(MatrixCRef X, int rank, std::shared_ptr<const ConstraintMatrix> A,
        InitKind init = InitKind::Random);

    std::string_view name() const override { return "cnmf"; }
    // Random: U then Z uniform [0, 1). Other starts: NMF's (U, V), then Z = the least-squares
    // fit of V (class means, see ConstraintMatrix::leastSquares).
    void initialize(Rng& rng) override;
    void step() override;
    UpdateTerms updateTerms(int factor) const override; // 0: U, 1: Z
    std::vector<Matrix> state() const override { return { m_U, m_Z }; }
    void saveState(std::vector<Matrix>& into) const override { assignState(into, { &m_U, &m_Z }); }
    void restore(const std::vector<Matrix>& state) override;
    // The state is (U, Z), not NMF's (U, V): V = A Z is formed here.
    void restoreBeforeStep(const std::vector<Matrix>& state) override { restore(state); }
    // (basis or W, V) -> (basis or W, Z): ConstraintMatrix::stateFromFactors.
    std::vector<Matrix> stateFromFactors(std::vector<Matrix> factors) const override
    {
        return m_A->stateFromFactors(std::move(factors), name());
    }
    void finalize() override;

    const Matrix& Z() const { return m_Z; }

private:
    void setFactors(Matrix U, Matrix Z);

    std::shared_ptr<const ConstraintMatrix> m_A;
    Matrix m_Z;
    Matrix m_classSums; // X A_L (m x c): the labelled samples' part of X V is m_classSums Z_C
};

} // namespace facet
