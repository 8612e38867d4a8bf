// SPDX-License-Identifier: GPL-3.0-or-later
// The general form of METHODS.md 1.4 (CF, LCCF, CCF): equal to the plain updates when K >= 0,
// monotone on signed data, its terms consistent with the gradient, chosen automatically.
#include "core/driver.h"
#include "core/gram.h"
#include "graph/knn_graph.h"
#include "methods/ccf.h"
#include "methods/cf.h"
#include "methods/cf_family.h"
#include "methods/constraint.h"
#include "methods/kernel_split.h"
#include "methods/kernels.h"
#include "methods/lccf.h"
#include "methods/registry.h"

#include "method_checks.h"
#include "test_printers.h"

#include <QtTest>

using namespace facet;
using namespace facet::testing;

namespace {

MethodFactory generalFormFactory(const std::string& method, const Matrix& X, int rank, bool general,
    std::vector<int> labels = {}, InitKind init = InitKind::Random)
{
    MethodOptions o;
    o.rank = rank;
    o.algorithm = Algorithm::Mu; // compared with methods built directly, which run the mu rules
    o.generalForm = general;
    o.knownLabels = std::move(labels);
    o.init = init;
    o.initSet = true;
    return makeMethodFactory(method, X, o);
}

std::vector<int> everyFourthLabelled(Eigen::Index n)
{
    std::vector<int> labels(std::size_t(n), -1);
    for (Eigen::Index i = 0; i < n; i += 4)
        labels[std::size_t(i)] = int((i / 4) % 3);
    return labels;
}

} // namespace

class TestGeneralForm : public QObject {
    Q_OBJECT
private slots:
    void forcedEqualsPlain_data();
    void forcedEqualsPlain();
    void explicitSplitEqualsPlain();
    void splitOfImplicitKernel();
    void signedDataMonotone_data();
    void signedDataMonotone();
    void lccfSignedDataMonotone();
    void termsHaveGradientSign();
    void refusesOversizedSplit();
};

void TestGeneralForm::forcedEqualsPlain_data()
{
    QTest::addColumn<QString>("method");
    QTest::newRow("cf") << QStringLiteral("cf");
    QTest::newRow("ccf") << QStringLiteral("ccf");
}

void TestGeneralForm::forcedEqualsPlain()
{
    // K >= 0 and the general form forced: P = (a + sqrt(a^2 + 0)) / 2 = a, the plain rule.
    QFETCH(QString, method);
    for (auto [m, n] : { std::pair { 50, 30 }, std::pair { 20, 45 } }) {
        const Matrix X = plantedProduct(m, n, 4, 0.2, 3);
        const auto labels
            = method == QStringLiteral("ccf") ? everyFourthLabelled(n) : std::vector<int> {};
        const Factorization plain = solve(
            generalFormFactory(method.toStdString(), X, 4, false, labels), fixedIterations(100, 5));
        const Factorization general = solve(
            generalFormFactory(method.toStdString(), X, 4, true, labels), fixedIterations(100, 5));
        QVERIFY(hasNote(general, "general form forced"));
        QVERIFY(!hasNote(plain, "general form"));
        QCOMPARE(general.history.size(), plain.history.size());
        for (std::size_t t = 0; t < plain.history.size(); ++t)
            QVERIFY(std::abs(general.history[t] - plain.history[t]) <= 1e-12 * plain.history[t]);
        QVERIFY(relativeDifference(general.V, plain.V) < 1e-12);
        QVERIFY(relativeDifference(general.W, plain.W) < 1e-12);
    }
}

