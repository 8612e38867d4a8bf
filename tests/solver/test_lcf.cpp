// SPDX-License-Identifier: GPL-3.0-or-later
// LCF (METHODS.md 1.5): monotone objective, the update terms against the objective's gradient,
// lambda = 0 against CF, the normalize-each option, determinism and refused parameters.
#include "core/driver.h"
#include "core/random.h"
#include "methods/lcf.h"
#include "methods/registry.h"

#include "method_checks.h"
#include "test_printers.h"

#include <QtTest>

using namespace facet;
using namespace facet::testing;

namespace {

MethodFactory lcfFactory(
    const Matrix& X, int rank, std::optional<double> lambda, bool normalizeEach = false)
{
    MethodOptions o;
    o.rank = rank;
    o.lambda = lambda;
    o.normalizeEach = normalizeEach;
    return makeMethodFactory("lcf", X, o);
}

} // namespace

class TestLcf : public QObject {
    Q_OBJECT
private slots:
    void monotone_data();
    void monotone();
    void gradientMatchesUpdate_data();
    void gradientMatchesUpdate();
    void lambdaZeroIsCf();
    void noFinalNormalization();
    void normalizeEach();
    void basesSitNearTheData();
    void sameSeedSameFactors();
    void refusesBadParameters();
};

void TestLcf::monotone_data()
{
    QTest::addColumn<double>("lambda");
    QTest::addColumn<int>("m");
    QTest::addColumn<int>("n");
    QTest::newRow("default, m > n") << 0.3 << 60 << 40;
    QTest::newRow("default, m < n") << 0.3 << 30 << 80;
    QTest::newRow("lambda 5") << 5.0 << 40 << 50;
    QTest::newRow("lambda 0") << 0.0 << 40 << 50;
}

void TestLcf::monotone()
{
    QFETCH(double, lambda);
    QFETCH(int, m);
    QFETCH(int, n);
    const Matrix X = plantedProduct(m, n, 5, 0.3, 7);
    const Factorization f = solve(lcfFactory(X, 6, lambda), fixedIterations(200));
    QCOMPARE(f.iterations, 200);
    const QString error = monotoneError(f.history);
    QVERIFY2(error.isEmpty(), qPrintable(error));
}

void TestLcf::gradientMatchesUpdate_data()
{
    QTest::addColumn<double>("lambda");
    QTest::newRow("0.3") << 0.3;
    QTest::newRow("2") << 2.0;
    QTest::newRow("0") << 0.0;
}

void TestLcf::gradientMatchesUpdate()
{
    // grad O = 2 (N - P) for W and for V (the derivations in lcf.cpp).
    QFETCH(double, lambda);
    const Matrix X = plantedProduct(12, 9, 3, 0.2, 5);
    std::unique_ptr<Method> m = lcfFactory(X, 3, lambda)();
    Rng rng(3);
    m->initialize(rng);
    const QString error = gradientError(*m, 2.0);
    QVERIFY2(error.isEmpty(), qPrintable(error));
}

void TestLcf::lambdaZeroIsCf()
{
    // lambda = 0 applies CF's rules; CF only adds its final normalization, which keeps the product.
    const Matrix X = plantedProduct(30, 25, 4, 0.2, 4);
    MethodOptions o;
    o.rank = 4;
    const Factorization cf = solve(makeMethodFactory("cf", X, o), fixedIterations(60, 9));
    const Factorization lcf = solve(lcfFactory(X, 4, 0.0), fixedIterations(60, 9));
    QCOMPARE(lcf.history, cf.history);
    const Matrix productCf = cf.W * cf.V.transpose();
    const Matrix productLcf = lcf.W * lcf.V.transpose();
    QVERIFY((productCf - productLcf).norm() <= 1e-12 * productCf.norm());
}

void TestLcf::noFinalNormalization()
{
    // The exported factors are the ones whose objective was recorded last.
    const Matrix X = plantedProduct(20, 30, 3, 0.1, 8);
    const Factorization f = solve(lcfFactory(X, 3, 0.3), fixedIterations(40));
    const Matrix K = X.transpose() * X;
    const Vector a = K.diagonal();
    const Vector b = (f.W.transpose() * K * f.W).diagonal();
    const Matrix KW = K * f.W;
    double locality = 0;
    for (Eigen::Index i = 0; i < f.V.rows(); ++i)
        for (Eigen::Index j = 0; j < f.V.cols(); ++j)
            locality += f.V(i, j) * (a(i) - 2 * KW(i, j) + b(j));
    const double value = (X - f.basis * f.V.transpose()).squaredNorm() + 0.3 * locality;
    QVERIFY(std::abs(value - f.history.back()) < 1e-9 * value);
}

