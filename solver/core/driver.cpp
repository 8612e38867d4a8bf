// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/driver.h"

#include "core/update.h" // scientific

#include <algorithm>
#include <chrono>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <string>

namespace facet {
namespace {

using Clock = std::chrono::steady_clock;

double secondsSince(Clock::time_point start)
{
    return std::chrono::duration<double>(Clock::now() - start).count();
}

void validate(const DriverOptions& o)
{
    if (o.maxIter < 1)
        throw std::invalid_argument("maxIter must be at least 1, got " + std::to_string(o.maxIter));
    if (o.minIter < 0)
        throw std::invalid_argument(
            "minIter must be non-negative, got " + std::to_string(o.minIter));
    if (!(o.stationarityTol >= 0) || !std::isfinite(o.stationarityTol))
        throw std::invalid_argument("the stationarity tolerance must be a finite value >= 0, got "
            + std::to_string(o.stationarityTol));
    if (!(o.tol >= 0) || !std::isfinite(o.tol))
        throw std::invalid_argument(
            "tol must be a finite value >= 0, got " + std::to_string(o.tol));
    if (o.replicates < 1)
        throw std::invalid_argument(
            "replicates must be at least 1, got " + std::to_string(o.replicates));
    if (o.start && o.replicates != 1)
        throw std::invalid_argument(
            "a start from given factors runs one replicate, not " + std::to_string(o.replicates));
    if (!o.startHistory.empty() && !o.start)
        throw std::invalid_argument("an earlier objective history needs the factors it ended at");
    for (double value : o.startHistory)
        if (!std::isfinite(value))
            throw std::invalid_argument("the earlier objective history has a value that is not "
                                        "finite");
}

// Whether the start's own objective continues the earlier history: the same value up to the
// rounding of the products that compute it.
bool continuesHistory(double startObjective, double last)
{
    return std::abs(startObjective - last) <= 1e-9 * std::max(std::abs(last), 1e-300);
}

std::string shapeText(const Matrix& m)
{
    return std::to_string(m.rows()) + " x " + std::to_string(m.cols());
}

// The given start in place of the seeded one, checked against the method's own state. Refused
// too: a factor with a column of zeros (a multiplicative rule never moves an entry from 0, so
// that basis vector and its coefficients would stay dead, and a run from U = 0 ended "converged"
// at the data's own norm), and factors whose objective is not finite (V scaled by 1e300: the
// first step would stop as non-finite on the start itself).
void applyStart(Method& method, const std::vector<Matrix>& factors)
{
    for (std::size_t f = 0; f < factors.size(); ++f) {
        const std::string which = "factor " + std::to_string(f + 1) + " of the given start";
        if (!factors[f].allFinite())
            throw std::invalid_argument(which + " has a value that is not finite");
        if ((factors[f].array() < 0).any())
            throw std::invalid_argument(
                which + " has a negative value; a multiplicative start must be non-negative");
        for (Eigen::Index j = 0; j < factors[f].cols(); ++j)
            if (factors[f].rows() > 0 && (factors[f].col(j).array() == 0).all())
                throw std::invalid_argument(which + " has a column of zeros (column "
                    + std::to_string(j + 1)
                    + "): the updates never move an entry from 0, so that part of the "
                      "factorization could not start; give factors without zero columns");
    }
    const std::vector<Matrix> given = method.stateFromFactors(factors);
    const std::vector<Matrix> own = method.state();
    if (given.size() != own.size())
        throw std::invalid_argument(std::string(method.name()) + " starts from "
            + std::to_string(own.size()) + " factors, " + std::to_string(given.size())
            + " were given");
    for (std::size_t f = 0; f < own.size(); ++f) {
        const std::string which = "factor " + std::to_string(f + 1) + " of the given start";
        if (given[f].rows() != own[f].rows() || given[f].cols() != own[f].cols())
            throw std::invalid_argument(which + " is " + shapeText(given[f]) + ", "
                + std::string(method.name()) + " needs " + shapeText(own[f]));
    }
    method.restore(given);
    if (const double objective = method.objective(); !std::isfinite(objective)) {
        std::string sizes;
        for (std::size_t f = 0; f < factors.size(); ++f)
            sizes += (f == 0 ? "" : ", factor ") + std::to_string(f + 1) + " "
                + scientific(
                    factors[f].size() > 0 ? double(factors[f].cwiseAbs().maxCoeff()) : 0.0);
        throw std::invalid_argument("the objective of the given start is not finite: the "
                                    "products of its factors overflow (largest entry of factor "
            + sizes + "); give factors of the data's scale");
    }
}

// One seeded start and its trajectory so far.
struct Trajectory {
    std::unique_ptr<Method> method;
    std::vector<double> history;
    std::vector<int> segmentStarts;
    std::vector<Matrix> lastFinite; // state after the last finite objective
    Clock::time_point origin; // when solve() began
    std::vector<double> times; // seconds from origin at each iteration of this solve
    double firstStationarity = std::numeric_limits<double>::quiet_NaN();
    std::string stopRule;
    StopReason stop = StopReason::MaxIterations;
    bool stopped = false;
    int replicate = 0;
};

// Relative decrease over the convergence window, (O[t-10] - O[t]) / O[t]; the window restarts
// at a segment boundary so a beta change is not read as convergence or divergence.
double windowDecrease(const Trajectory& t)
{
    const int size = int(t.history.size());
    const int segmentStart = t.segmentStarts.empty() ? 0 : t.segmentStarts.back();
    if (size - segmentStart <= kConvergenceWindow)
        return std::numeric_limits<double>::infinity();
    const double now = t.history.back();
    const double before = t.history[size - 1 - kConvergenceWindow];
    if (now == 0)
        return 0;
    // A method whose steps may raise its objective (Method::monotone) has not converged when the
    // objective rises: METHODS.md section 0's rule assumes a non-increasing sequence, where a rise
    // is rounding at the end. Its standstill is a change below tol either way.
    if (!t.method->monotone())
        return std::abs(before - now) / std::abs(now);
    return (before - now) / std::abs(now);
}

// Runs iterations until `untilIteration`, a stop rule, or cancellation.
void advance(Trajectory& t, int untilIteration, const DriverOptions& o, const SolveControl& control)
{
    while (!t.stopped && int(t.history.size()) < untilIteration) {
        if (control.stop.stop_requested()) {
            t.stop = StopReason::Cancelled;
            t.stopped = true;
            return;
        }
        t.method->step();
        const bool newSegment = t.method->startedNewSegment();
        const double objective = t.method->objective();
        if (!std::isfinite(objective)) {
            // Keep the last factors whose objective was finite (METHODS.md: NonFinite is an
            // outcome, not an error).
            t.method->restore(t.lastFinite);
            t.stop = StopReason::NonFinite;
            t.stopped = true;
            return;
        }
        const double previous = t.history.empty() ? objective : t.history.back();
        t.history.push_back(objective);
        t.times.push_back(secondsSince(t.origin));
        if (newSegment)
            t.segmentStarts.push_back(int(t.history.size()) - 1);
        t.method->saveState(t.lastFinite);
        const int iteration = int(t.history.size());
        if (control.onIteration) {
            const double rel = objective != 0 ? (previous - objective) / std::abs(objective) : 0;
            control.onIteration(
                IterationReport { iteration, objective, rel, t.replicate, t.times.back() });
        }
        const double stationarity = t.method->stationarity();
        if (std::isfinite(stationarity) && !std::isfinite(t.firstStationarity))
            t.firstStationarity = stationarity;
        if (iteration >= o.minIter && windowDecrease(t) < o.tol) {
            t.stop = StopReason::Converged;
            t.stopRule = "relative decrease";
            t.stopped = true;
        } else if (iteration >= o.minIter && o.stationarityTol > 0 && std::isfinite(stationarity)
            && stationarity <= o.stationarityTol * t.firstStationarity) {
            t.stop = StopReason::Converged;
            t.stopRule = "stationarity";
            t.stopped = true;
        }
    }
}

Trajectory start(
    const MethodFactory& make, const DriverOptions& o, int replicate, Clock::time_point origin)
{
    Trajectory t;
    t.replicate = replicate;
    t.origin = origin;
    t.method = make();
    Rng rng(deriveSeed(o.seed, std::uint64_t(replicate)));
    t.method->initialize(rng);
    if (o.start) {
        applyStart(*t.method, *o.start);
        if (!o.startHistory.empty()) {
            t.history = o.startHistory;
            if (!continuesHistory(t.method->objective(), t.history.back()))
                t.segmentStarts.push_back(int(t.history.size()));
        }
    }
    t.lastFinite = t.method->state();
    return t;
}

} // namespace

Factorization solve(
    const MethodFactory& make, const DriverOptions& options, const SolveControl& control)
{
    validate(options);
    const auto initStart = Clock::now();
    Factorization result;
    double initSeconds = 0;

    Trajectory best;
    if (options.replicates == 1) {
        best = start(make, options, 0, initStart);
        initSeconds = secondsSince(initStart);
    } else {
        // Restarts (METHODS.md 0): every start runs minIter iterations; the lowest objective
        // continues. A cancelled start ends the whole solve with what is best so far.
        const int probe = std::min(std::max(options.minIter, 1), options.maxIter);
        double bestObjective = std::numeric_limits<double>::infinity();
        for (int r = 0; r < options.replicates; ++r) {
            Trajectory t = start(make, options, r, initStart);
            advance(t, probe, options, control);
            const double value
                = t.history.empty() ? std::numeric_limits<double>::infinity() : t.history.back();
            const bool better
                = !best.method || (t.stop != StopReason::NonFinite && value < bestObjective);
            if (better) {
                bestObjective = value;
                best = std::move(t);
            }
            if (control.stop.stop_requested()) {
                best.stop = StopReason::Cancelled;
                best.stopped = true;
                break;
            }
        }
        initSeconds = secondsSince(initStart);
    }

    const auto solveStart = Clock::now();
    advance(best, int(options.startHistory.size()) + options.maxIter, options, control);
    if (!best.stopped)
        best.stop = StopReason::MaxIterations;
    best.method->finalize();
    // Cheap: finalize() refreshes the products the objective reads.
    const double returned = best.method->objective();
    result.returnedObjective
        = std::isfinite(returned) ? returned : std::numeric_limits<double>::quiet_NaN();

    const double lastDecrease = windowDecrease(best);
    result.method = std::string(best.method->name());
    best.method->exportTo(result);
    result.history = std::move(best.history);
    result.segmentStarts = std::move(best.segmentStarts);
    result.times = std::move(best.times);
    result.stopReason = best.stop;
    if (best.stop == StopReason::Converged)
        result.stopRule = best.stopRule;
    result.iterations = int(result.history.size());
    result.replicate = best.replicate;
    // Shown to the user: a run cut off by maxIter that had not settled (METHODS.md 0).
    result.stillDecreasing = best.stop == StopReason::MaxIterations && std::isfinite(lastDecrease)
        && lastDecrease > options.tol;
    result.initSeconds = initSeconds;
    result.solveSeconds = secondsSince(solveStart);
    result.log = best.method->notes();
    return result;
}

} // namespace facet
