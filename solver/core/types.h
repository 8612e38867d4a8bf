// Facet — matrix factorization explorer. SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <Eigen/Core>

#include <functional>
#include <limits>
#include <stop_token>
#include <string_view>

namespace facet {

// The one place the floating-point type is chosen (float builds set FACET_SCALAR_FLOAT).
#ifdef FACET_SCALAR_FLOAT
using Scalar = float;
#else
using Scalar = double;
#endif

using Matrix = Eigen::Matrix<Scalar, Eigen::Dynamic, Eigen::Dynamic>;
using Vector = Eigen::Matrix<Scalar, Eigen::Dynamic, 1>;
using RowVector = Eigen::Matrix<Scalar, 1, Eigen::Dynamic>;
using MatrixCRef = Eigen::Ref<const Matrix>;

// METHODS.md section 0: the floor of every multiplicative-update denominator.
inline constexpr Scalar kUpdateEps = std::is_same_v<Scalar, float> ? Scalar(1e-6) : Scalar(1e-10);
// Smallest value an entry that should stay positive is allowed to reach.
inline constexpr Scalar kPositiveFloor = std::numeric_limits<Scalar>::min();

struct IterationReport {
    // 1-based iteration count within the replicate; a continued run counts on from the run it
    // continues (DriverOptions::startHistory)
    int iteration = 0;
    double objective = 0;
    double relativeChange = 0; // (O[t-1] - O[t]) / O[t]
    int replicate = 0; // which seeded start produced this iteration
    double seconds = 0; // from the start of the solve (Factorization::times)
};

enum class StopReason { Converged, MaxIterations, Cancelled, NonFinite };

constexpr std::string_view stopReasonName(StopReason reason)
{
    switch (reason) {
    case StopReason::Converged:
        return "converged";
    case StopReason::MaxIterations:
        return "max_iterations";
    case StopReason::Cancelled:
        return "cancelled";
    case StopReason::NonFinite:
        return "non_finite";
    }
    return "unknown";
}

struct SolveControl {
    std::function<void(const IterationReport&)> onIteration; // solver thread; keep it cheap
    std::stop_token stop; // checked between iterations, and between blocks of the long set-up
    // Solver thread: a long set-up step begins before the first iteration (the neighbour search,
    // a formed kernel, PCA), named as SetupCancelled would name it (core/cancellation.h); an
    // empty name after such steps: the set-up is over and the iterations follow.
    std::function<void(std::string_view stage)> onStage;
    // Solver thread, during the stage last named: the fraction of its work done, rising to 1
    // (the neighbour searches report it; core/cancellation.h StageProgress). Must not throw.
    std::function<void(double fraction)> onStageProgress;
};

} // namespace facet