void TestLcf::normalizeEach()
{
    const Matrix X = plantedProduct(20, 30, 3, 0.1, 8);
    // After every step V's columns have unit norm (their scales go to W), so the last step's V,
    // times the bases' norms the run ends with (LCF_Multi.m's last NormalizeUV), is the V
    // exported: its columns' norms are the bases' norms before that rescale.
    const Factorization f = solve(lcfFactory(X, 3, 0.3, true), fixedIterations(30));
    for (Eigen::Index j = 0; j < f.basis.cols(); ++j)
        QVERIFY(std::abs(f.basis.col(j).norm() - 1.0) < 1e-12);
    auto method = lcfFactory(X, 3, 0.3, true)();
    Rng rng(deriveSeed(fixedIterations(30).seed, 0));
    method->initialize(rng);
    for (int i = 0; i < 30; ++i)
        method->step();
    Factorization unscaled;
    method->exportTo(unscaled);
    for (Eigen::Index j = 0; j < unscaled.V.cols(); ++j) {
        QVERIFY(std::abs(unscaled.V.col(j).norm() - 1.0) < 1e-12);
        const double scale = unscaled.basis.col(j).norm();
        QVERIFY((f.V.col(j) - scale * unscaled.V.col(j)).norm() < 1e-9 * f.V.col(j).norm());
    }
    QVERIFY(!method->monotone());
    // The extrapolation keeps a step by comparing objectives, which the rescaling changes.
    MethodOptions o;
    o.rank = 3;
    o.normalizeEach = true;
    o.algorithm = Algorithm::MuEx;
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, makeMethodFactory("lcf", X, o));
    bool noted = false;
    for (const std::string& line : f.log)
        noted = noted || line.find("normalize-each") != std::string::npos;
    QVERIFY(noted);
    QVERIFY(std::isfinite(f.history.back()));
}

void TestLcf::basesSitNearTheData()
{
    // METHODS.md 7: three Gaussian clusters in the plane, k = 3 > m = 2. The locality term pulls
    // each basis vector X w_j towards the samples it represents, so LCF's bases end up nearer
    // the data than CF's (lambda = 0).
    Rng rng(21);
    const double centres[3][2] = { { 1, 5 }, { 5, 1 }, { 5, 5 } };
    Matrix X(2, 150);
    for (Eigen::Index i = 0; i < X.cols(); ++i) {
        const auto* c = centres[i % 3];
        X(0, i) = c[0] + 0.5 * (rng.uniform() - 0.5);
        X(1, i) = c[1] + 0.5 * (rng.uniform() - 0.5);
    }
    auto meanDistanceToData = [&](const Matrix& basis) {
        double sum = 0;
        for (Eigen::Index j = 0; j < basis.cols(); ++j)
            sum += std::sqrt((X.colwise() - basis.col(j)).colwise().squaredNorm().minCoeff());
        return sum / double(basis.cols());
    };
    const Factorization lcf = solve(lcfFactory(X, 3, 1.0), fixedIterations(300, 2));
    const Factorization cf = solve(lcfFactory(X, 3, 0.0), fixedIterations(300, 2));
    QVERIFY2(meanDistanceToData(lcf.basis) < meanDistanceToData(cf.basis),
        qPrintable(QStringLiteral("LCF %1, CF %2")
                       .arg(meanDistanceToData(lcf.basis))
                       .arg(meanDistanceToData(cf.basis))));
}

void TestLcf::sameSeedSameFactors()
{
    const Matrix X = plantedProduct(40, 30, 3, 0.1, 2);
    DriverOptions d = fixedIterations(50, 1234);
    d.replicates = 2;
    const Factorization a = solve(lcfFactory(X, 3, 0.3), d);
    const Factorization b = solve(lcfFactory(X, 3, 0.3), d);
    QVERIFY(a.V == b.V);
    QVERIFY(a.W == b.W);
    QCOMPARE(a.history, b.history);
}

void TestLcf::refusesBadParameters()
{
    const Matrix X = plantedProduct(10, 8, 2, 0.1, 1);
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, lcfFactory(X, 2, -0.1));
    QVERIFY_THROWS_EXCEPTION(
        std::invalid_argument, lcfFactory(X, 2, std::numeric_limits<double>::quiet_NaN()));
    QVERIFY_THROWS_EXCEPTION(
        std::invalid_argument, lcfFactory(X, 2, std::numeric_limits<double>::infinity()));
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, lcfFactory(X, 0, 0.3));
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, lcfFactory(X, 9, 0.3));
    // No general form: a kernel with negative entries is refused.
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, lcfFactory(centred(X), 2, 0.3));
}

#include "facet_test.h"
FACET_TEST_APPLESS_MAIN(TestLcf)
#include "test_lcf.moc"
