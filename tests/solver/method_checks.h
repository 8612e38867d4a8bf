// SPDX-License-Identifier: GPL-3.0-or-later
// Oracles shared by the method tests: a planted non-negative product, the monotone objective,
// and the finite-difference gradient against the update rule's terms.
#pragma once

#include "core/driver.h"
#include "core/method.h"
#include "core/random.h"

#include <QtTest>

#include <algorithm>
#include <cmath>
#include <memory>
#include <vector>

namespace facet::testing {

// A non-negative rank-r product plus uniform noise (m x n); the first r samples are the pure
// parts, so CF's bases can reach the planted cone.
inline Matrix plantedProduct(
    int m, int n, int r, double noise, std::uint64_t seed, Matrix* Utrue = nullptr)
{
    Rng rng(seed);
    const Matrix U = rng.uniformMatrix(m, r);
    Matrix V = rng.uniformMatrix(n, r);
    V.topRows(r).setIdentity();
    Matrix X = U * V.transpose();
    if (noise > 0)
        X += noise * rng.uniformMatrix(m, n);
    if (Utrue)
        *Utrue = U;
    return X;
}

// c tight blobs of `per` samples each in d dimensions, centres uniform in [0, 10)^d, spread
// 0.05: clusters any method should find. labels gets the blob of each column.
inline Matrix blobs(int d, int c, int per, std::vector<int>& labels, std::uint64_t seed)
{
    Rng rng(seed);
    Matrix X(d, c * per);
    labels.clear();
    for (int k = 0; k < c; ++k) {
        const Vector centre = 10.0 * rng.uniformMatrix(d, 1);
        for (int i = 0; i < per; ++i) {
            X.col(k * per + i) = centre + 0.05 * rng.uniformMatrix(d, 1);
            labels.push_back(k);
        }
    }
    return X;
}

// c clusters of n / c samples in m dimensions: non-negative centres plus uniform noise of 0.15;
// sample j belongs to cluster j % c (appended to `truth` when given).
inline Matrix clustered(
    Eigen::Index m, Eigen::Index n, int c, std::uint64_t seed, std::vector<int>* truth = nullptr)
{
    Rng rng(seed);
    const Matrix centres = rng.uniformMatrix(m, c);
    Matrix X = 0.15 * rng.uniformMatrix(m, n);
    for (Eigen::Index j = 0; j < n; ++j) {
        X.col(j) += centres.col(j % c);
        if (truth)
            truth->push_back(int(j % c));
    }
    return X;
}

// The columns of X shifted to mean zero: data whose K has negative entries.
inline Matrix centred(const Matrix& X)
{
    return X.colwise() - X.rowwise().mean();
}

// Empty when O[t+1] <= O[t] (1 + 1e-9) for every t, else what went wrong:
// QVERIFY2(error.isEmpty(), qPrintable(error)).
inline QString monotoneError(const std::vector<double>& history)
{
    if (history.empty())
        return QStringLiteral("empty history");
    for (std::size_t t = 1; t < history.size(); ++t) {
        if (!(history[t] <= history[t - 1] * (1 + 1e-9)))
            return QStringLiteral("objective rose at iteration %1: %2 -> %3")
                .arg(t + 1)
                .arg(history[t - 1], 0, 'g', 17)
                .arg(history[t], 0, 'g', 17);
    }
    return {};
}

// Fails the calling test unless O[t+1] <= O[t] (1 + 1e-9) for every t.
inline void verifyMonotone(const std::vector<double>& history)
{
    const QString error = monotoneError(history);
    QVERIFY2(error.isEmpty(), qPrintable(error));
}

// Exactly `iterations` iterations (no tolerance stop) from the given seed.
inline DriverOptions fixedIterations(int iterations, std::uint64_t seed = 0)
{
    DriverOptions d;
    d.maxIter = iterations;
    d.tol = 0;
    d.stationarityTol = 0; // neither stop rule: exactly `iterations` (hals measures stationarity)
    d.seed = seed;
    return d;
}

// Whether a line of the run's log contains `text`.
inline bool hasNote(const Factorization& f, const std::string& text)
{
    for (const std::string& line : f.log)
        if (line.find(text) != std::string::npos)
            return true;
    return false;
}

// ||a - b|| / ||b||.
// Largest violation of the KKT conditions of min O over F >= 0, relative to the largest
// gradient entry: with G = N - P (proportional to the gradient), |G| where F is above the floor,
// max(0, -G) where F sits at it.
inline double kktViolation(const Matrix& F, const UpdateTerms& t)
{
    const Matrix G = t.denominator - t.numerator;
    const double scale = std::max(double(t.numerator.cwiseAbs().maxCoeff()), 1e-300);
    const double active = 1e-9 * std::max(double(F.maxCoeff()), 1e-300);
    double worst = 0;
    for (Eigen::Index i = 0; i < F.size(); ++i) {
        const double g = double(G.data()[i]);
        worst = std::max(worst, double(F.data()[i]) > active ? std::abs(g) : std::max(0.0, -g));
    }
    return worst / scale;
}

inline double relativeDifference(const Matrix& a, const Matrix& b)
{
    return double((a - b).norm() / std::max(b.norm(), Scalar(1e-300)));
}

// Central differences of objective() in every entry of state()[factor] at the current point.
inline Matrix numericGradient(Method& method, int factor)
{
    const std::vector<Matrix> point = method.state();
    Matrix numeric(point[std::size_t(factor)].rows(), point[std::size_t(factor)].cols());
    for (Eigen::Index i = 0; i < numeric.size(); ++i) {
        std::vector<Matrix> s = point;
        Matrix& M = s[std::size_t(factor)];
        const double h = 1e-6 * std::max(1.0, std::abs(double(M.data()[i])));
        M.data()[i] += h;
        method.restore(s);
        const double up = method.objective();
        M.data()[i] -= 2 * h;
        method.restore(s);
        const double down = method.objective();
        numeric.data()[i] = (up - down) / (2 * h);
    }
    method.restore(point);
    return numeric;
}

// At the method's current point the gradient of O equals c (N - P) for every factor, with one
// constant c per factor, which must be `expectedC`. Empty when it holds, else what went wrong.
inline QString gradientError(Method& method, double expectedC)
{
    const std::vector<Matrix> point = method.state();
    for (int factor = 0; factor < int(point.size()); ++factor) {
        method.restore(point);
        const UpdateTerms t = method.updateTerms(factor);
        const Matrix expected = t.denominator - t.numerator;
        const Matrix numeric = numericGradient(method, factor);
        const double c = (numeric.array() * expected.array()).sum() / expected.squaredNorm();
        const double err = (numeric - c * expected).cwiseAbs().maxCoeff();
        const double scale = std::max(1.0, double(numeric.cwiseAbs().maxCoeff()));
        if (std::abs(c - expectedC) > 1e-4 || err > 1e-5 * scale)
            return QStringLiteral("factor %1: constant %2 (want %3), max deviation %4")
                .arg(factor)
                .arg(c)
                .arg(expectedC)
                .arg(err);
    }
    method.restore(point);
    return {};
}

} // namespace facet::testing
