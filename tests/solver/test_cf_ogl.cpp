// SPDX-License-Identifier: GPL-3.0-or-later
// CF_OGL (METHODS.md section 3): feasibility of Q after every step, the monotone objective within
// each beta segment, the component clustering on separated blobs, the update terms against the
// objective's gradient, reproducibility and option validation.
#include "core/driver.h"
#include "graph/adaptive_neighbors.h"
#include "methods/cf_ogl.h"
#include "methods/registry.h"

#include "test_printers.h"

#include <QtTest>

#include <algorithm>
#include <cmath>
#include <map>
#include <numbers>
#include <set>

using namespace facet;

namespace {

using Index = Eigen::Index;

// c Gaussian blobs of `size` points in m dimensions, non-negative; `spread` is the noise
// standard deviation around centres 4 apart. Columns are L2-normalized, the default for the CF
// family (METHODS.md 8); at raw scale |v_i - v_j|^2 dwarfs g_ij and the Q step with lambda = 1
// cuts Q into more than c pieces.
Matrix oglBlobs(int c, int size, int m, double spread, std::uint64_t seed, std::vector<int>* labels)
{
    Rng rng(seed);
    Matrix X(m, c * size);
    for (int k = 0; k < c; ++k)
        for (int s = 0; s < size; ++s) {
            const Index j = k * size + s;
            for (Index f = 0; f < m; ++f) {
                const double u1 = 1 - rng.uniform();
                const double u2 = rng.uniform();
                const double z = std::sqrt(-2 * std::log(u1)) * std::cos(2 * std::numbers::pi * u2);
                X(f, j) = Scalar(std::max(0.0, 1.0 + (f % c == k ? 4.0 : 0.0) + spread * z));
            }
            if (labels)
                labels->push_back(k);
        }
    X.colwise().normalize();
    return X;
}

struct Problem {
    Matrix X;
    std::vector<int> labels;
    std::shared_ptr<const Gram> gram;
    std::shared_ptr<const Graph> G;
};

Problem makeProblem(Matrix X, int p, std::vector<int> labels = {})
{
    Problem problem { std::move(X), std::move(labels), nullptr, nullptr };
    problem.gram = Gram::linear(problem.X);
    problem.G = std::make_shared<const Graph>(adaptiveNeighborGraph(problem.X, p));
    return problem;
}

CfOglOptions oglOptions(int rank, int c)
{
    CfOglOptions o;
    o.rank = rank;
    o.clusters = c;
    return o;
}

// Every row of Q on the simplex, inside G's support, no self-loop.
void verifyFeasible(const CfOgl& method, const Graph& G)
{
    const SparseMatrix Q = method.Q();
    const Matrix dense = Matrix(Q);
    const Matrix g = Matrix(G.S);
    QVERIFY((dense.array() >= 0).all());
    QVERIFY(dense.diagonal().cwiseAbs().maxCoeff() == 0);
    QVERIFY2((dense.rowwise().sum().array() - 1).abs().maxCoeff() < 1e-12,
        "a row of Q does not sum to 1");
    QVERIFY2(((dense.array() > 0) && (g.array() <= 0)).count() == 0,
        "Q has weight outside the support of G");
}

// The labels of two partitions agree up to renaming.
bool samePartition(const std::vector<int>& a, const std::vector<int>& b)
{
    std::map<int, int> ab, ba;
    for (std::size_t i = 0; i < a.size(); ++i) {
        if (ab.emplace(a[i], b[i]).first->second != b[i])
            return false;
        if (ba.emplace(b[i], a[i]).first->second != a[i])
            return false;
    }
    return true;
}

// Runs `steps` outer iterations by hand; checks feasibility after each and the monotone rule
// within each beta segment. Returns the number of segments started after the first value.
int runChecked(CfOgl& method, const Graph& G, int steps, std::uint64_t seed, bool monotone = true)
{
    Rng rng(seed);
    method.initialize(rng);
    verifyFeasible(method, G);
    double previous = 0;
    int segments = 0;
    for (int t = 0; t < steps; ++t) {
        method.step();
        const bool newSegment = method.startedNewSegment();
        const double value = method.objective();
        verifyFeasible(method, G);
        if (QTest::currentTestFailed())
            return segments;
        if (t > 0 && newSegment)
            ++segments;
        if (monotone && t > 0 && !newSegment && !(value <= previous * (1 + 1e-9))) {
            QTest::qFail(qPrintable(QStringLiteral("iteration %1: %2 -> %3 (beta %4)")
                                        .arg(t + 1)
                                        .arg(previous, 0, 'g', 17)
                                        .arg(value, 0, 'g', 17)
                                        .arg(method.beta())),
                __FILE__, __LINE__);
            return segments;
        }
        previous = value;
    }
    return segments;
}

} // namespace