void TestGeneralForm::explicitSplitEqualsPlain()
{
    // The explicit K+ / K- path with K- = 0 (products through K+ instead of the operator).
    const Matrix X = plantedProduct(30, 25, 3, 0.2, 4);
    const Matrix K = X.transpose() * X;
    const auto gram = Gram::fromMatrix(K);
    CfSettings settings;
    settings.generalForm = std::make_shared<const KernelSplit>(K, Matrix::Zero(25, 25));
    QVERIFY(!settings.generalForm->trivial());
    const MethodFactory plain = [&] { return std::make_unique<Cf>(X, gram, 3); };
    const MethodFactory general = [&] { return std::make_unique<Cf>(X, gram, 3, settings); };
    const Factorization a = solve(plain, fixedIterations(100, 2));
    const Factorization b = solve(general, fixedIterations(100, 2));
    for (std::size_t t = 0; t < a.history.size(); ++t)
        QVERIFY(std::abs(a.history[t] - b.history[t]) <= 1e-12 * a.history[t]);
    QVERIFY(relativeDifference(b.V, a.V) < 1e-10);
}

void TestGeneralForm::splitOfImplicitKernel()
{
    // n > m: K is never formed by the operator; the split forms it blockwise.
    const Matrix X = centred(plantedProduct(20, 600, 3, 0.2, 4));
    const auto gram = Gram::linear(X);
    QVERIFY(!gram->isExplicit());
    QVERIFY(gram->hasNegativeEntries());
    const auto split = KernelSplit::make(*gram, X);
    QVERIFY(!split->trivial());
    const Matrix K = X.transpose() * X;
    QVERIFY((split->plus() - split->minus() - K).norm() < 1e-12 * K.norm());
    QVERIFY(split->plus().minCoeff() >= 0 && split->minus().minCoeff() >= 0);
    QCOMPARE(split->plus().cwiseProduct(split->minus()).cwiseAbs().maxCoeff(), 0.0);
    QVERIFY(KernelSplit::make(*Gram::linear(plantedProduct(5, 8, 2, 0.1, 1)), X)->trivial());
}

void TestGeneralForm::signedDataMonotone_data()
{
    QTest::addColumn<QString>("method");
    QTest::addColumn<int>("m");
    QTest::addColumn<int>("n");
    QTest::newRow("cf, m > n") << QStringLiteral("cf") << 60 << 40;
    QTest::newRow("cf, m < n") << QStringLiteral("cf") << 30 << 80;
    QTest::newRow("ccf, m > n") << QStringLiteral("ccf") << 60 << 40;
    QTest::newRow("ccf, m < n") << QStringLiteral("ccf") << 30 << 80;
}

void TestGeneralForm::signedDataMonotone()
{
    // Mean-centred data: K has negative entries, the general form is chosen by itself. From the
    // random start the objective falls monotonically, but it starts above ||X||^2 and is slow. From
    // the random start the objective falls monotonically, but it starts above ||X||^2 and is slow.
    QFETCH(QString, method);
    QFETCH(int, m);
    QFETCH(int, n);
    const Matrix X = centred(plantedProduct(m, n, 5, 0.3, 7));
    const auto labels
        = method == QStringLiteral("ccf") ? everyFourthLabelled(n) : std::vector<int> {};
    const Factorization f = solve(
        generalFormFactory(method.toStdString(), X, 5, false, labels), fixedIterations(300));
    QVERIFY(hasNote(f, "general form: min(K) < 0"));
    QCOMPARE(f.iterations, 300);
    const QString error = monotoneError(f.history);
    QVERIFY2(error.isEmpty(), qPrintable(error));
    QVERIFY(f.W.minCoeff() >= 0 && f.V.minCoeff() >= 0);
    const double value = (X - f.basis * f.V.transpose()).squaredNorm();
    QVERIFY(std::abs(value - f.history.back()) < 1e-8 * std::max(1.0, value));
    // From the nndsvd start it fits within 300 iterations, far below the ||X||^2 of V = 0 (from
    // the random start the general form gets there too, but needs thousands). CCF's labels here
    // are arbitrary, so its constraint costs some fit.
    const double fit = method == QStringLiteral("ccf") ? 0.35 : 0.2;
    const Factorization g
        = solve(generalFormFactory(method.toStdString(), X, 5, false, labels, InitKind::Nndsvd),
            fixedIterations(300));
    const QString gError = monotoneError(g.history);
    QVERIFY2(gError.isEmpty(), qPrintable(gError));
    QVERIFY2(g.history.back() < fit * X.squaredNorm(),
        qPrintable(QStringLiteral("%1 of %2").arg(g.history.back()).arg(X.squaredNorm())));
}

