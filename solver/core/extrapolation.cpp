// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/extrapolation.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <utility>

namespace facet {

ExtrapolatedMethod::ExtrapolatedMethod(std::unique_ptr<Method> inner, Form form)
    : m_inner(std::move(inner))
    , m_form(form)
{
}

void ExtrapolatedMethod::initialize(Rng& rng)
{
    m_inner->initialize(rng);
    reset();
}

// Restoring the accepted iterate itself (the basis trace finalizes a copy of the state for a
// snapshot and restores it) continues the same trajectory; any other state starts afresh.
void ExtrapolatedMethod::restore(const std::vector<Matrix>& state)
{
    m_inner->restore(state);
    const auto same = [](const Matrix& a, const Matrix& b) {
        return a.rows() == b.rows() && a.cols() == b.cols() && a == b;
    };
    if (state.size() != m_accepted.size()
        || !std::equal(state.begin(), state.end(), m_accepted.begin(), same))
        reset();
}

void ExtrapolatedMethod::reset()
{
    m_inner->saveState(m_accepted);
    m_acceptedObjective = m_inner->objective();
    m_hasDirection = false;
    m_beta = kBeta0;
    m_betaMax = 1;
    m_lastGoodBeta = kBeta0;
}

// The factors (the first two state matrices: U or W, and V or Z) are extrapolated; any further
// state (a learned graph) is z's. Additive: y = max(floor, z + beta (z - z_prev)), the floor
// keeping every entry positive as the rules do (core/update.h). Geometric: each entry continues
// its last factor r = z / z_prev, y = z o (1 + beta (r - 1)), the factor clamped to [1/16, 16] (an
// entry at the floor in z_prev would otherwise give an unbounded ratio), so no entry reaches zero
// and the accepted test decides the rest.
void ExtrapolatedMethod::extrapolate()
{
    m_trial.resize(m_accepted.size());
    const Scalar beta = Scalar(m_beta);
    const Scalar lowest = Scalar(1) / Scalar(16), highest = Scalar(16);
    for (std::size_t f = 0; f < m_accepted.size(); ++f) {
        const Matrix& z = m_accepted[f];
        const Matrix& before = m_previous[f];
        if (f >= 2) { // a direction exists only after a step, so z_prev has z's shape
            m_trial[f] = z;
        } else if (m_form == Form::Additive) {
            m_trial[f] = (z + beta * (z - before)).cwiseMax(kPositiveFloor);
        } else {
            // z o (1 + beta (r - 1)), r = z / z_prev: the first-order form of z o r^beta (a pow
            // per entry cost more than a small problem's whole step), >= (1 - beta) z for beta
            // <= 1.
            m_trial[f] = (z.array()
                * (Scalar(1) + beta * (z.array() / before.array().max(kPositiveFloor) - Scalar(1)))
                      .max(lowest)
                      .min(highest))
                             .max(kPositiveFloor)
                             .matrix();
        }
    }
}

void ExtrapolatedMethod::step()
{
    ++m_steps;
    const bool fromTrial = m_hasDirection;
    if (fromTrial) {
        extrapolate();
        m_inner->restoreBeforeStep(m_trial);
    }
    m_inner->step();
    bool segment = m_inner->startedNewSegment();
    double value = m_inner->objective();
    if (fromTrial && !segment && !(value <= m_acceptedObjective)) {
        // Discard the extrapolated step; the plain step from z keeps the objective from rising.
        ++m_rejected;
        m_inner->restoreBeforeStep(m_accepted);
        m_inner->step();
        segment = m_inner->startedNewSegment();
        value = m_inner->objective();
        m_beta /= kEta;
        m_betaMax = m_lastGoodBeta;
    } else if (fromTrial) {
        m_lastGoodBeta = m_beta;
        m_beta = std::min(m_betaMax, kGamma * m_beta);
        m_betaMax = std::min(1.0, kGammaBar * m_betaMax);
    }
    std::swap(m_previous, m_accepted);
    m_inner->saveState(m_accepted);
    m_acceptedObjective = value;
    // A direction needs two iterates of one objective; a non-finite value ends the run anyway.
    m_hasDirection = !segment && std::isfinite(value);
    m_newSegment = m_newSegment || segment;
}

bool ExtrapolatedMethod::startedNewSegment()
{
    return std::exchange(m_newSegment, false);
}

std::vector<std::string> ExtrapolatedMethod::notes() const
{
    std::vector<std::string> notes = m_inner->notes();
    char text[160];
    std::snprintf(text, sizeof text,
        "extrapolation (Ang & Gillis 2019): %ld of %ld steps discarded and retaken, final beta "
        "%.3g",
        m_rejected, m_steps, m_beta);
    notes.emplace_back(text);
    return notes;
}

} // namespace facet
