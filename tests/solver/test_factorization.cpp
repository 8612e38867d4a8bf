// SPDX-License-Identifier: GPL-3.0-or-later
// NMF and CF on synthetic data: monotone objectives, planted low-rank recovery, the update rules
// against the objective's finite-difference gradient, normalization, determinism.
#include "core/driver.h"
#include "core/gram.h"
#include "method_checks.h"
#include "methods/cf.h"
#include "methods/nmf.h"
#include "methods/registry.h"

#include "test_printers.h"

#include <QtTest>

using namespace facet;
using namespace facet::testing;

namespace {

MethodFactory factoryFor(const QString& method, const Matrix& X, int rank)
{
    MethodOptions o;
    o.rank = rank;
    return makeMethodFactory(method.toStdString(), X, o);
}

} // namespace

class TestFactorization : public QObject {
    Q_OBJECT
private slots:
    void monotone_data();
    void monotone();
    void plantedRecovery_data();
    void plantedRecovery();
    void gradientMatchesUpdate_data();
    void gradientMatchesUpdate();
    void sameSeedSameFactors_data();
    void sameSeedSameFactors();
    void cfNormalization();
    void nmfNormalization();
    void refusesBadInput();
};

void TestFactorization::monotone_data()
{
    QTest::addColumn<QString>("method");
    QTest::newRow("nmf") << QStringLiteral("nmf");
    QTest::newRow("cf") << QStringLiteral("cf");
}

void TestFactorization::monotone()
{
    QFETCH(QString, method);
    // m > n and m < n take the two product orders of the CF kernel operator.
    for (auto [m, n] : { std::pair { 60, 40 }, std::pair { 30, 80 } }) {
        const Matrix X = plantedProduct(m, n, 5, 0.3, 7);
        DriverOptions d;
        d.maxIter = 200;
        d.tol = 0;
        d.stationarityTol = 0; // NMF's default (hals-ex) would stop at a stationary point
        const Factorization f = solve(factoryFor(method, X, 6), d);
        QCOMPARE(f.iterations, 200);
        QCOMPARE(f.stopReason, StopReason::MaxIterations);
        verifyMonotone(f.history);
    }
}

void TestFactorization::plantedRecovery_data()
{
    monotone_data();
}

void TestFactorization::plantedRecovery()
{
    // An exact non-negative rank-4 product is reconstructed almost perfectly.
    QFETCH(QString, method);
    const Matrix X = plantedProduct(50, 70, 4, 0.0, 11);
    DriverOptions d;
    d.maxIter = 3000;
    d.tol = 1e-12;
    d.replicates = 3;
    const Factorization f = solve(factoryFor(method, X, 4), d);
    const double rel = (X - f.basis * f.V.transpose()).norm() / X.norm();
    QVERIFY2(rel < 2e-2, qPrintable(QStringLiteral("relative error %1").arg(rel)));
    QVERIFY((f.V.array() >= 0).all());
    if (method == QStringLiteral("cf"))
        QVERIFY((f.W.array() >= 0).all());
}

void TestFactorization::gradientMatchesUpdate_data()
{
    monotone_data();
}

void TestFactorization::gradientMatchesUpdate()
{
    // At a random positive point the gradient of O (central differences of objective() alone)
    // equals c (N - P) of the update rule, with one constant c per factor (here c = 2).
    QFETCH(QString, method);
    const Matrix X = plantedProduct(12, 9, 3, 0.2, 5);
    const MethodFactory make = factoryFor(method, X, 3);
    std::unique_ptr<Method> m = make();
    Rng rng(3);
    m->initialize(rng);
    const std::vector<Matrix> point = m->state();
    for (int factor = 0; factor < int(point.size()); ++factor) {
        m->restore(point);
        const UpdateTerms t = m->updateTerms(factor);
        const Matrix expected = t.denominator - t.numerator;
        Matrix numeric(expected.rows(), expected.cols());
        for (Eigen::Index i = 0; i < expected.size(); ++i) {
            std::vector<Matrix> s = point;
            const double h = 1e-6 * std::max(1.0, std::abs(double(s[factor].data()[i])));
            s[factor].data()[i] += h;
            m->restore(s);
            const double up = m->objective();
            s[factor].data()[i] -= 2 * h;
            m->restore(s);
            const double down = m->objective();
            numeric.data()[i] = (up - down) / (2 * h);
        }
        // One constant for the whole factor, fitted by least squares, then entry-wise agreement.
        const double c = (numeric.array() * expected.array()).sum() / expected.squaredNorm();
        QVERIFY2(std::abs(c - 2.0) < 1e-4, qPrintable(QStringLiteral("constant %1").arg(c)));
        const double err = (numeric - c * expected).cwiseAbs().maxCoeff();
        QVERIFY2(err < 1e-5 * std::max(1.0, double(numeric.cwiseAbs().maxCoeff())),
            qPrintable(QStringLiteral("factor %1: max deviation %2").arg(factor).arg(err)));
    }
}

