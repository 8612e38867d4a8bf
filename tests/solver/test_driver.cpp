// SPDX-License-Identifier: GPL-3.0-or-later
// The driver's rules (METHODS.md section 0) on a scripted method whose objective is known.
#include "core/driver.h"

#include "test_printers.h"

#include <QtTest>

#include <cmath>

using namespace facet;

namespace {

// A method whose objective follows a given sequence; its "factor" is the step count.
class ScriptedMethod final : public Method {
public:
    explicit ScriptedMethod(std::function<double(int step, double start)> curve, bool monotone)
        : m_curve(std::move(curve))
        , m_monotone(monotone)
    {
    }
    bool monotone() const override { return m_monotone; }
    std::string_view name() const override { return "scripted"; }
    void initialize(Rng& rng) override
    {
        m_start = 1.0 + rng.uniform();
        m_state = Matrix::Constant(1, 1, 0);
    }
    void step() override { m_state(0, 0) += 1; }
    double objective() const override { return m_curve(int(m_state(0, 0)), m_start); }
    UpdateTerms updateTerms(int) const override { return {}; }
    std::vector<Matrix> state() const override { return { m_state }; }
    void restore(const std::vector<Matrix>& s) override { m_state = s.at(0); }
    void exportTo(Factorization& out) const override { out.V = m_state; }

private:
    std::function<double(int, double)> m_curve;
    bool m_monotone;
    double m_start = 0;
    Matrix m_state;
};

MethodFactory scripted(std::function<double(int, double)> curve, bool monotone = true)
{
    return [curve, monotone] { return std::make_unique<ScriptedMethod>(curve, monotone); };
}

} // namespace

