// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/method.h"

#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace facet {

// Any method's update rule, accelerated by extrapolation with restarts (Ang & Gillis, "Accelerating
// nonnegative matrix factorization algorithms using extrapolation", Neural Computation 31 (2019);
// docs/algorithms.md). With z_t the accepted iterate after step t, the next step starts from
//
//     additive (hals):    y = max(floor, z_t + beta (z_t - z_{t-1}))
//     geometric (mu):     y = z_t o clamp(1 + beta (z_t / z_{t-1} - 1), 1/16, 16)
//
// (the factors; further state as in z_t) instead of z_t. A multiplicative rule moves an entry by a
// factor per step and cannot bring back an entry the additive form sets near zero (it would need
// hundreds of steps to grow from the floor), so for mu the extrapolation continues each entry's
// relative change (the first-order form of z_t o (z_t / z_{t-1})^beta) and never sets an entry
// to zero. If the step from y ends at an objective not above z_t's, it is accepted and beta
// grows (beta <- min(beta_max, gamma beta), beta_max <- min(1, gamma_bar beta_max)); otherwise it
// is discarded, the step is taken again from z_t itself (which the rule's own descent property
// keeps at or below z_t's objective), beta shrinks (beta <- beta / eta) and beta_max falls to the
// beta of the last success. So the objective of the accepted iterates never increases: the oracle
// of METHODS.md section 9 holds for the sequence the driver records.
//
// Between steps the wrapped method sits at the accepted iterate, so objective(), state(),
// updateTerms() and exportTo() all describe it. A step that starts a new monotone segment (the
// objective's definition changed) is accepted as it is and the direction is forgotten.
class ExtrapolatedMethod final : public Method {
public:
    enum class Form { Additive, Geometric };
    ExtrapolatedMethod(std::unique_ptr<Method> inner, Form form);

    // Ang & Gillis's parameters (their section 3): initial beta, shrink on a rejected step, growth
    // of beta and of its cap on an accepted one.
    static constexpr double kBeta0 = 0.5;
    static constexpr double kEta = 1.5;
    static constexpr double kGamma = 1.05;
    static constexpr double kGammaBar = 1.01;

    std::string_view name() const override { return m_inner->name(); }
    void initialize(Rng& rng) override;
    void step() override;
    double objective() const override { return m_inner->objective(); }
    UpdateTerms updateTerms(int factor) const override { return m_inner->updateTerms(factor); }
    std::vector<Matrix> state() const override { return m_inner->state(); }
    void saveState(std::vector<Matrix>& into) const override { m_inner->saveState(into); }
    void restore(const std::vector<Matrix>& state) override;
    std::vector<Matrix> stateFromFactors(std::vector<Matrix> factors) const override
    {
        return m_inner->stateFromFactors(std::move(factors));
    }
    void finalize() override { m_inner->finalize(); }
    void exportTo(Factorization& out) const override { m_inner->exportTo(out); }
    // The wrapped method's notes and how often an extrapolated step was discarded.
    std::vector<std::string> notes() const override;
    bool startedNewSegment() override;
    double stationarity() const override { return m_inner->stationarity(); }
    bool monotone() const override { return m_inner->monotone(); }

private:
    // The wrapped method's current state becomes the accepted iterate, with no direction yet.
    void reset();
    void extrapolate();

    std::unique_ptr<Method> m_inner;
    Form m_form;
    std::vector<Matrix> m_accepted; // z_t
    std::vector<Matrix> m_previous; // z_{t-1}
    std::vector<Matrix> m_trial; // y
    double m_acceptedObjective = 0;
    bool m_hasDirection = false;
    double m_beta = kBeta0;
    double m_betaMax = 1;
    double m_lastGoodBeta = kBeta0;
    long m_steps = 0;
    long m_rejected = 0;
    bool m_newSegment = false;
};

} // namespace facet