void TestFactorization::sameSeedSameFactors_data()
{
    monotone_data();
}

void TestFactorization::sameSeedSameFactors()
{
    QFETCH(QString, method);
    const Matrix X = plantedProduct(40, 30, 3, 0.1, 2);
    DriverOptions d;
    d.maxIter = 50;
    d.seed = 1234;
    d.replicates = 2;
    const Factorization a = solve(factoryFor(method, X, 3), d);
    const Factorization b = solve(factoryFor(method, X, 3), d);
    QVERIFY(a.V == b.V);
    QVERIFY(a.basis == b.basis);
    QCOMPARE(a.history, b.history);
    d.seed = 1235;
    const Factorization c = solve(factoryFor(method, X, 3), d);
    QVERIFY(!(a.V == c.V));
}

void TestFactorization::cfNormalization()
{
    // After the solve, diag(W^T K W) = 1 and the product X W V^T is what the loop produced.
    const Matrix X = plantedProduct(20, 25, 3, 0.1, 9);
    DriverOptions d;
    d.maxIter = 40;
    const Factorization f = solve(factoryFor(QStringLiteral("cf"), X, 3), d);
    const Matrix K = X.transpose() * X;
    const Vector diag = (f.W.transpose() * K * f.W).diagonal();
    for (Eigen::Index j = 0; j < diag.size(); ++j)
        QVERIFY(std::abs(diag(j) - 1.0) < 1e-9);
    QVERIFY((f.basis - X * f.W).norm() < 1e-9);
    const double finalObjective = (X - f.basis * f.V.transpose()).squaredNorm();
    QVERIFY(std::abs(finalObjective - f.history.back()) < 1e-8 * std::max(1.0, finalObjective));
    QVERIFY(std::abs(finalObjective - f.returnedObjective) < 1e-8 * std::max(1.0, finalObjective));
    QVERIFY(!returnedObjectiveDiffers(f));
}

void TestFactorization::nmfNormalization()
{
    const Matrix X = plantedProduct(20, 25, 3, 0.1, 9);
    DriverOptions d;
    d.maxIter = 40;
    const Factorization f = solve(factoryFor(QStringLiteral("nmf"), X, 3), d);
    for (Eigen::Index j = 0; j < f.basis.cols(); ++j)
        QVERIFY(std::abs(f.basis.col(j).norm() - 1.0) < 1e-12);
    const double finalObjective = (X - f.basis * f.V.transpose()).squaredNorm();
    QVERIFY(std::abs(finalObjective - f.history.back()) < 1e-8 * std::max(1.0, finalObjective));
    QVERIFY(std::abs(finalObjective - f.returnedObjective) < 1e-8 * std::max(1.0, finalObjective));
    QVERIFY(!returnedObjectiveDiffers(f));
}

void TestFactorization::refusesBadInput()
{
    Matrix X = plantedProduct(10, 8, 2, 0.1, 1);
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, factoryFor(QStringLiteral("nmf"), X, 0));
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, factoryFor(QStringLiteral("cf"), X, 9));
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, factoryFor(QStringLiteral("pca2"), X, 2));
    X(3, 4) = -0.5;
    try {
        factoryFor(QStringLiteral("nmf"), X, 2);
        QFAIL("negative data accepted by NMF");
    } catch (const std::invalid_argument& e) {
        QVERIFY2(
            QString::fromUtf8(e.what()).contains(QStringLiteral("sample (column) 5")), e.what());
    }
    X(3, 4) = std::numeric_limits<double>::quiet_NaN();
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, factoryFor(QStringLiteral("cf"), X, 2));
}

#include "facet_test.h"
FACET_TEST_APPLESS_MAIN(TestFactorization)
#include "test_factorization.moc"
