// SPDX-License-Identifier: GPL-3.0-or-later
// The starts of METHODS.md section 0 (nndsvd, nmf, kmeans): exact on rank-one data, the
// eigensolver path against a dense SVD, the k-means mapping, and every method from every start
// (monotone, deterministic).
#include "core/driver.h"
#include "core/gram.h"
#include "methods/initialization.h"
#include "methods/registry.h"

#include "method_checks.h"
#include "test_printers.h"

#include <QtTest>

#include <Eigen/SVD>

using namespace facet;
using namespace facet::testing;

class TestInitialization : public QObject {
    Q_OBJECT
private slots:
    void nndsvdExactOnRankOne();
    void nndsvdLargeMatchesSvd();
    void kmeansStarts();
    void nmfStartForCf();
    void everyMethodEveryStart_data();
    void everyMethodEveryStart();
};

void TestInitialization::nndsvdExactOnRankOne()
{
    Rng rng(4);
    const Vector u = rng.uniformMatrix(30, 1);
    const Vector v = rng.uniformMatrix(20, 1);
    for (const Matrix& X : { Matrix(u * v.transpose()), Matrix(v * u.transpose()) }) {
        const NmfStart s = nndsvdStart(X, 1);
        QVERIFY((s.U * s.V.transpose() - X).norm() < 1e-10 * X.norm());
        const CfStart c = nndsvdCfStart(X, *Gram::linear(X), 1);
        QVERIFY((X * c.W * c.V.transpose() - X).norm() < 1e-10 * X.norm());
        // Through an explicit kernel (the eigenpairs of K rather than of X's Gram matrix).
        const CfStart e = nndsvdCfStart(X, *Gram::fromMatrix(X.transpose() * X), 1);
        QVERIFY((X * e.W * e.V.transpose() - X).norm() < 1e-10 * X.norm());
    }
    // Higher ranks: every entry positive (zeros filled), finite.
    const Matrix X = plantedProduct(25, 18, 3, 0.1, 2);
    const NmfStart s = nndsvdStart(X, 5);
    QVERIFY(s.U.minCoeff() > 0 && s.V.minCoeff() > 0 && s.U.allFinite() && s.V.allFinite());
    const CfStart c = nndsvdCfStart(X, *Gram::linear(X), 5);
    QVERIFY(c.W.minCoeff() > 0 && c.V.minCoeff() > 0);
}

void TestInitialization::nndsvdLargeMatchesSvd()
{
    // min(m, n) > 500 takes the Spectra path: its leading term is sqrt(sigma_1) |p_1|, |q_1|.
    const Matrix X = plantedProduct(520, 560, 3, 0.05, 6);
    const NmfStart s = nndsvdStart(X, 3);
    const Eigen::BDCSVD<Matrix> svd(X, Eigen::ComputeThinU | Eigen::ComputeThinV);
    const double root = std::sqrt(svd.singularValues()(0));
    QVERIFY((s.U.col(0) - root * svd.matrixU().col(0).cwiseAbs()).norm() < 1e-8 * root);
    QVERIFY((s.V.col(0) - root * svd.matrixV().col(0).cwiseAbs()).norm() < 1e-8 * root);
}

void TestInitialization::kmeansStarts()
{
    const Matrix X = plantedProduct(10, 40, 3, 0.05, 3);
    Rng a(8), b(8);
    const NmfStart nmf = kmeansStart(X, 3, a);
    const CfStart cf = kmeansCfStart(X, 3, b); // same seed: the same clustering
    // V = H + 0.2: each row has one 1.2 and 0.2 elsewhere.
    for (Eigen::Index i = 0; i < 40; ++i) {
        QCOMPARE(cf.V.row(i).maxCoeff(), 1.2);
        QCOMPARE(cf.V.row(i).minCoeff(), 0.2);
    }
    QVERIFY(nmf.V == cf.V);
    // X w_j is the centroid of cluster j, which NMF takes as U.
    QVERIFY((X * cf.W - nmf.U).norm() < 1e-12 * nmf.U.norm());
    for (Eigen::Index j = 0; j < 3; ++j)
        QVERIFY(std::abs(cf.W.col(j).sum() - 1.0) < 1e-12);
}

void TestInitialization::nmfStartForCf()
{
    const Matrix X = plantedProduct(10, 40, 3, 0.05, 3);
    Rng a(8), b(8);
    const NmfStart nmf = shortNmfStart(X, 3, a);
    const CfStart cf = nmfCfStart(X, 3, b);
    QVERIFY(cf.V == nmf.V);
    for (Eigen::Index j = 0; j < 3; ++j)
        QVERIFY((cf.W.col(j) - nmf.V.col(j) / nmf.V.col(j).squaredNorm()).norm() < 1e-14);
}

void TestInitialization::everyMethodEveryStart_data()
{
    QTest::addColumn<QString>("method");
    QTest::addColumn<int>("init");
    for (const char* method : { "nmf", "gnmf", "semignmf", "cf", "lccf", "lcf", "cnmf", "ccf" })
        for (InitKind init :
            { InitKind::Random, InitKind::Nndsvd, InitKind::Nmf, InitKind::KMeans })
            QTest::newRow(qPrintable(QStringLiteral("%1 %2").arg(method).arg(
                QString::fromLatin1(initName(init).data()))))
                << QString::fromLatin1(method) << int(init);
}

void TestInitialization::everyMethodEveryStart()
{
    QFETCH(QString, method);
    QFETCH(int, init);
    const Matrix X = plantedProduct(30, 45, 4, 0.2, 5);
    MethodOptions o;
    o.rank = 4;
    o.init = InitKind(init);
    o.initSet = true;
    DriverOptions d;
    d.maxIter = 100;
    d.tol = 0;
    d.seed = 12;
    const Factorization a = solve(makeMethodFactory(method.toStdString(), X, o), d);
    const QString error = monotoneError(a.history);
    QVERIFY2(error.isEmpty(), qPrintable(error));
    QVERIFY(a.V.allFinite() && a.V.minCoeff() >= 0);
    const Factorization b = solve(makeMethodFactory(method.toStdString(), X, o), d);
    QVERIFY(a.V == b.V);
    QCOMPARE(a.history, b.history);
    // The start asked for is the one used: another start, another first objective (GNMF and
    // SemiGNMF once ignored the option and always started at random).
    MethodOptions other = o;
    other.init = InitKind(init) == InitKind::Random ? InitKind::KMeans : InitKind::Random;
    const Factorization c = solve(makeMethodFactory(method.toStdString(), X, other), d);
    QVERIFY(c.history.front() != a.history.front());
}

#include "facet_test.h"
FACET_TEST_APPLESS_MAIN(TestInitialization)
#include "test_initialization.moc"