class TestDriver : public QObject {
    Q_OBJECT
private slots:
    void stopsAtMaxIterations()
    {
        DriverOptions o;
        o.maxIter = 25;
        o.tol = 0;
        const Factorization f = solve(scripted([](int t, double) { return 100.0 / t; }), o);
        QCOMPARE(f.iterations, 25);
        QCOMPARE(f.stopReason, StopReason::MaxIterations);
        QVERIFY(f.stillDecreasing); // still falling faster than tol when cut off
    }
    void convergesOnFlatCurveAfterMinIter()
    {
        DriverOptions o;
        o.maxIter = 300;
        o.minIter = 30;
        o.tol = 1e-5;
        // Flat from the start: the window test would pass at t = 11, but minIter holds it to 30.
        const Factorization f = solve(scripted([](int, double) { return 5.0; }), o);
        QCOMPARE(f.stopReason, StopReason::Converged);
        QCOMPARE(f.iterations, 30);
    }
    void convergenceUsesTenIterationWindow()
    {
        DriverOptions o;
        o.maxIter = 1000;
        o.minIter = 0;
        o.tol = 1e-3;
        // O(t) = 1 + 1/t: (O[t-10] - O[t]) / O[t] ~ 10 / t^2 < 1e-3 first at t = 100.
        const Factorization f = solve(scripted([](int t, double) { return 1.0 + 1.0 / t; }), o);
        QCOMPARE(f.stopReason, StopReason::Converged);
        const int t = f.iterations;
        const double rel = ((1.0 + 1.0 / (t - 10)) - (1.0 + 1.0 / t)) / (1.0 + 1.0 / t);
        const double relBefore
            = ((1.0 + 1.0 / (t - 11)) - (1.0 + 1.0 / (t - 1))) / (1.0 + 1.0 / (t - 1));
        QVERIFY(rel < 1e-3);
        QVERIFY(relBefore >= 1e-3);
    }
    // A rising objective ends a monotone method's run at once (a rise there is rounding at the
    // end), but not a method whose steps may raise it (LCF's normalize-each): that one stops when
    // the objective stands still. O(t) = 2 - 1/t rises by ~10 / t^2 over the window.
    void risingObjectiveStopsOnlyMonotoneMethods()
    {
        DriverOptions o;
        o.maxIter = 1000;
        o.minIter = 30;
        o.tol = 1e-3;
        const auto rising = [](int t, double) { return 2.0 - 1.0 / t; };
        const Factorization monotone = solve(scripted(rising), o);
        QCOMPARE(monotone.stopReason, StopReason::Converged);
        QCOMPARE(monotone.iterations, 30);
        const Factorization variant = solve(scripted(rising, false), o);
        QCOMPARE(variant.stopReason, StopReason::Converged);
        const int t = variant.iterations;
        QVERIFY2(t > 60, qPrintable(QString::number(t))); // ~10 / t^2 / 2 < 1e-3 from t ~ 71
        QVERIFY((1.0 / (t - 10) - 1.0 / t) / (2.0 - 1.0 / t) < 1e-3);
        QVERIFY((1.0 / (t - 11) - 1.0 / (t - 1)) / (2.0 - 1.0 / (t - 1)) >= 1e-3);
    }
    void stillDecreasingIsReported()
    {
        DriverOptions o;
        o.maxIter = 40;
        o.tol = 1e-5;
        const Factorization f = solve(scripted([](int t, double) { return 100.0 / t; }), o);
        QCOMPARE(f.stopReason, StopReason::MaxIterations);
        QVERIFY(f.stillDecreasing);
    }
    void presetStopGivesCancelled()
    {
        std::stop_source source;
        source.request_stop();
        SolveControl control;
        control.stop = source.get_token();
        const Factorization f = solve(scripted([](int t, double) { return 1.0 / t; }), {}, control);
        QCOMPARE(f.stopReason, StopReason::Cancelled);
        QCOMPARE(f.iterations, 0);
        QVERIFY(f.V.allFinite());
    }
    void cancelFromCallback()
    {
        std::stop_source source;
        SolveControl control;
        control.stop = source.get_token();
        int calls = 0;
        control.onIteration = [&](const IterationReport& r) {
            ++calls;
            QCOMPARE(r.iteration, calls);
            if (r.iteration == 7)
                source.request_stop();
        };
        DriverOptions o;
        o.tol = 0;
        const Factorization f = solve(scripted([](int t, double) { return 1.0 / t; }), o, control);
        QCOMPARE(f.stopReason, StopReason::Cancelled);
        QCOMPARE(f.iterations, 7);
        QCOMPARE(f.V(0, 0), 7.0); // consistent: the factors of the last finished iteration
    }
    void nonFiniteKeepsLastFiniteFactors()
    {
        DriverOptions o;
        o.tol = 0;
        const Factorization f = solve(scripted([](int t, double) {
            return t < 5 ? 10.0 - t : std::numeric_limits<double>::quiet_NaN();
        }),
            o);
        QCOMPARE(f.stopReason, StopReason::NonFinite);
        QCOMPARE(f.iterations, 4);
        QCOMPARE(f.V(0, 0), 4.0);
    }
    void replicatesKeepLowestObjective()
    {
        // Objective = start value (drawn from the replicate's seed) / t: the lowest start wins.
        DriverOptions o;
        o.replicates = 6;
        o.minIter = 5;
        o.maxIter = 20;
        o.tol = 0;
        o.seed = 99;
        const Factorization f = solve(scripted([](int t, double s) { return s / t; }), o);
        double bestStart = 10;
        int bestIndex = -1;
        for (int r = 0; r < 6; ++r) {
            Rng rng(deriveSeed(99, std::uint64_t(r)));
            const double s = 1.0 + rng.uniform();
            if (s < bestStart) {
                bestStart = s;
                bestIndex = r;
            }
        }
        QCOMPARE(f.replicate, bestIndex);
        QCOMPARE(f.iterations, 20);
        QCOMPARE(f.history.back(), bestStart / 20);
    }
    void continuedRunCountsOn()
    {
        // 20 iterations, then a run from their factors and history, is the uninterrupted run:
        // the same history, the same convergence stop, the reports numbered after the 20.
        const auto curve = scripted([](int t, double s) { return s + 1.0 / t; });
        DriverOptions o;
        o.tol = 1e-4;
        o.seed = 5;
        const Factorization whole = solve(curve, o);
        QCOMPARE(whole.stopReason, StopReason::Converged);
        QVERIFY(whole.iterations > 40);
        DriverOptions first = o;
        first.maxIter = 20;
        const Factorization part = solve(curve, first);
        QCOMPARE(part.iterations, 20);

        DriverOptions rest = o;
        rest.start = std::make_shared<const std::vector<Matrix>>(std::vector<Matrix> { part.V });
        rest.startHistory = part.history;
        std::vector<int> numbers;
        SolveControl control;
        control.onIteration = [&](const IterationReport& r) { numbers.push_back(r.iteration); };
        const Factorization continued = solve(curve, rest, control);
        QCOMPARE(continued.history, whole.history);
        QCOMPARE(continued.iterations, whole.iterations);
        QCOMPARE(continued.stopReason, StopReason::Converged);
        QVERIFY(continued.segmentStarts.empty());
        QCOMPARE(numbers.front(), 21);
        QCOMPARE(numbers.back(), whole.iterations);

        // maxIter counts the new iterations.
        rest.maxIter = 5;
        const Factorization five = solve(curve, rest);
        QCOMPARE(five.iterations, 25);
        QCOMPARE(five.stopReason, StopReason::MaxIterations);
    }
    void continuedRunFromAnotherObjectiveStartsASegment()
    {
        // A flat curve at 1 after a history that ended at 5: the jump is not progress, so the
        // window restarts at the first new iteration (index 20) and converges 11 later, where
        // a history that ends at 1 converges at once.
        const auto flat = scripted([](int, double) { return 1.0; });
        DriverOptions o;
        o.minIter = 0;
        o.tol = 1e-9;
        o.start = std::make_shared<const std::vector<Matrix>>(
            std::vector<Matrix> { Matrix::Constant(1, 1, 20) });
        o.startHistory.assign(20, 1.0);
        Factorization f = solve(flat, o);
        QCOMPARE(f.iterations, 21);
        QVERIFY(f.segmentStarts.empty());
        o.startHistory.assign(20, 5.0);
        f = solve(flat, o);
        QCOMPARE(f.segmentStarts, std::vector<int> { 20 });
        QCOMPARE(f.iterations, 31);
        QCOMPARE(f.stopReason, StopReason::Converged);
    }
    void badOptionsThrow()
    {
        DriverOptions o;
        o.maxIter = 0;
        QVERIFY_THROWS_EXCEPTION(
            std::invalid_argument, solve(scripted([](int, double) { return 1.0; }), o));
        o = {};
        o.replicates = 0;
        QVERIFY_THROWS_EXCEPTION(
            std::invalid_argument, solve(scripted([](int, double) { return 1.0; }), o));
        o = {};
        o.tol = std::nan("");
        QVERIFY_THROWS_EXCEPTION(
            std::invalid_argument, solve(scripted([](int, double) { return 1.0; }), o));
        o = {};
        o.startHistory = { 1.0 }; // a history without the factors it ended at
        QVERIFY_THROWS_EXCEPTION(
            std::invalid_argument, solve(scripted([](int, double) { return 1.0; }), o));
        o.start = std::make_shared<const std::vector<Matrix>>(
            std::vector<Matrix> { Matrix::Constant(1, 1, 1) });
        o.startHistory = { 1.0, std::numeric_limits<double>::infinity() };
        QVERIFY_THROWS_EXCEPTION(
            std::invalid_argument, solve(scripted([](int, double) { return 1.0; }), o));
    }
};

#include "facet_test.h"
FACET_TEST_APPLESS_MAIN(TestDriver)
#include "test_driver.moc"
