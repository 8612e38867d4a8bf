// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "methods/cf.h"

namespace facet {

// METHODS.md 1.5, LCF, Locality-constrained Concept Factorization (Liu, Yang & Wu, IJCAI 2011).
// With a = diag(K) (n), b = diag(W^T K W) (k):
// O = ||X - X W V^T||^2 + lambda sum_ij v_ij ||X w_j - x_i||^2
//   = CF objective + lambda sum_ij v_ij (a_i - 2 (K W)_ij + b_j),
//   W <- W o (1 + lambda) K V / (K W V^T V + lambda K W diag(V^T 1))
//   V <- V o 2 (1 + lambda) K W / (2 V W^T K W + lambda a 1^T + lambda 1 b^T).
// Shapes: K n x n, W n x k, V n x k. K must be non-negative (no general form). Paper default
// lambda = 0.3. No normalization after the last iteration: the locality term is not scale
// invariant, so rescaling would change the objective (the start-up normalization of CF only
// picks the scale of the random start, diag(W^T K W) = 1, so that the bases X w_j start at the
// scale of the data). normalizeEach: after every step V's columns get unit L2 norm and W's
// columns the inverse scale, as the public LCF_Multi.m does; that breaks the monotone objective.
class Lcf : public Cf {
public:
    // lambda finite and >= 0 (std::invalid_argument otherwise).
    Lcf(MatrixCRef X, std::shared_ptr<const Gram> gram, int rank, double lambda,
        bool normalizeEach = false, CfSettings settings = {});

    std::string_view name() const override { return "lcf"; }
    void step() override;
    // Nothing by default (see above). With normalizeEach, the bases X w_j get unit norm and V's
    // columns the inverse scale, as LCF_Multi.m ends (NormalizeUV with NormV = 0): its V, which
    // k-means clusters, carries the bases' scales, not the unit columns of the last step.
    void finalize() override;
    bool monotone() const override { return !m_normalizeEach; }
    std::vector<std::string> notes() const override;

protected:
    UpdateTerms wTerms() const override;
    // The fused step (Cf::fusedStep) with LCF's W rule, (1 + lambda) K V over
    // K W (V^T V + lambda diag(V^T 1)), and its V regularizer from the new K W's rows.
    Scalar fusedKVScale() const override { return Scalar(1 + m_lambda); }
    Matrix fusedWInner(const Matrix& VtV) const override;
    bool regularizerBeforePass() const override { return false; }
    void addFusedVRegularizer(Eigen::Index first, Eigen::Index count, const Regularizer& before,
        Matrix& numerator, Matrix& denominator) const override;
    Regularizer vRegularizer() const override;
    double regularizerObjective() const override;

private:
    double m_lambda;
    bool m_normalizeEach;
};

} // namespace facet