void TestGeneralForm::lccfSignedDataMonotone()
{
    // LCCF through Cf::configure: Q+ = V W^T K+ W + lambda D V, Q- = V W^T K- W + lambda S V.
    const Matrix X = centred(plantedProduct(30, 60, 4, 0.3, 9));
    const auto gram = Gram::linear(X);
    KnnOptions knn;
    const auto graph = std::make_shared<const Graph>(buildKnnGraph(X, knn));
    CfSettings settings;
    settings.generalForm = KernelSplit::make(*gram, X);
    const MethodFactory make = [&] {
        auto m = std::make_unique<Lccf>(X, gram, graph, 4, 10.0);
        m->configure(settings);
        return m;
    };
    const Factorization f = solve(make, fixedIterations(300, 4));
    const QString error = monotoneError(f.history);
    QVERIFY2(error.isEmpty(), qPrintable(error));
    // The registry wiring (lccfFactory) chooses the general form by itself and builds the same.
    MethodOptions o;
    o.rank = 4;
    MethodContext context;
    const Factorization g = solve(lccfFactory(X, o, context, graph, 10.0), fixedIterations(300, 4));
    QVERIFY(hasNote(g, "general form: min(K) < 0"));
    QCOMPARE(g.history, f.history);
    // lambda = 0: LCCF's general form is CF's.
    const Factorization lccf0
        = solve(lccfFactory(X, o, context, graph, 0.0), fixedIterations(50, 4));
    const Factorization cf = solve(generalFormFactory("cf", X, 4, false), fixedIterations(50, 4));
    QCOMPARE(lccf0.history, cf.history);
    QVERIFY(lccf0.V == cf.V);
}

void TestGeneralForm::termsHaveGradientSign()
{
    // The general rule's N - P is not proportional to the gradient, but has its sign (1.4:
    // P > N iff b - c - a < 0), so the rule moves every entry downhill.
    const Matrix X = centred(plantedProduct(12, 10, 3, 0.2, 5));
    for (const std::string method : { "cf", "ccf" }) {
        std::unique_ptr<Method> m = generalFormFactory(method, X, 3, false)();
        Rng rng(3);
        m->initialize(rng);
        for (int factor = 0; factor < 2; ++factor) {
            const UpdateTerms t = m->updateTerms(factor);
            const Matrix gradient = numericGradient(*m, factor);
            const Matrix difference = t.denominator - t.numerator;
            const double scale = gradient.cwiseAbs().maxCoeff();
            for (Eigen::Index i = 0; i < gradient.size(); ++i) {
                if (std::abs(gradient.data()[i]) < 1e-6 * scale)
                    continue;
                QVERIFY2((gradient.data()[i] > 0) == (difference.data()[i] > 0),
                    qPrintable(QStringLiteral("%1 factor %2 entry %3")
                                   .arg(QString::fromStdString(method))
                                   .arg(factor)
                                   .arg(i)));
            }
        }
    }
}

void TestGeneralForm::refusesOversizedSplit()
{
    try {
        requireDenseFits(30000, 2, "the general form (K+ and K-)");
        QFAIL("accepted 2 x 30000^2 doubles");
    } catch (const std::invalid_argument& e) {
        QVERIFY2(
            QString::fromUtf8(e.what()).contains(QStringLiteral("14400000000 bytes")), e.what());
    }
    requireDenseFits(1000, 2, "small");
}

#include "facet_test.h"
FACET_TEST_APPLESS_MAIN(TestGeneralForm)
#include "test_general_form.moc"
