// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/method.h"

#include <cstdint>

namespace facet {

// METHODS.md section 0, "Restarts" and "Stopping".
struct DriverOptions {
    int maxIter = 300;
    int minIter = 30;
    double tol = 1e-5; // relative decrease over the last 10 iterations
    int replicates = 1; // seeded starts run for minIter iterations; the lowest objective continues
    std::uint64_t seed = 0;
};

inline constexpr int kConvergenceWindow = 10;

// Runs the method created by `make` to a StopReason. Throws std::invalid_argument for bad
// options (and whatever the method's constructor or initialize() throws for bad input).
Factorization solve(
    const MethodFactory& make, const DriverOptions& options, const SolveControl& control = {});

} // namespace facet
