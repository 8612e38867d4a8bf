// SPDX-License-Identifier: GPL-3.0-or-later
// The basis path of the 2-D demo (METHODS.md section 7): the traced solve reproduces the untraced
// run bit for bit, each frame is what a run stopped at that iteration returns, restarts and
// cancellation keep the frames consistent; and the demo's geometry helpers.
#include "core/random.h"
#include "experiment/basis_trace.h"
#include "metrics/cluster_alignment.h"

#include "test_printers.h"

#include <QtTest>

#include <cmath>
#include <numbers>

using namespace facet;

namespace {

// Three isotropic Gaussians in the positive quadrant, 40 points each (the demo's shape).
struct TraceBlobs {
    Matrix X;
    std::vector<int> labels;
    Eigen::MatrixXd centres;
};

TraceBlobs traceBlobs(std::uint64_t seed = 3)
{
    TraceBlobs b;
    b.centres.resize(2, 3);
    b.centres << 2.0, 7.0, 5.0, 7.0, 7.5, 2.0;
    Rng rng(seed);
    const auto normal = [&rng] {
        const double u = 1.0 - rng.uniform(), v = rng.uniform();
        return std::sqrt(-2.0 * std::log(u)) * std::cos(2.0 * std::numbers::pi * v);
    };
    b.X.resize(2, 120);
    for (int j = 0; j < 120; ++j) {
        const int c = j / 40;
        b.X(0, j) = Scalar(std::max(0.0, b.centres(0, c) + 0.8 * normal()));
        b.X(1, j) = Scalar(std::max(0.0, b.centres(1, c) + 0.8 * normal()));
        b.labels.push_back(c);
    }
    return b;
}

RunOptions demoOptions(const QString& method, int maxIter = 120)
{
    RunOptions o;
    o.method = method.toStdString();
    o.params.rank = 3;
    o.clusters = 3;
    o.driver.maxIter = maxIter;
    o.driver.seed = 11;
    o.cluster.replicates = 3;
    return o;
}

} // namespace

class TestBasisTrace : public QObject {
    Q_OBJECT
private slots:
    void reproducesTheRun_data();
    void reproducesTheRun();
    void frameIsTheRunStoppedThere_data();
    void frameIsTheRunStoppedThere();
    void everyKthIteration();
    void restartsKeepTheKeptStart();
    void cancelledBeforeTheFirstStep();
    void refusesWhatHasNoPath();
    void lcfBasesNearCentresNmfFar();
    void alignsClustersToClasses();
    void nearestCentre();
};

void TestBasisTrace::reproducesTheRun_data()
{
    QTest::addColumn<QString>("method");
    for (const char* method : { "nmf", "cf", "lcf", "lccf", "gnmf", "cf-ogl" })
        QTest::newRow(method) << QString::fromLatin1(method);
}

void TestBasisTrace::reproducesTheRun()
{
    QFETCH(QString, method);
    const TraceBlobs b = traceBlobs();
    const RunOptions options = demoOptions(method, method == u"cf-ogl" ? 15 : 120);
    const TracedRun run = runTraced(b.X, b.labels, options, 1);
    const Factorization& f = run.result.factorization;
    QVERIFY(f.iterations > 0);
    QCOMPARE(int(run.frames.size()), f.iterations + 1);
    for (int t = 0; t <= f.iterations; ++t)
        QCOMPARE(run.frames[std::size_t(t)].iteration, t);
    // Bit for bit: the recording wrapper did not disturb the trajectory.
    QVERIFY(run.frames.back().basis == f.basis);
    QCOMPARE(run.frames.front().basis.rows(), 2);
    QCOMPARE(run.frames.front().basis.cols(), 3);
}

void TestBasisTrace::frameIsTheRunStoppedThere_data()
{
    QTest::addColumn<QString>("method");
    QTest::addColumn<int>("stopAt");
    QTest::newRow("nmf 5") << QStringLiteral("nmf") << 5;
    QTest::newRow("cf 9") << QStringLiteral("cf") << 9;
    QTest::newRow("lcf 17") << QStringLiteral("lcf") << 17;
    QTest::newRow("cf-ogl 4") << QStringLiteral("cf-ogl") << 4;
}

void TestBasisTrace::frameIsTheRunStoppedThere()
{
    QFETCH(QString, method);
    QFETCH(int, stopAt);
    const TraceBlobs b = traceBlobs();
    RunOptions options = demoOptions(method, 40);
    options.driver.tol = 0; // no convergence stop: every run lasts maxIter (hals-ex may settle to
    options.driver.minIter = 40; // rounding before, where tol 0's window sees a rise)
    const std::vector<BasisFrame> frames = traceBasis(b.X, options, 1);
    QCOMPARE(int(frames.size()), 41);

    RunOptions shorter = options;
    shorter.driver.maxIter = stopAt;
    const RunResult stopped = runAndCluster(b.X, b.labels, shorter);
    QCOMPARE(stopped.factorization.iterations, stopAt);
    const Matrix& frame = frames[std::size_t(stopAt)].basis;
    QVERIFY2((frame - stopped.factorization.basis).norm()
            <= 1e-12 * (1 + stopped.factorization.basis.norm()),
        qPrintable(QStringLiteral("frame %1 differs from the run stopped there").arg(stopAt)));
}

