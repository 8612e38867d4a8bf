// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/random.h"
#include "core/types.h"

#include <algorithm>
#include <cmath>
#include <functional>
#include <initializer_list>
#include <limits>
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace facet {

// The value a solve returns. Shapes: m features, n samples, k rank.
struct Factorization {
    std::string method;
    Matrix basis; // m x k, basis images (NMF: U; CF family: X W)
    Matrix W; // n x k, CF-family association matrix (empty for NMF-family methods)
    Matrix V; // n x k, row i = the new representation of sample i
    std::vector<double> history; // objective after each iteration of the kept replicate
    // Seconds from the start of the solve (initialization included) at the end of each iteration
    // of this solve: times[i] belongs to history[history.size() - times.size() + i] (a warm start
    // that continues an earlier history has no times for the earlier part).
    std::vector<double> times;
    std::vector<int> segmentStarts; // iterations where a new monotone segment begins (CF_OGL)
    // The objective at the returned factors, after finalize(). The normalization leaves the
    // product unchanged, so this is history.back() for NMF, CF, CNMF and CCF; a graph term
    // lambda Tr(V^T L V) scales with V (LCCF, GNMF, CF_OGL), and there the two differ, by orders
    // of magnitude when V is still far from its scale. NaN when the solve ran no iteration and
    // the start's objective was not finite.
    double returnedObjective = std::numeric_limits<double>::quiet_NaN();
    StopReason stopReason = StopReason::MaxIterations;
    // Which test ended a Converged run: "relative decrease" (METHODS.md section 0's window) or
    // "stationarity" (section 9: the optimality violation fell below DriverOptions::
    // stationarityTol times the first iteration's). Empty for the other stop reasons.
    std::string stopRule;
    int iterations = 0;
    int replicate = 0; // index of the seeded start that was kept
    bool stillDecreasing = false; // stopped at maxIter while the objective was still falling
    // The factors began from the uniform random start of METHODS.md 0 (set by the NMF and CF
    // families from the start they resolved: CCF's default is NMF's factors, for instance).
    bool randomStart = false;
    double initSeconds = 0;
    double solveSeconds = 0;
    std::vector<int> graphClusters; // CF_OGL: Q's connected components when there are exactly c
    std::vector<std::string> log; // notes for the run log ("general form chosen: min(K) < 0")
    // Counts a method kept of work whose size depends on the data, for the bench's cost model
    // (CF_OGL: its eigensolves and its graphs' sizes; bench/flops.h).
    std::map<std::string, double> work;
};

// True when the returned factors' objective differs visibly (1e-4 relative, above the rounding
// of the objective's trace form in float) from the last iteration's, so a summary shows both.
inline bool returnedObjectiveDiffers(double last, double returned)
{
    return std::isfinite(last) && std::isfinite(returned)
        && std::abs(returned - last) > 1e-4 * std::max(std::abs(last), std::abs(returned));
}

inline bool returnedObjectiveDiffers(const Factorization& f)
{
    return !f.history.empty() && returnedObjectiveDiffers(f.history.back(), f.returnedObjective);
}

// The two non-negative parts of a multiplicative rule M <- M o P / N (METHODS.md section 0).
// At a stationary point P = N; the gradient of the objective is proportional to N - P.
struct UpdateTerms {
    Matrix numerator; // P
    Matrix denominator; // N
};

// A factorization method: options live in the object (given at construction), the driver owns
// the loop. A method never changes its input and draws random numbers only from the Rng passed
// to initialize().
class Method {
public:
    virtual ~Method() = default;
    virtual std::string_view name() const = 0;
    // Seeded start (and the start-up normalization where the method has one).
    virtual void initialize(Rng& rng) = 0;
    // One application of every update rule, in the order METHODS.md writes them.
    virtual void step() = 0;
    // Objective at the current factors.
    virtual double objective() const = 0;
    // P and N of the rule for factor `factor` (the index into state()) at the current point;
    // step() applies exactly these. Tests compare them with the objective's gradient.
    virtual UpdateTerms updateTerms(int factor) const = 0;
    // The factor matrices, so the driver can keep the last finite state.
    virtual std::vector<Matrix> state() const = 0;
    // state() into `into`, reusing the storage of its matrices: the driver saves the state after
    // every iteration, and a fresh vector of copies allocated (and faulted in) new memory each
    // time. Methods with plain factor members override it through assignState().
    virtual void saveState(std::vector<Matrix>& into) const { into = state(); }
    virtual void restore(const std::vector<Matrix>& state) = 0;
    // restore() for a state whose next call is step() (core/extrapolation.h restores a point
    // before every step): a method may skip the products its step computes afresh. objective(),
    // updateTerms() and stationarity() describe the state again only after that step.
    virtual void restoreBeforeStep(const std::vector<Matrix>& state) { restore(state); }
    // The state a warm start from exported factors restores (DriverOptions::start: the basis or
    // W, then V, as exportTo() gives them). For most methods that is the factors themselves;
    // CNMF and CCF keep Z with V = A Z and take Z's least-squares fit. Throws
    // std::invalid_argument when the factors cannot be mapped.
    virtual std::vector<Matrix> stateFromFactors(std::vector<Matrix> factors) const
    {
        return factors;
    }
    // After the last iteration (normalization); the product is unchanged.
    virtual void finalize() { }
    // Fills basis, W, V of the result.
    virtual void exportTo(Factorization& out) const = 0;
    // Notes for the run log, gathered by the driver after initialize().
    virtual std::vector<std::string> notes() const { return {}; }
    // True once after a step that started a new monotone segment (CF_OGL beta change).
    virtual bool startedNewSegment() { return false; }
    // Whether each step is meant not to increase objective(). False for a variant that changes
    // its objective between steps (LCF's normalize-each): the driver's relative-decrease rule
    // then reads a standstill, not a rise, as convergence (core/driver.cpp).
    virtual bool monotone() const { return true; }
    // How far the last step found the factors from a stationary point of the objective (an
    // algorithm's own measure, zero exactly there; hals: methods/hals.h HalsSweepStats), or NaN
    // when the algorithm does not measure it (mu).
    virtual double stationarity() const { return std::numeric_limits<double>::quiet_NaN(); }
};

using MethodFactory = std::function<std::unique_ptr<Method>()>;

// Copies the factors into `into` in order; a matrix of the same shape keeps its storage.
inline void assignState(std::vector<Matrix>& into, std::initializer_list<const Matrix*> factors)
{
    into.resize(factors.size());
    std::size_t i = 0;
    for (const Matrix* factor : factors)
        into[i++] = *factor;
}

} // namespace facet
