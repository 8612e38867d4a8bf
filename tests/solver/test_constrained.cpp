// SPDX-License-Identifier: GPL-3.0-or-later
// CNMF and CCF (METHODS.md 2.1, 2.2): the implicit constraint matrix, the reductions to NMF / CF
// without labels, the label constraint, monotone objectives, gradients, bad input.
#include "core/driver.h"
#include "core/gram.h"
#include "methods/ccf.h"
#include "methods/cnmf.h"
#include "methods/constraint.h"
#include "methods/registry.h"

#include "method_checks.h"
#include "test_printers.h"

#include <QtTest>

#include <Eigen/LU>

using namespace facet;
using namespace facet::testing;

namespace {

MethodFactory constrainedFactory(const std::string& method, const Matrix& X, int rank,
    std::vector<int> labels = {}, std::optional<InitKind> init = {})
{
    MethodOptions o;
    o.rank = rank;
    // One algorithm for the constrained method and its plain twin (NMF's default is hals-ex,
    // which CNMF has not); the extrapolated rule keeps the identity with A = I.
    o.algorithm = Algorithm::MuEx;
    o.knownLabels = std::move(labels);
    if (init) {
        o.init = *init;
        o.initSet = true;
    }
    return makeMethodFactory(method, X, o);
}

// Every third sample labelled with class (i / 3) % 4, skipping class 2 (a class with no labelled
// sample is allowed).
std::vector<int> someLabels(Eigen::Index n)
{
    std::vector<int> labels(std::size_t(n), -1);
    for (Eigen::Index i = 0; i < n; i += 3) {
        const int c = int((i / 3) % 4);
        labels[std::size_t(i)] = c == 2 ? -1 : c;
    }
    return labels;
}

} // namespace

class TestConstrained : public QObject {
    Q_OBJECT
private slots:
    void constraintMatrixMatchesDense();
    void noLabelsIsUnconstrained_data();
    void noLabelsIsUnconstrained();
    void labelsGiveIdenticalRows_data();
    void labelsGiveIdenticalRows();
    void monotone_data();
    void monotone();
    void gradientMatchesUpdate_data();
    void gradientMatchesUpdate();
    void ccfStartsFromNmf();
    void startsMapToZ_data();
    void startsMapToZ();
    void sameSeedSameFactors_data();
    void sameSeedSameFactors();
    void refusesBadInput();
};

void TestConstrained::constraintMatrixMatchesDense()
{
    const std::vector<int> labels { 3, -1, 0, 3, -1, 0, 0, -1 };
    const ConstraintMatrix A(labels, 8);
    QCOMPARE(A.classes(), 2); // classes 0 and 3; 1 and 2 have no labelled sample
    QCOMPARE(A.labelled(), Eigen::Index(5));
    QCOMPARE(A.cols(), Eigen::Index(2 + 3));
    Matrix dense = Matrix::Zero(8, 5);
    const int column[8] = { 1, 2, 0, 1, 3, 0, 0, 4 };
    for (int i = 0; i < 8; ++i)
        dense(i, column[i]) = 1;
    Rng rng(1);
    const Matrix Z = rng.uniformMatrix(5, 3);
    const Matrix M = rng.uniformMatrix(8, 3);
    QVERIFY(A.times(Z) == dense * Z);
    QVERIFY((A.transposeTimes(M) - dense.transpose() * M).norm() < 1e-15);
    QVERIFY(A.gramDiagonal() == (dense.transpose() * dense).diagonal());
    const Matrix ls = (dense.transpose() * dense).inverse() * dense.transpose() * M;
    QVERIFY((A.leastSquares(M) - ls).norm() < 1e-14);
    // The fused steps' pieces: X A restricted to the class columns, and V's labelled rows
    // cleared inside a row range only.
    const Matrix X = rng.uniformMatrix(4, 8);
    QVERIFY((A.classSums(X) - X * dense.leftCols(2)).norm() < 1e-14);
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, A.classSums(rng.uniformMatrix(4, 7)));
    Matrix V = M;
    A.clearLabelledRows(V, 1, 5); // rows 1..5: 2, 3 and 5 are labelled; 0 and 6 are, outside
    for (int i = 0; i < 8; ++i) {
        const Matrix expected
            = (i == 2 || i == 3 || i == 5) ? Matrix(Matrix::Zero(1, 3)) : Matrix(M.row(i));
        QVERIFY(V.row(i) == expected);
    }

    const ConstraintMatrix identity({}, 6);
    QVERIFY(identity.isIdentity());
    QVERIFY(identity.times(Z.topRows(5)) == Z.topRows(5));
    const ConstraintMatrix unknown(std::vector<int>(6, -1), 6);
    QVERIFY(unknown.isIdentity());
}