void TestBasisTrace::everyKthIteration()
{
    const TraceBlobs b = traceBlobs();
    RunOptions options = demoOptions(QStringLiteral("lcf"), 50);
    options.driver.tol = 0;
    const std::vector<BasisFrame> frames = traceBasis(b.X, options, 7);
    // 0, 7, ..., 49, then the last iteration 50.
    QCOMPARE(int(frames.size()), 9);
    for (int i = 0; i < 8; ++i)
        QCOMPARE(frames[std::size_t(i)].iteration, 7 * i);
    QCOMPARE(frames.back().iteration, 50);
}

void TestBasisTrace::restartsKeepTheKeptStart()
{
    const TraceBlobs b = traceBlobs();
    RunOptions options = demoOptions(QStringLiteral("nmf"), 80);
    options.driver.replicates = 4;
    options.driver.minIter = 10;
    const TracedRun run = runTraced(b.X, b.labels, options, 1);
    const Factorization& f = run.result.factorization;
    QCOMPARE(int(run.frames.size()), f.iterations + 1);
    QVERIFY(run.frames.back().basis == f.basis);
    // The kept start's first frame is its own seeded start: the same as a single run from that
    // replicate's seed would show, which differs between replicates.
    const std::vector<BasisFrame> single
        = traceBasis(b.X, demoOptions(QStringLiteral("nmf"), 1), 1);
    if (f.replicate != 0)
        QVERIFY(!(single.front().basis == run.frames.front().basis));
    else
        QVERIFY(single.front().basis == run.frames.front().basis);
}

void TestBasisTrace::cancelledBeforeTheFirstStep()
{
    const TraceBlobs b = traceBlobs();
    std::stop_source source;
    source.request_stop();
    SolveControl control;
    control.stop = source.get_token();
    const TracedRun run = runTraced(b.X, b.labels, demoOptions(QStringLiteral("lcf")), 1, control);
    QCOMPARE(run.result.factorization.stopReason, StopReason::Cancelled);
    QCOMPARE(int(run.frames.size()), 1);
    QCOMPARE(run.frames.front().iteration, 0);
    QVERIFY(run.frames.front().basis.allFinite());
}

void TestBasisTrace::refusesWhatHasNoPath()
{
    const TraceBlobs b = traceBlobs();
    QVERIFY_THROWS_EXCEPTION(
        std::invalid_argument, traceBasis(b.X, demoOptions(QStringLiteral("lcf")), 0));
    QVERIFY_THROWS_EXCEPTION(
        std::invalid_argument, traceBasis(b.X, demoOptions(QStringLiteral("kmeans")), 1));
    QVERIFY_THROWS_EXCEPTION(
        std::invalid_argument, traceBasis(b.X, demoOptions(QStringLiteral("cnmf")), 1));
    QVERIFY_THROWS_EXCEPTION(
        std::invalid_argument, traceBasis(b.X, demoOptions(QStringLiteral("no-such")), 1));
    // Without a trace, runTraced is runAndCluster: the baselines are fine.
    const TracedRun run = runTraced(b.X, b.labels, demoOptions(QStringLiteral("kmeans")), 0);
    QVERIFY(run.frames.empty());
    QCOMPARE(int(run.result.predicted.size()), 120);
}

// METHODS.md 1.5 and 7: LCF's basis vectors X w_j sit at the cluster centres; NMF's unit-norm
// columns of U lie far from the data.
void TestBasisTrace::lcfBasesNearCentresNmfFar()
{
    const TraceBlobs b = traceBlobs();
    const RunResult lcf = runAndCluster(b.X, b.labels, demoOptions(QStringLiteral("lcf"), 300));
    const RunResult nmf = runAndCluster(b.X, b.labels, demoOptions(QStringLiteral("nmf"), 300));
    const Eigen::VectorXd lcfDistances
        = nearestCentreDistances(lcf.factorization.basis.cast<double>(), b.centres);
    const Eigen::VectorXd nmfDistances
        = nearestCentreDistances(nmf.factorization.basis.cast<double>(), b.centres);
    QVERIFY2(
        lcfDistances.maxCoeff() < 1.5 * 0.8, qPrintable(QString::number(lcfDistances.maxCoeff())));
    QVERIFY(nmfDistances.mean() > 3 * lcfDistances.mean());
}

void TestBasisTrace::alignsClustersToClasses()
{
    const std::vector<int> truth { 0, 0, 0, 1, 1, 1, 2, 2, 2 };
    QCOMPARE(alignClustersToClasses(truth, { 5, 5, 5, 3, 3, 9, 9, 9, 9 }),
        (std::vector<int> { 0, 0, 0, 1, 1, 2, 2, 2, 2 }));
    // Four clusters for three classes: the unmapped one gets the next value, 3.
    QCOMPARE(alignClustersToClasses(truth, { 1, 1, 0, 2, 2, 2, 3, 3, 3 }),
        (std::vector<int> { 0, 0, 3, 1, 1, 1, 2, 2, 2 }));
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, alignClustersToClasses(truth, { 0, 1 }));
}

void TestBasisTrace::nearestCentre()
{
    Eigen::MatrixXd centres(2, 2);
    centres << 0, 10, 0, 0;
    Eigen::MatrixXd points(2, 3);
    points << 3, 9, 5, 4, 0, 0;
    const Eigen::VectorXd d = nearestCentreDistances(points, centres);
    QCOMPARE(d(0), 5.0);
    QCOMPARE(d(1), 1.0);
    QCOMPARE(d(2), 5.0);
    QVERIFY_THROWS_EXCEPTION(
        std::invalid_argument, nearestCentreDistances(points, Eigen::MatrixXd(3, 1)));
}

#include "facet_test.h"
FACET_TEST_APPLESS_MAIN(TestBasisTrace)
#include "test_basis_trace.moc"
