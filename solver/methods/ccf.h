// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "methods/cf.h"
#include "methods/constraint.h"

#include <memory>

namespace facet {

// METHODS.md 2.2, CCF, Constrained Concept Factorization (Liu, Yang, Wu & Cai), parameter free:
// O = ||X - X W Z^T A^T||_F^2, W, Z >= 0,
//   W <- W o (K A Z) / (K W Z^T A^T A Z)
//   Z <- Z o (A^T K W) / (A^T A Z W^T K W).
// Shapes: K n x n, W n x k, Z (c + n - l) x k, A n x (c + n - l) (ConstraintMatrix). The
// exported coefficients are V = A Z (n x k). With V = A Z kept current, the W rule and the
// objective are CF's, and each part of the Z rule is A^T applied to the matching part of CF's V
// rule (chain rule through V = A Z; A^T (V W^T K W) = A^T A Z W^T K W). That also gives the
// general form of 1.4: a = A^T K W, Q+- = A^T A Z W^T K+- W. Normalization as CF with Z in place
// of V. With A = I every operation is CF's, so the same seed gives identical factors.
class Ccf : public Cf {
public:
    Ccf(MatrixCRef X, std::shared_ptr<const Gram> gram, int rank,
        std::shared_ptr<const ConstraintMatrix> A, CfSettings settings = {});

    std::string_view name() const override { return "ccf"; }
    // Random: W then Z uniform [0, 1). Other starts: CF's (W, V), then Z = the least-squares
    // fit of V (class means, see ConstraintMatrix::leastSquares).
    void initialize(Rng& rng) override;
    void step() override;
    UpdateTerms updateTerms(int factor) const override; // 0: W, 1: Z
    std::vector<Matrix> state() const override { return { m_W, m_Z }; }
    void saveState(std::vector<Matrix>& into) const override { assignState(into, { &m_W, &m_Z }); }
    void restore(const std::vector<Matrix>& state) override;
    // (basis or W, V) -> (basis or W, Z): ConstraintMatrix::stateFromFactors.
    std::vector<Matrix> stateFromFactors(std::vector<Matrix> factors) const override
    {
        return m_A->stateFromFactors(std::move(factors), name());
    }

    const Matrix& Z() const { return m_Z; }

protected:
    // diag(W^T K W) = d: W <- W d^(-1/2), Z <- Z d^(1/2), V = A Z.
    void normalize() override;

private:
    UpdateTerms zTerms() const;

    std::shared_ptr<const ConstraintMatrix> m_A;
    Matrix m_Z;
    // The implicit kernel's X A_L (m x c; empty with a formed K): the labelled samples' part of
    // the fused step's X V is m_classSums Z_C.
    Matrix m_classSums;
};

} // namespace facet
