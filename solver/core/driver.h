// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/method.h"

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace facet {

// The iteration limit of a run that does not set one: a safety net, not the usual stop. The
// default algorithms end by the relative-decrease or stationarity rule within it on the bundled
// sets at k = classes (bench/RESULTS.md: ORL's CF, the slowest, after about 2,000 iterations).
// GNMF, SemiGNMF and LCCF can reach it: their objective has no minimizer (docs/algorithms.md).
inline constexpr int kDefaultMaxIterations = 3000;

// METHODS.md section 0, "Restarts" and "Stopping".
struct DriverOptions {
    int maxIter = kDefaultMaxIterations;
    int minIter = 30;
    double tol = 1e-5; // relative decrease over the last 10 iterations
    // METHODS.md section 9's stationarity rule, for algorithms that measure it
    // (Method::stationarity): converged once the measure falls to stationarityTol times its value
    // after the first iteration. 0 turns the rule off.
    double stationarityTol = 1e-4;
    int replicates = 1; // seeded starts run for minIter iterations; the lowest objective continues
    std::uint64_t seed = 0;
    // User-supplied factors for a warm start (METHODS.md 0), as a run exports them (NMF family
    // and CNMF U, V; CF family and CCF W, V): the method is initialized as usual, then restored
    // to Method::stateFromFactors() of these (CNMF and CCF: V's least-squares Z). Each must be
    // finite and non-negative and give the shape of the method's own state. Needs
    // replicates = 1. `startSource` names where they came from, for reports.
    std::shared_ptr<const std::vector<Matrix>> start;
    std::string startSource;
    // The objectives of the run that ended at `start` (optional; needs `start`), so that the
    // run counts on from it: its iterations are numbered after these, minIter and the
    // convergence window span both parts, maxIter counts the new iterations only, and the
    // result's history holds both. Where the start's own objective is not the last of these
    // (the graph methods' final normalization scales V's columns, which changes
    // lambda Tr(V^T L V); or factors from elsewhere), the new part begins a new segment, as a
    // beta change of CF_OGL does, so the window does not read the jump as progress.
    std::vector<double> startHistory;
};

inline constexpr int kConvergenceWindow = 10;

// Runs the method created by `make` to a StopReason. Throws std::invalid_argument for bad
// options (and whatever the method's constructor or initialize() throws for bad input).
Factorization solve(
    const MethodFactory& make, const DriverOptions& options, const SolveControl& control = {});

} // namespace facet
