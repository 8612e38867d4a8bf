// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/collectives.h"
#include "core/types.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <stdexcept>
#include <string>

namespace facet {

// METHODS.md section 0: M <- M o P / max(N, eps). An entry that should stay positive is kept at
// kPositiveFloor instead of exactly 0, where a multiplicative rule could never revive it.
// Every entry is updated on its own, so a factor of 4,096 entries or more is split by columns
// over the calling thread's OpenMP team: the same values for any thread count. The rule is
// bound by its divisions; two threads against one (Intel Xeon, medians of 4000 calls in one
// process): 1024 x 40 0.028 -> 0.016 ms, 1024 x 15 0.0097 -> 0.0060, 784 x 10 0.0049 ->
// 0.0035, and 165 x 15 (2,475 entries) 0.0019 -> 0.0020, so the bound sits above that.
inline constexpr Eigen::Index kParallelUpdateEntries = Eigen::Index(1) << 12;

template <class PExpr, class NExpr>
void multiplicativeUpdate(Matrix& M, const PExpr& P, const NExpr& N)
{
    if (M.size() < kParallelUpdateEntries || M.cols() < 2) {
        M = (M.array() * P.array() / N.array().max(kUpdateEps)).max(kPositiveFloor);
        return;
    }
    const Eigen::Index columns = M.cols();
#pragma omp parallel for schedule(static)
    for (Eigen::Index j = 0; j < columns; ++j)
        M.col(j) = (M.col(j).array() * P.col(j).array() / N.col(j).array().max(kUpdateEps))
                       .max(kPositiveFloor);
}

// Scales column j of `basisSide` by 1/s_j and column j of `coefficients` by s_j, so the product
// basisSide * coefficients^T is unchanged. Zero scales are left alone.
inline void rescaleColumns(Matrix& basisSide, Matrix& coefficients, const Vector& s)
{
    for (Eigen::Index j = 0; j < s.size(); ++j) {
        if (!(s(j) > 0) || !std::isfinite(double(s(j))))
            continue;
        basisSide.col(j) /= s(j);
        coefficients.col(j) *= s(j);
    }
}

// Refuses data with a negative entry, naming the first one (ARCHITECTURE.md, Errors).
inline void requireNonNegative(MatrixCRef X, const std::string& method, const std::string& hint)
{
    for (Eigen::Index j = 0; j < X.cols(); ++j)
        for (Eigen::Index i = 0; i < X.rows(); ++i)
            if (X(i, j) < 0)
                throw std::invalid_argument(method + " needs non-negative data; sample (column) "
                    + std::to_string(j + 1) + ", feature " + std::to_string(i + 1) + " has "
                    + std::to_string(double(X(i, j))) + hint);
}

// The largest |x| of X, or +Inf when X holds a NaN or an infinity: one pass over X's columns on
// all threads, vectorized (|x| <= max is false for NaN and +-Inf, which set the column's value
// to +Inf for good). Eigen's allFinite took 84-88 ms at 1024 x 70,000 on one thread, this pass
// 29 when it only tested (bench/RESULTS.md section 24; the maximum rides in the same loop, not
// measured again); each method's set-up starts with it (requireUsableData; PCA reads it only
// when its Gram matrix comes out non-finite or below the smallest scale).
inline Scalar largestMagnitude(MatrixCRef X)
{
    const Eigen::Index m = X.rows();
    const Eigen::Index n = X.cols();
    constexpr Scalar kLargest = std::numeric_limits<Scalar>::max();
    constexpr Scalar kInfinity = std::numeric_limits<Scalar>::infinity();
    Scalar largest = 0;
#pragma omp parallel for schedule(static) reduction(max : largest) if (double(m) * double(n) > 1e6)
    for (Eigen::Index j = 0; j < n; ++j) {
        const Scalar* column = X.data() + j * X.outerStride();
        Scalar columnLargest = 0;
        for (Eigen::Index i = 0; i < m; ++i) {
            const Scalar a = std::abs(column[i]);
            columnLargest = a <= kLargest ? std::max(columnLargest, a) : kInfinity;
        }
        largest = std::max(largest, columnLargest);
    }
    return largest;
}

// Whether every value of X is finite (largestMagnitude's pass).
inline bool allFiniteParallel(MatrixCRef X)
{
    return largestMagnitude(X) <= std::numeric_limits<Scalar>::max();
}

// Refuses NaN/Inf in the data, naming the first.
inline void requireFinite(MatrixCRef X)
{
    if (allFiniteParallel(X))
        return;
    for (Eigen::Index j = 0; j < X.cols(); ++j)
        for (Eigen::Index i = 0; i < X.rows(); ++i)
            if (!std::isfinite(double(X(i, j))))
                throw std::invalid_argument("the data has a non-finite value at sample "
                    + std::to_string(j + 1) + ", feature " + std::to_string(i + 1));
}

// The smallest largest |x| data may have: below it every square, and every product of the
// factors that fit such data, falls under numeric_limits<Scalar>::min() / epsilon, where
// underflow eats its digits (the denormals) until the objective comes out 0. sqrt(min / eps):
// 1.0e-146 in double, 3.1e-16 in float.
inline double smallestDataScale()
{
    return std::sqrt(double(std::numeric_limits<Scalar>::min())
        / double(std::numeric_limits<Scalar>::epsilon()));
}

// "1.5e-310": a value of any scale for a message.
inline std::string scientific(double value)
{
    char text[32];
    std::snprintf(text, sizeof text, "%.3g", value);
    return text;
}

// Why a factorization cannot start from data whose largest |x| is `largest` (finite): all
// zeros, or below smallestDataScale(). Empty when it can.
inline std::string dataScaleProblem(double largest)
{
    if (largest == 0)
        return "the data is all zeros: there is nothing to factorize";
    if (largest < smallestDataScale())
        return "the data's values are too small to compute with: the largest is "
            + scientific(largest) + ", below " + scientific(smallestDataScale())
            + ", where their squares and products underflow and the objective comes out 0; "
              "scale the data up (to 0..1, for one)";
    return {};
}

// Refuses data no method can work on (ARCHITECTURE.md, Errors): a NaN or an infinity (naming
// the first), all zeros, or values whose squares underflow. One pass over X; every method's
// set-up starts with it.
//
// Distributed (core/collectives.h), every rank decides from the largest |x| of the whole X, so
// that all decide alike: one rank's columns may be all zeros, and another's hold the infinity.
inline void requireUsableData(MatrixCRef X)
{
    Scalar largest = largestMagnitude(X);
    const SampleDistribution d = currentDistribution();
    if (d.active()) {
        bool finite = true;
        Scalar everyRank = 0;
        for (const double v : valuePerRank(*d.comm, double(largest))) {
            finite = finite && v <= double(std::numeric_limits<Scalar>::max());
            everyRank = std::max(everyRank, Scalar(v));
        }
        if (!finite && largest <= std::numeric_limits<Scalar>::max())
            throw std::invalid_argument("the data has a value that is not finite (in another "
                                        "rank's columns)");
        largest = everyRank;
    }
    if (!(largest <= std::numeric_limits<Scalar>::max()))
        requireFinite(X);
    if (X.size() == 0 && !d.active())
        return;
    if (const std::string problem = dataScaleProblem(double(largest)); !problem.empty())
        throw std::invalid_argument(problem);
}

// rank must be in [1, n]: W and V have n rows, and k > m is allowed (overcomplete bases,
// METHODS.md section 7).
inline void requireRank(int rank, Eigen::Index samples)
{
    if (rank < 1)
        throw std::invalid_argument("rank must be at least 1, got " + std::to_string(rank));
    if (rank > samples)
        throw std::invalid_argument("rank " + std::to_string(rank)
            + " exceeds the number of samples n = " + std::to_string(samples));
}

} // namespace facet
