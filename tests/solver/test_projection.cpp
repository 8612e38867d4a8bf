// SPDX-License-Identifier: GPL-3.0-or-later
// Out-of-sample projection: the fixed-basis step reproduces what the factorization gave its own
// samples, recovers planted coefficients, never increases the residual, and picks the cluster the
// training samples of that kind went to.

#include "core/random.h"
#include "experiment/projection.h"
#include "method_checks.h"
#include "test_printers.h"

#include <QtTest>

using namespace facet;
using namespace facet::testing;

namespace {

RunOptions projectionOptions(const std::string& method, int rank, int iterations)
{
    RunOptions o;
    o.method = method;
    o.params.rank = rank;
    o.driver.maxIter = iterations;
    o.driver.minIter = std::min(30, iterations);
    o.driver.tol = 0;
    o.driver.seed = 5;
    return o;
}

} // namespace

class TestProjection : public QObject {
    Q_OBJECT
private slots:
    // At a converged NMF the V step is at its fixed point, so a training sample projected onto
    // U gets (nearly) its own row of V, and lands in its own cluster.
    void trainingSampleGetsItsOwnRow_data()
    {
        QTest::addColumn<QString>("method");
        QTest::newRow("nmf") << QStringLiteral("nmf");
        QTest::newRow("cf") << QStringLiteral("cf");
    }
    void trainingSampleGetsItsOwnRow()
    {
        QFETCH(QString, method);
        std::vector<int> labels;
        const Matrix X = blobs(12, 3, 10, labels, 7);
        const RunOptions o = projectionOptions(method.toStdString(), 3, 3000);
        const RunResult r = runAndCluster(X, labels, o);
        const Factorization& f = r.factorization;
        for (int i : { 0, 13, 29 }) {
            const Projection p = projectSample(f, o, X, r.predicted, X.col(i));
            // The exact minimizer over v: never worse than the sample's own row, and close to it.
            const double own = (X.col(i) - f.basis * f.V.row(i).transpose()).squaredNorm();
            QVERIFY(p.residuals.back() <= own * (1 + 1e-9));
            const double rowError = (p.v - f.V.row(i).transpose()).norm() / f.V.row(i).norm();
            QVERIFY2(rowError < 1e-2, qPrintable(QString::number(rowError)));
            QCOMPARE(p.cluster, r.predicted[std::size_t(i)]);
            QVERIFY(p.relativeError < 0.05);
        }
    }
    void plantedCoefficientsAreRecovered()
    {
        Rng rng(3);
        const Matrix U = rng.uniformMatrix(20, 4);
        Vector truth(4);
        truth << 0.5, 0.0, 2.0, 1.0;
        Factorization f;
        f.method = "nmf";
        f.basis = U;
        f.V = Matrix::Ones(1, 4);
        const Projection p = projectSample(f, projectionOptions("nmf", 4, 1), U, { 0 }, U * truth);
        QVERIFY2((p.v - truth).norm() < 1e-9, qPrintable(QString::number((p.v - truth).norm())));
        QVERIFY(p.relativeError < 1e-9);
        QCOMPARE(p.v(1), 0.0); // exactly zero, where multiplicative steps only approach it
        for (std::size_t t = 1; t < p.residuals.size(); ++t)
            QVERIFY(p.residuals[t] <= p.residuals[t - 1] * (1 + 1e-12) + 1e-300);
    }
    // A signed basis (the general form): still monotone, non-negative coefficients, and exact on
    // data in the cone.
    void signedBasisIsMonotone()
    {
        Rng rng(4);
        const Matrix U = rng.uniformMatrix(15, 3).array() - 0.5;
        Vector truth(3);
        truth << 1.0, 0.25, 3.0;
        Factorization f;
        f.method = "cf";
        f.basis = U;
        f.V = Matrix::Ones(1, 3);
        const Projection p = projectSample(f, projectionOptions("cf", 3, 1), U, { 0 }, U * truth);
        QVERIFY((p.v.array() >= 0).all());
        for (std::size_t t = 1; t < p.residuals.size(); ++t)
            QVERIFY(p.residuals[t] <= p.residuals[t - 1] * (1 + 1e-9) + 1e-12);
        QVERIFY2(p.relativeError < 1e-9, qPrintable(QString::number(p.relativeError)));
    }
    void baselines()
    {
        std::vector<int> labels;
        const Matrix X = blobs(8, 3, 12, labels, 9);
        for (const char* method : { "pca", "kmeans" }) {
            const RunOptions o = projectionOptions(method, 3, 1);
            const RunResult r = runAndCluster(X, labels, o);
            const Projection p = projectSample(r.factorization, o, X, r.predicted, X.col(20));
            QCOMPARE(p.cluster, r.predicted[20]);
            if (std::string(method) == "pca") // the scores of a training sample are its row of V
                QVERIFY((p.v - r.factorization.V.row(20).transpose()).norm() < 1e-9);
        }
    }
    void badInputIsRefused()
    {
        std::vector<int> labels;
        const Matrix X = blobs(6, 2, 5, labels, 1);
        const RunOptions o = projectionOptions("nmf", 2, 50);
        const RunResult r = runAndCluster(X, labels, o);
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument,
            projectSample(r.factorization, o, X, r.predicted, Vector::Ones(5)));
        Vector bad = X.col(0);
        bad(2) = std::numeric_limits<double>::quiet_NaN();
        QVERIFY_THROWS_EXCEPTION(
            std::invalid_argument, projectSample(r.factorization, o, X, r.predicted, bad));
        RunOptions kernel = o;
        kernel.params.kernel = KernelKind::Gaussian;
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument,
            projectSample(r.factorization, kernel, X, r.predicted, X.col(0)));
    }
};

#include "facet_test.h"
FACET_TEST_APPLESS_MAIN(TestProjection)
#include "test_projection.moc"
