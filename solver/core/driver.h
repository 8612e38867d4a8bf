// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/method.h"

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace facet {

// METHODS.md section 0, "Restarts" and "Stopping".
struct DriverOptions {
    int maxIter = 300;
    int minIter = 30;
    double tol = 1e-5; // relative decrease over the last 10 iterations
    int replicates = 1; // seeded starts run for minIter iterations; the lowest objective continues
    std::uint64_t seed = 0;
    // User-supplied factors for a warm start (METHODS.md 0), in the order of Method::state()
    // (NMF family U, V; CF family W, V): the method is initialized as usual, then restored to
    // these. Each must have the shape of the method's own and be finite and non-negative. Needs
    // replicates = 1. `startSource` names where they came from, for reports.
    std::shared_ptr<const std::vector<Matrix>> start;
    std::string startSource;
};

inline constexpr int kConvergenceWindow = 10;

// Runs the method created by `make` to a StopReason. Throws std::invalid_argument for bad
// options (and whatever the method's constructor or initialize() throws for bad input).
Factorization solve(
    const MethodFactory& make, const DriverOptions& options, const SolveControl& control = {});

} // namespace facet