class TestCfOgl : public QObject {
    Q_OBJECT
private slots:
    void monotoneWithinSegments_data()
    {
        QTest::addColumn<double>("spread"); // blob noise; 0: uniform noise, no clusters
        QTest::addColumn<int>("p");
        QTest::addColumn<double>("lambda");
        QTest::addColumn<double>("mu");
        QTest::addColumn<int>("denseLimit");
        QTest::addColumn<bool>("expectSegments");
        QTest::newRow("blobs p=5") << 0.25 << 5 << 1.0 << 1.0 << 2000 << false;
        QTest::newRow("blobs p=40 (connected G0)") << 0.25 << 40 << 1.0 << 1.0 << 2000 << false;
        QTest::newRow("overlapping p=40") << 2.0 << 40 << 1.0 << 1.0 << 2000 << true;
        QTest::newRow("overlapping p=40 sparse eigensolver")
            << 2.0 << 40 << 1.0 << 1.0 << 0 << true;
        QTest::newRow("overlapping lambda=10 mu=0.5") << 1.5 << 8 << 10.0 << 0.5 << 2000 << false;
        QTest::newRow("overlapping lambda=0") << 1.5 << 8 << 0.0 << 1.0 << 2000 << false;
        QTest::newRow("noise p=5") << 0.0 << 5 << 1.0 << 1.0 << 2000 << false;
        QTest::newRow("noise p=5 sparse eigensolver") << 0.0 << 5 << 1.0 << 1.0 << 0 << false;
        // Three components: the sparse path's grouped factorization, one eigenpair to find.
        QTest::newRow("blobs p=5 sparse eigensolver") << 0.25 << 5 << 1.0 << 1.0 << 0 << false;
        // The same two on the filtered subspace iteration (denseLimit -1 below).
        QTest::newRow("noise p=5 filtered eigensolver") << 0.0 << 5 << 1.0 << 1.0 << -1 << false;
        QTest::newRow("blobs p=5 filtered eigensolver") << 0.25 << 5 << 1.0 << 1.0 << -1 << false;
    }
    void monotoneWithinSegments()
    {
        QFETCH(double, spread);
        QFETCH(int, p);
        QFETCH(double, lambda);
        QFETCH(double, mu);
        QFETCH(int, denseLimit);
        QFETCH(bool, expectSegments);
        Rng rng(5);
        Matrix X = spread == 0 ? Matrix(rng.uniformMatrix(10, 90))
                               : oglBlobs(3, 30, 10, spread, 7, nullptr);
        const Problem problem = makeProblem(std::move(X), p);
        CfOglOptions o = oglOptions(3, 3);
        o.lambda = lambda;
        o.mu = mu;
        o.denseEigenLimit = std::max(denseLimit, 0);
        if (denseLimit < 0)
            o.filteredEigenFrom = 0;
        CfOgl method(problem.X, problem.gram, problem.G, o);
        const int segments = runChecked(method, *problem.G, 40, 11);
        if (expectSegments)
            QVERIFY(segments > 0); // the beta rule was exercised
    }
    void componentsMatchBlobs_data()
    {
        QTest::addColumn<int>("p");
        QTest::newRow("p=5") << 5;
        QTest::newRow("p=40: G0 joins the blobs, beta tuning splits them") << 40;
    }
    void componentsMatchBlobs()
    {
        QFETCH(int, p);
        std::vector<int> labels;
        Matrix X = oglBlobs(3, 30, 10, 0.25, 3, &labels);
        const Problem problem = makeProblem(std::move(X), p, labels);
        CfOgl method(problem.X, problem.gram, problem.G, oglOptions(3, 3));
        runChecked(method, *problem.G, 30, 2);
        const Components components = method.components();
        QCOMPARE(components.count, 3);
        QVERIFY(samePartition(components.labels, problem.labels));
        // Exactly c zero eigenvalues, and the notes say so.
        QVERIFY((method.spectrum().head(3).array() < kZeroEigenvalue).all());
        QVERIFY(method.spectrum()(3) >= kZeroEigenvalue);
        const std::vector<std::string> notes = method.notes();
        QVERIFY(std::any_of(notes.begin(), notes.end(), [](const std::string& s) {
            return s.find("exactly c = 3 connected components") != std::string::npos;
        }));
    }
    void driverRecordsSegments()
    {
        // G0 connects overlapping blobs: beta must grow until Q splits into c pieces, and each
        // change is recorded as a segment start that the driver's history honours.
        const Problem problem = makeProblem(oglBlobs(3, 30, 10, 2.0, 3, nullptr), 40);
        DriverOptions d;
        d.maxIter = 30;
        d.tol = 0;
        d.seed = 8;
        const Factorization f = solve(
            [&] {
                return std::make_unique<CfOgl>(
                    problem.X, problem.gram, problem.G, oglOptions(3, 3));
            },
            d);
        QCOMPARE(f.iterations, 30);
        QVERIFY(!f.segmentStarts.empty());
        QVERIFY(f.segmentStarts.front() > 0); // no marker on the first value
        for (std::size_t t = 1; t < f.history.size(); ++t)
            if (std::find(f.segmentStarts.begin(), f.segmentStarts.end(), int(t))
                == f.segmentStarts.end())
                QVERIFY(f.history[t] <= f.history[t - 1] * (1 + 1e-9));
        QCOMPARE(f.W.rows(), Index(90));
        QCOMPARE(f.basis.rows(), Index(10));
        QVERIFY((f.basis - problem.X * f.W).cwiseAbs().maxCoeff() < 1e-12);
        QVERIFY(std::any_of(f.log.begin(), f.log.end(), [](const std::string& s) {
            return s.find("exactly c = 3 connected components") != std::string::npos;
        }));
        QVERIFY(std::any_of(f.log.begin(), f.log.end(),
            [](const std::string& s) { return s.find("beta: 0.1 at start") == 0; }));
    }
    void paperVariantSaysNotMonotone()
    {
        const Problem problem = makeProblem(oglBlobs(3, 30, 10, 1.5, 7, nullptr), 8);
        CfOglOptions o = oglOptions(3, 3);
        o.paperVariant = true;
        CfOgl method(problem.X, problem.gram, problem.G, o);
        runChecked(method, *problem.G, 10, 4, false); // still feasible
        const std::vector<std::string> notes = method.notes();
        QVERIFY(std::any_of(notes.begin(), notes.end(),
            [](const std::string& s) { return s.find("not monotone") != std::string::npos; }));
    }
    void updateTermsMatchGradient()
    {
        // Central differences of objective() alone against 2 mu (N - P) of the LCCF rules.
        const Problem problem = makeProblem(oglBlobs(2, 6, 5, 1.0, 1, nullptr), 3);
        CfOglOptions o = oglOptions(3, 2);
        o.lambda = 0.7;
        o.mu = 1.5;
        CfOgl method(problem.X, problem.gram, problem.G, o);
        Rng rng(3);
        method.initialize(rng);
        method.step(); // a Q that is not just the projection of G
        const std::vector<Matrix> point = method.state();
        for (int factor = 0; factor < 2; ++factor) {
            method.restore(point);
            const UpdateTerms t = method.updateTerms(factor);
            const Matrix expected = 2 * o.mu * (t.denominator - t.numerator);
            double worst = 0;
            for (Index i = 0; i < expected.size(); ++i) {
                std::vector<Matrix> s = point;
                const double h = 1e-6 * std::max(1.0, std::abs(double(s[factor].data()[i])));
                s[factor].data()[i] += h;
                method.restore(s);
                const double up = method.objective();
                s[factor].data()[i] -= 2 * h;
                method.restore(s);
                const double down = method.objective();
                worst = std::max(worst, std::abs((up - down) / (2 * h) - expected.data()[i]));
            }
            QVERIFY2(worst < 1e-5 * std::max(1.0, double(expected.cwiseAbs().maxCoeff())),
                qPrintable(QStringLiteral("factor %1: deviation %2").arg(factor).arg(worst)));
        }
        QVERIFY(method.updateTerms(2).numerator.size() == 0);
    }
    // The sparse eigensolver starts each solve from the previous one's eigenvectors; a new start
    // of the same object must not see the last run's, so a reused object repeats a fresh one's
    // run bit for bit.
    void reusedObjectRepeatsFreshRun()
    {
        Matrix X = oglBlobs(3, 40, 10, 2.0, 7, nullptr);
        const Problem problem = makeProblem(std::move(X), 8);
        CfOglOptions o = oglOptions(3, 3);
        o.denseEigenLimit = 0;
        CfOgl reused(problem.X, problem.gram, problem.G, o);
        CfOgl fresh(problem.X, problem.gram, problem.G, o);
        runChecked(reused, *problem.G, 6, 4);
        runChecked(reused, *problem.G, 6, 12);
        runChecked(fresh, *problem.G, 6, 12);
        QVERIFY(reused.V() == fresh.V());
        QVERIFY(reused.F() == fresh.F());
        QCOMPARE(reused.objective(), fresh.objective());
        // A restored state continues like the run it came from.
        const std::vector<Matrix> saved = fresh.state();
        fresh.step();
        const Matrix next = fresh.V();
        runChecked(reused, *problem.G, 3, 99); // another run, so its warm start differs
        reused.restore(saved);
        reused.step();
        QVERIFY((reused.V() - next).cwiseAbs().maxCoeff() <= 1e-9 * next.cwiseAbs().maxCoeff());
    }
    // A warm start from exported W, V (DriverOptions::start) is CF_OGL started from them: the
    // driver's run equals one made with initializeFrom(W, V) and stepped by hand, Q beginning
    // again at Q0; with the run's history given, the new part is a segment of its own.
    void warmStartIsInitializeFrom()
    {
        const Problem problem = makeProblem(oglBlobs(3, 30, 10, 2.0, 5, nullptr), 8);
        const auto make = [&] {
            return std::make_unique<CfOgl>(problem.X, problem.gram, problem.G, oglOptions(3, 3));
        };
        DriverOptions d;
        d.maxIter = 6;
        d.tol = 0;
        d.seed = 4;
        const Factorization first = solve(make, d);
        const std::vector<Matrix> factors { first.W, first.V };

        CfOgl byHand(problem.X, problem.gram, problem.G, oglOptions(3, 3));
        byHand.initializeFrom(first.W, first.V);
        std::vector<double> expected;
        for (int t = 0; t < 5; ++t) {
            byHand.step();
            expected.push_back(byHand.objective());
        }
        d.maxIter = 5;
        d.start = std::make_shared<const std::vector<Matrix>>(factors);
        d.startHistory = first.history;
        const Factorization continued = solve(make, d);
        QCOMPARE(continued.iterations, 11);
        QCOMPARE(continued.segmentStarts.front(), 6);
        for (int t = 0; t < 5; ++t) {
            const double got = continued.history[std::size_t(6 + t)];
            QVERIFY2(std::abs(got - expected[std::size_t(t)]) <= 1e-8 * expected[std::size_t(t)],
                qPrintable(QStringLiteral("iteration %1: %2 against %3")
                               .arg(t + 1)
                               .arg(got, 0, 'g', 17)
                               .arg(expected[std::size_t(t)], 0, 'g', 17)));
        }
        // Factors of another shape are left to the driver, which names them.
        d.start = std::make_shared<const std::vector<Matrix>>(
            std::vector<Matrix> { first.W, Matrix(first.V.leftCols(2)) });
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, solve(make, d));
    }
    // Both sparse eigensolvers find the same spectrum, so a run takes the same course on either:
    // the objective at every outer iteration within 1e-9, the same beta segments, the same
    // components at the end (uniform noise: beta must split the graph; blobs: it splits early).
    void filteredAndShiftInvertRunsAgree_data()
    {
        QTest::addColumn<double>("spread");
        QTest::newRow("noise") << 0.0;
        QTest::newRow("overlapping blobs") << 2.0;
    }
    void filteredAndShiftInvertRunsAgree()
    {
        QFETCH(double, spread);
        Rng rng(31);
        Matrix X = spread == 0 ? Matrix(rng.uniformMatrix(10, 150))
                               : oglBlobs(3, 50, 10, spread, 9, nullptr);
        const Problem problem = makeProblem(std::move(X), 8);
        CfOglOptions o = oglOptions(3, 3);
        o.denseEigenLimit = 0;
        CfOgl shiftInvert(problem.X, problem.gram, problem.G, o);
        o.filteredEigenFrom = 0;
        CfOgl filtered(problem.X, problem.gram, problem.G, o);
        Rng a(6), b(6);
        shiftInvert.initialize(a);
        filtered.initialize(b);
        int segmentsA = 0, segmentsB = 0;
        for (int t = 0; t < 20; ++t) {
            shiftInvert.step();
            filtered.step();
            segmentsA += shiftInvert.startedNewSegment() ? 1 : 0;
            segmentsB += filtered.startedNewSegment() ? 1 : 0;
            const double x = shiftInvert.objective(), y = filtered.objective();
            QVERIFY2(std::abs(x - y) <= 1e-9 * std::abs(x),
                qPrintable(QStringLiteral("iteration %1: %2 against %3")
                               .arg(t + 1)
                               .arg(x, 0, 'g', 17)
                               .arg(y, 0, 'g', 17)));
            QCOMPARE(filtered.beta(), shiftInvert.beta());
        }
        QCOMPARE(segmentsB, segmentsA);
        QVERIFY(samePartition(filtered.components().labels, shiftInvert.components().labels));
        QCOMPARE(filtered.components().count, shiftInvert.components().count);
    }
    void sameSeedSameFactors()
    {
        Rng rng(2);
        const Matrix X = rng.uniformMatrix(10, 60);
        MethodOptions o;
        o.rank = 3;
        DriverOptions d;
        d.maxIter = 15;
        d.minIter = 5;
        d.replicates = 2;
        d.seed = 99;
        const Factorization a = solve(makeMethodFactory("cf-ogl", X, o), d);
        const Factorization b = solve(makeMethodFactory("cf-ogl", X, o), d);
        QVERIFY(a.W == b.W);
        QVERIFY(a.V == b.V);
        QCOMPARE(a.history, b.history);
        QCOMPARE(a.segmentStarts, b.segmentStarts);
        d.seed = 100;
        QVERIFY(solve(makeMethodFactory("cf-ogl", X, o), d).V != a.V);
    }
    void cancelledBeforeStart()
    {
        Rng rng(2);
        const Matrix X = rng.uniformMatrix(6, 30);
        MethodOptions o;
        o.rank = 2;
        std::stop_source source;
        source.request_stop();
        SolveControl control;
        control.stop = source.get_token();
        const Factorization f = solve(makeMethodFactory("cf-ogl", X, o), DriverOptions {}, control);
        QCOMPARE(f.stopReason, StopReason::Cancelled);
        QVERIFY(f.V.allFinite() && f.W.allFinite());
    }
    void badOptionsThrow_data()
    {
        QTest::addColumn<QString>("field");
        QTest::addColumn<double>("value");
        QTest::newRow("beta 0") << "beta" << 0.0;
        QTest::newRow("mu -1") << "mu" << -1.0;
        QTest::newRow("lambda -0.5") << "lambda" << -0.5;
        QTest::newRow("p 0") << "p" << 0.0;
        QTest::newRow("p n") << "p" << 20.0;
        QTest::newRow("c n+1") << "clusters" << 21.0;
        QTest::newRow("c -1") << "clusters" << -1.0;
        QTest::newRow("outer 0") << "outerIterations" << 0.0;
        QTest::newRow("inner 0") << "innerSteps" << 0.0;
        QTest::newRow("rank 0") << "rank" << 0.0;
        QTest::newRow("negative data") << "negative" << 0.0;
    }
    void badOptionsThrow()
    {
        QFETCH(QString, field);
        QFETCH(double, value);
        Rng rng(4);
        Matrix X = rng.uniformMatrix(5, 20);
        MethodOptions o;
        o.rank = 2;
        if (field == u"beta")
            o.beta = value;
        else if (field == u"mu")
            o.mu = value;
        else if (field == u"lambda")
            o.lambda = value;
        else if (field == u"p")
            o.p = int(value);
        else if (field == u"clusters")
            o.clusters = int(value);
        else if (field == u"outerIterations")
            o.outerIterations = int(value);
        else if (field == u"innerSteps")
            o.innerSteps = int(value);
        else if (field == u"rank")
            o.rank = int(value);
        else
            X -= Matrix::Constant(5, 20, 0.5);
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, makeMethodFactory("cf-ogl", X, o));
    }
    void catalogEntry()
    {
        const MethodInfo* info = findMethod("cf-ogl");
        QVERIFY(info);
        QVERIFY(info->cfFamily);
        QVERIFY(!info->objective.empty());
    }
};

#include "facet_test.h"
FACET_TEST_APPLESS_MAIN(TestCfOgl)
#include "test_cf_ogl.moc"