void TestConstrained::noLabelsIsUnconstrained_data()
{
    QTest::addColumn<QString>("constrained");
    QTest::addColumn<QString>("plain");
    QTest::addColumn<bool>("allUnknown"); // knownLabels all -1 instead of empty
    QTest::newRow("cnmf = nmf") << QStringLiteral("cnmf") << QStringLiteral("nmf") << false;
    QTest::newRow("ccf = cf") << QStringLiteral("ccf") << QStringLiteral("cf") << false;
    QTest::newRow("cnmf = nmf, all -1") << QStringLiteral("cnmf") << QStringLiteral("nmf") << true;
    QTest::newRow("ccf = cf, all -1") << QStringLiteral("ccf") << QStringLiteral("cf") << true;
}

void TestConstrained::noLabelsIsUnconstrained()
{
    // A = I: the same seed gives bit-identical factors and histories (random start for both).
    QFETCH(QString, constrained);
    QFETCH(QString, plain);
    QFETCH(bool, allUnknown);
    for (auto [m, n] : { std::pair { 50, 30 }, std::pair { 20, 45 } }) {
        const Matrix X = plantedProduct(m, n, 4, 0.2, 3);
        DriverOptions d = fixedIterations(80, 77);
        d.replicates = 2;
        const std::vector<int> labels
            = allUnknown ? std::vector<int>(std::size_t(n), -1) : std::vector<int> {};
        const Factorization a = solve(
            constrainedFactory(constrained.toStdString(), X, 4, labels, InitKind::Random), d);
        const Factorization b = solve(constrainedFactory(plain.toStdString(), X, 4), d);
        QCOMPARE(a.history, b.history);
        QVERIFY(a.V == b.V);
        QVERIFY(a.W == b.W);
        QVERIFY(a.basis == b.basis);
    }
}

void TestConstrained::labelsGiveIdenticalRows_data()
{
    QTest::addColumn<QString>("method");
    QTest::newRow("cnmf") << QStringLiteral("cnmf");
    QTest::newRow("ccf") << QStringLiteral("ccf");
}

void TestConstrained::labelsGiveIdenticalRows()
{
    QFETCH(QString, method);
    const Matrix X = plantedProduct(30, 40, 4, 0.2, 5);
    const std::vector<int> labels = someLabels(X.cols());
    const Factorization f
        = solve(constrainedFactory(method.toStdString(), X, 4, labels), fixedIterations(60));
    QCOMPARE(f.V.rows(), X.cols());
    int pairs = 0;
    for (std::size_t i = 0; i < labels.size(); ++i)
        for (std::size_t j = i + 1; j < labels.size(); ++j)
            if (labels[i] >= 0 && labels[i] == labels[j]) {
                QVERIFY(f.V.row(Eigen::Index(i)) == f.V.row(Eigen::Index(j)));
                ++pairs;
            }
    QVERIFY(pairs > 10);
    // Unlabelled samples keep their own rows.
    QVERIFY(!(f.V.row(1) == f.V.row(2)));
}

void TestConstrained::monotone_data()
{
    QTest::addColumn<QString>("method");
    QTest::addColumn<int>("m");
    QTest::addColumn<int>("n");
    QTest::newRow("cnmf, m > n") << QStringLiteral("cnmf") << 60 << 40;
    QTest::newRow("cnmf, m < n") << QStringLiteral("cnmf") << 30 << 80;
    QTest::newRow("ccf, m > n") << QStringLiteral("ccf") << 60 << 40;
    QTest::newRow("ccf, m < n") << QStringLiteral("ccf") << 30 << 80;
}

void TestConstrained::monotone()
{
    QFETCH(QString, method);
    QFETCH(int, m);
    QFETCH(int, n);
    const Matrix X = plantedProduct(m, n, 5, 0.3, 7);
    const Factorization f = solve(
        constrainedFactory(method.toStdString(), X, 6, someLabels(n)), fixedIterations(200));
    QCOMPARE(f.iterations, 200);
    const QString error = monotoneError(f.history);
    QVERIFY2(error.isEmpty(), qPrintable(error));
    // The exported V = A Z reproduces the last recorded objective.
    const double value = (X - f.basis * f.V.transpose()).squaredNorm();
    QVERIFY(std::abs(value - f.history.back()) < 1e-8 * std::max(1.0, value));
}

void TestConstrained::gradientMatchesUpdate_data()
{
    labelsGiveIdenticalRows_data();
}

void TestConstrained::gradientMatchesUpdate()
{
    // grad O = 2 (N - P) in U or W, and in Z (the chain rule through V = A Z).
    QFETCH(QString, method);
    const Matrix X = plantedProduct(12, 10, 3, 0.2, 5);
    const std::vector<int> labels { 0, -1, 1, 0, -1, 1, 0, -1, -1, 2 };
    std::unique_ptr<Method> m
        = constrainedFactory(method.toStdString(), X, 3, labels, InitKind::Random)();
    Rng rng(3);
    m->initialize(rng);
    QCOMPARE(m->state().at(1).rows(), Eigen::Index(3 + 4));
    const QString error = gradientError(*m, 2.0);
    QVERIFY2(error.isEmpty(), qPrintable(error));
}

void TestConstrained::ccfStartsFromNmf()
{
    const Matrix X = plantedProduct(30, 40, 4, 0.2, 5);
    const Factorization f
        = solve(constrainedFactory("ccf", X, 4, someLabels(40)), fixedIterations(30));
    QVERIFY(hasNote(f, "init: nmf"));
    const QString error = monotoneError(f.history);
    QVERIFY2(error.isEmpty(), qPrintable(error));
    // Signed data: the default nmf start falls back to random (with a note); asked for, refused.
    const Matrix signedX = centred(X);
    const Factorization g
        = solve(constrainedFactory("ccf", signedX, 4, someLabels(40)), fixedIterations(30));
    QVERIFY(hasNote(g, "init: random"));
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument,
        constrainedFactory("ccf", signedX, 4, someLabels(40), InitKind::Nmf));
}

void TestConstrained::startsMapToZ_data()
{
    QTest::addColumn<QString>("method");
    QTest::addColumn<int>("init");
    for (const char* method : { "cnmf", "ccf" })
        for (InitKind init : { InitKind::Nndsvd, InitKind::Nmf, InitKind::KMeans })
            QTest::newRow(qPrintable(QStringLiteral("%1 %2").arg(method).arg(int(init))))
                << QString::fromLatin1(method) << int(init);
}

void TestConstrained::startsMapToZ()
{
    QFETCH(QString, method);
    QFETCH(int, init);
    const Matrix X = plantedProduct(30, 40, 4, 0.2, 5);
    const std::vector<int> labels = someLabels(40);
    const Factorization f
        = solve(constrainedFactory(method.toStdString(), X, 4, labels, InitKind(init)),
            fixedIterations(50));
    QVERIFY(f.V.allFinite());
    QVERIFY(f.V.minCoeff() >= 0);
    QVERIFY(f.V.row(0) == f.V.row(12)); // both class 0
    const QString error = monotoneError(f.history);
    QVERIFY2(error.isEmpty(), qPrintable(error));
}

void TestConstrained::sameSeedSameFactors_data()
{
    labelsGiveIdenticalRows_data();
}

void TestConstrained::sameSeedSameFactors()
{
    QFETCH(QString, method);
    const Matrix X = plantedProduct(40, 30, 3, 0.1, 2);
    DriverOptions d = fixedIterations(50, 1234);
    d.replicates = 2;
    const auto labels = someLabels(30);
    const Factorization a = solve(constrainedFactory(method.toStdString(), X, 3, labels), d);
    const Factorization b = solve(constrainedFactory(method.toStdString(), X, 3, labels), d);
    QVERIFY(a.V == b.V);
    QVERIFY(a.basis == b.basis);
    QCOMPARE(a.history, b.history);
    d.seed = 1235;
    const Factorization c = solve(constrainedFactory(method.toStdString(), X, 3, labels), d);
    QVERIFY(!(a.V == c.V));
}

void TestConstrained::refusesBadInput()
{
    const Matrix X = plantedProduct(10, 8, 2, 0.1, 1);
    for (const std::string method : { "cnmf", "ccf" }) {
        QVERIFY_THROWS_EXCEPTION(
            std::invalid_argument, constrainedFactory(method, X, 2, { 0, 1, -1 }));
        QVERIFY_THROWS_EXCEPTION(
            std::invalid_argument, constrainedFactory(method, X, 2, { 0, 1, -1, -2, 0, 0, 0, 0 }));
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, constrainedFactory(method, X, 0));
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, constrainedFactory(method, X, 9));
    }
    // CNMF needs X >= 0.
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, constrainedFactory("cnmf", centred(X), 2));
}

#include "facet_test.h"
FACET_TEST_APPLESS_MAIN(TestConstrained)
#include "test_constrained.moc"
