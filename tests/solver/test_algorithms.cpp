// SPDX-License-Identifier: GPL-3.0-or-later
// The algorithms other than the papers' multiplicative rules (METHODS.md section 9,
// core/algorithm.h): each keeps the oracles of the mu rules. The objective never increases, the
// projected gradient vanishes where the algorithm stops moving, lambda = 0 is the plain
// method's algorithm bit for bit, a seed gives the same factors, a preset stop cancels with
// finite factors, and a method without the route refuses it by name.
#include "core/driver.h"
#include "method_checks.h"
#include "methods/hals.h"
#include "methods/registry.h"

#include <QtTest>

#include <stop_token>

using namespace facet;
using namespace facet::testing;
using Index = Eigen::Index;

namespace {

// c clusters of n / c samples (method_checks.h), their classes in `truth`.
Matrix clusteredSamples(Index m, Index n, int c, std::uint64_t seed, std::vector<int>& truth)
{
    truth.clear();
    return clustered(m, n, c, seed, &truth);
}

MethodOptions algorithmOptions(
    const QString& method, int rank, Algorithm algorithm, const std::vector<int>& truth)
{
    MethodOptions o;
    o.rank = rank;
    o.algorithm = algorithm;
    if (method == u"semignmf" || method == u"cnmf" || method == u"ccf") {
        o.knownLabels.assign(truth.size(), -1);
        for (std::size_t i = 0; i < truth.size(); i += 3)
            o.knownLabels[i] = truth[i];
    }
    return o;
}

} // namespace

class TestAlgorithms : public QObject {
    Q_OBJECT
private slots:
    void sweepBudget();
    void monotone_data();
    void monotone();
    void stationaryWhereItStops_data();
    void stationaryWhereItStops();
    void lambdaZeroIsNmf();
    void sameSeedSameFactors();
    void presetStopCancels();
    void fewerIterationsThanMu();
    void extrapolationAheadOfItsRule_data();
    void extrapolationAheadOfItsRule();
    void stationarityRuleStops();
    void refusedWhereThereIsNoRoute();
};

void TestAlgorithms::sweepBudget()
{
    // floor(1 + alpha rho), clamped to [1, 100] (Gillis & Glineur 2012).
    QCOMPARE(halsSweepBudget(1000, 100), 6);
    QCOMPARE(halsSweepBudget(1000, 100, 1.0), 11);
    QCOMPARE(halsSweepBudget(10, 100), 1);
    QCOMPARE(halsSweepBudget(1e9, 1), 100);
    QCOMPARE(halsSweepBudget(1000, 0), 1);
}

void TestAlgorithms::monotone_data()
{
    QTest::addColumn<QString>("method");
    QTest::addColumn<int>("m");
    QTest::addColumn<int>("n");
    QTest::addColumn<QString>("algorithm");
    // Rows and samples past one row block (kHalsRowBlock = 64) and below it.
    QTest::newRow("nmf tall") << QStringLiteral("nmf") << 150 << 40 << QStringLiteral("hals");
    QTest::newRow("nmf wide") << QStringLiteral("nmf") << 30 << 140 << QStringLiteral("hals");
    QTest::newRow("gnmf") << QStringLiteral("gnmf") << 30 << 140 << QStringLiteral("hals");
    QTest::newRow("semignmf") << QStringLiteral("semignmf") << 40 << 90 << QStringLiteral("hals");
    // The extrapolated variants count the accepted iterates (core/extrapolation.h).
    QTest::newRow("nmf hals-ex") << QStringLiteral("nmf") << 150 << 40 << QStringLiteral("hals-ex");
    QTest::newRow("gnmf hals-ex") << QStringLiteral("gnmf") << 30 << 140
                                  << QStringLiteral("hals-ex");
    for (const char* method : { "nmf", "cf", "lccf", "lcf", "cnmf", "ccf", "gnmf", "semignmf" })
        QTest::newRow(qPrintable(QStringLiteral("%1 mu-ex").arg(QString::fromLatin1(method))))
            << QString::fromLatin1(method) << 40 << 90 << QStringLiteral("mu-ex");
}

void TestAlgorithms::monotone()
{
    QFETCH(QString, method);
    QFETCH(int, m);
    QFETCH(int, n);
    QFETCH(QString, algorithm);
    std::vector<int> truth;
    const Matrix X = clusteredSamples(m, n, 4, 5, truth);
    const MethodOptions o
        = algorithmOptions(method, 6, *parseAlgorithm(algorithm.toStdString()), truth);
    const Factorization f
        = solve(makeMethodFactory(method.toStdString(), X, o), fixedIterations(150, 3));
    QCOMPARE(f.iterations, 150);
    verifyMonotone(f.history);
    QVERIFY(f.V.allFinite() && (f.V.array() >= 0).all());
    QVERIFY(f.basis.allFinite() && (f.basis.array() >= 0).all());
    QCOMPARE(int(f.times.size()), 150);
    QVERIFY(std::is_sorted(f.times.begin(), f.times.end()));
}

void TestAlgorithms::stationaryWhereItStops_data()
{
    QTest::addColumn<QString>("method");
    QTest::newRow("nmf") << QStringLiteral("nmf");
    // Not GNMF: its objective falls without end along U s, V / s (the graph term scales with
    // 1 / s^2, the product not at all), so it has no stationary point to reach in general
    // (docs/algorithms.md).
}

void TestAlgorithms::stationaryWhereItStops()
{
    // Where hals stops moving, the projected gradient of the objective (the mu rule's N - P, which
    // the finite-difference oracle checks against the objective) vanishes: a KKT point of the
    // same objective, reached without the multiplicative rules. Checked on the method's own
    // iterate (the final normalization rescales V, which moves the graph term's minimizer).
    QFETCH(QString, method);
    std::vector<int> truth;
    const Matrix X = clusteredSamples(20, 30, 3, 11, truth);
    MethodOptions o = algorithmOptions(method, 3, Algorithm::Hals, truth);
    o.lambda = 0.5;
    std::unique_ptr<Method> hals = makeMethodFactory(method.toStdString(), X, o)();
    Rng rng(2);
    hals->initialize(rng);
    for (int t = 0; t < 3000; ++t)
        hals->step();
    const std::vector<Matrix> point = hals->state();
    for (int factor = 0; factor < 2; ++factor) {
        const double violation
            = kktViolation(point[std::size_t(factor)], hals->updateTerms(factor));
        QVERIFY2(violation < 1e-6,
            qPrintable(QStringLiteral("factor %1: KKT violation %2").arg(factor).arg(violation)));
    }
}

void TestAlgorithms::lambdaZeroIsNmf()
{
    std::vector<int> truth;
    const Matrix X = clusteredSamples(30, 80, 3, 4, truth);
    for (const Algorithm algorithm : { Algorithm::Hals, Algorithm::HalsEx, Algorithm::MuEx }) {
        MethodOptions o = algorithmOptions(QStringLiteral("gnmf"), 4, algorithm, truth);
        o.lambda = 0.0;
        const Factorization gnmf = solve(makeMethodFactory("gnmf", X, o), fixedIterations(60, 8));
        const Factorization nmf = solve(makeMethodFactory("nmf", X, o), fixedIterations(60, 8));
        QVERIFY(gnmf.V == nmf.V);
        QVERIFY(gnmf.basis == nmf.basis);
        QCOMPARE(gnmf.history, nmf.history);
    }
    // LCCF with lambda = 0 is CF, extrapolation included.
    MethodOptions o = algorithmOptions(QStringLiteral("lccf"), 4, Algorithm::MuEx, truth);
    o.lambda = 0.0;
    const Factorization lccf = solve(makeMethodFactory("lccf", X, o), fixedIterations(60, 8));
    const Factorization cf = solve(makeMethodFactory("cf", X, o), fixedIterations(60, 8));
    QVERIFY(relativeDifference(lccf.V, cf.V) < 1e-10);
    QVERIFY(relativeDifference(lccf.W, cf.W) < 1e-10);
}

void TestAlgorithms::sameSeedSameFactors()
{
    std::vector<int> truth;
    const Matrix X = clusteredSamples(70, 90, 3, 6, truth);
    const std::pair<const char*, Algorithm> runs[] = { { "nmf", Algorithm::Hals },
        { "gnmf", Algorithm::Hals }, { "nmf", Algorithm::HalsEx }, { "cf", Algorithm::MuEx } };
    for (const auto& [method, algorithm] : runs) {
        const MethodOptions o = algorithmOptions(QString::fromLatin1(method), 5, algorithm, truth);
        DriverOptions d = fixedIterations(40, 17);
        d.replicates = 2;
        const Factorization a = solve(makeMethodFactory(method, X, o), d);
        const Factorization b = solve(makeMethodFactory(method, X, o), d);
        QVERIFY(a.V == b.V);
        QVERIFY(a.basis == b.basis);
        QCOMPARE(a.history, b.history);
    }
}

void TestAlgorithms::presetStopCancels()
{
    std::vector<int> truth;
    const Matrix X = clusteredSamples(30, 50, 3, 6, truth);
    std::stop_source source;
    source.request_stop();
    SolveControl control;
    control.stop = source.get_token();
    for (const auto& [method, algorithm] : { std::pair { "gnmf", Algorithm::Hals },
             std::pair { "gnmf", Algorithm::HalsEx }, std::pair { "lccf", Algorithm::MuEx } }) {
        const MethodOptions o = algorithmOptions(QString::fromLatin1(method), 3, algorithm, truth);
        const Factorization f
            = solve(makeMethodFactory(method, X, o), fixedIterations(50), control);
        QCOMPARE(f.stopReason, StopReason::Cancelled);
        QCOMPARE(f.iterations, 0);
        QVERIFY(f.V.allFinite() && f.basis.allFinite());
    }
}

void TestAlgorithms::fewerIterationsThanMu()
{
    // The reason the algorithm exists: from the same start, 100 hals iterations of NMF end below
    // 1,000 of the multiplicative rules; GNMF's end below as many (100) multiplicative ones.
    std::vector<int> truth;
    const Matrix X = plantedProduct(60, 120, 8, 0.05, 9);
    for (const char* method : { "nmf", "gnmf" }) {
        MethodOptions o = algorithmOptions(QString::fromLatin1(method), 8, Algorithm::Mu, truth);
        o.lambda = 1.0;
        const int muIterations = std::string(method) == "nmf" ? 1000 : 100;
        const Factorization mu
            = solve(makeMethodFactory(method, X, o), fixedIterations(muIterations, 1));
        o.algorithm = Algorithm::Hals;
        const Factorization hals = solve(makeMethodFactory(method, X, o), fixedIterations(100, 1));
        QVERIFY2(hals.history.back() < mu.history.back(),
            qPrintable(QStringLiteral("%1: hals %2 after 100, mu %3 after %4")
                           .arg(QString::fromLatin1(method))
                           .arg(hals.history.back(), 0, 'g', 10)
                           .arg(mu.history.back(), 0, 'g', 10)
                           .arg(muIterations)));
    }
}

void TestAlgorithms::extrapolationAheadOfItsRule_data()
{
    QTest::addColumn<QString>("method");
    QTest::addColumn<QString>("algorithm");
    for (const char* method : { "nmf", "cf", "lccf", "cnmf" })
        QTest::newRow(method) << QString::fromLatin1(method) << QStringLiteral("mu-ex");
    QTest::newRow("nmf hals-ex") << QStringLiteral("nmf") << QStringLiteral("hals-ex");
}

void TestAlgorithms::extrapolationAheadOfItsRule()
{
    // From the same start and for as many accepted iterations, the extrapolated variant ends
    // below its plain rule (a discarded step is retaken from the accepted point, so it can only
    // be behind where every extrapolation failed), and says how many it discarded.
    QFETCH(QString, method);
    QFETCH(QString, algorithm);
    std::vector<int> truth;
    const Matrix X = clusteredSamples(50, 120, 4, 23, truth);
    const Algorithm fast = *parseAlgorithm(algorithm.toStdString());
    MethodOptions o = algorithmOptions(method, 5, baseAlgorithm(fast), truth);
    o.lambda = 1.0;
    const Factorization plain
        = solve(makeMethodFactory(method.toStdString(), X, o), fixedIterations(300, 3));
    o.algorithm = fast;
    const Factorization ex
        = solve(makeMethodFactory(method.toStdString(), X, o), fixedIterations(300, 3));
    QVERIFY2(ex.history.back() < plain.history.back(),
        qPrintable(QStringLiteral("%1: %2 after 300, plain %3")
                       .arg(algorithm)
                       .arg(ex.history.back(), 0, 'g', 10)
                       .arg(plain.history.back(), 0, 'g', 10)));
    QVERIFY(hasNote(ex, "extrapolation (Ang & Gillis 2019)"));
    QVERIFY(!hasNote(plain, "extrapolation"));
}

void TestAlgorithms::stationarityRuleStops()
{
    // With the relative-decrease rule off (tol 0), hals stops by its optimality violation and
    // says so; mu does not measure one. The violation at the stop is below the
    // tolerance times the first iteration's, so the KKT conditions nearly hold there.
    std::vector<int> truth;
    const Matrix X = clusteredSamples(40, 60, 3, 21, truth);
    for (const Algorithm algorithm : { Algorithm::Hals, Algorithm::Mu }) {
        const MethodOptions o = algorithmOptions(QStringLiteral("nmf"), 3, algorithm, truth);
        DriverOptions d = fixedIterations(5000, 2);
        d.stationarityTol = 1e-5;
        const Factorization f = solve(makeMethodFactory("nmf", X, o), d);
        if (algorithm == Algorithm::Mu) {
            // (It may still settle to rounding, where tol 0's window sees no decrease at all.)
            QVERIFY(f.stopRule != "stationarity");
            continue;
        }
        QCOMPARE(f.stopReason, StopReason::Converged);
        QCOMPARE(f.stopRule, std::string("stationarity"));
        QVERIFY2(f.iterations < 5000, qPrintable(QString::number(f.iterations)));
        verifyMonotone(f.history);
    }
    DriverOptions bad = fixedIterations(5);
    bad.stationarityTol = -1;
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument,
        solve(makeMethodFactory(
                  "nmf", X, algorithmOptions(QStringLiteral("nmf"), 3, Algorithm::Hals, truth)),
            bad));
}

void TestAlgorithms::refusedWhereThereIsNoRoute()
{
    const Matrix X = plantedProduct(10, 20, 2, 0.1, 1);
    MethodOptions o;
    o.rank = 2;
    o.algorithm = Algorithm::Hals;
    for (const char* method : { "cf", "lccf", "lcf", "cnmf", "ccf", "cf-ogl" }) {
        try {
            (void)makeMethodFactory(method, X, o);
            QFAIL(qPrintable(QStringLiteral("%1 accepted hals").arg(QString::fromLatin1(method))));
        } catch (const std::invalid_argument& e) {
            const std::string text = e.what();
            QVERIFY2(text.find("hals") != std::string::npos
                    && text.find(std::string(method) + " runs the multiplicative rules")
                        != std::string::npos,
                e.what());
        }
    }
    o.algorithm = Algorithm::Mu; // every method has the papers' rules
    for (const char* method : { "nmf", "cf", "lcf" })
        QVERIFY(makeMethodFactory(method, X, o) != nullptr);
    QCOMPARE(parseAlgorithm("hals"), std::optional<Algorithm>(Algorithm::Hals));
    QCOMPARE(parseAlgorithm("mu-ex"), std::optional<Algorithm>(Algorithm::MuEx));
    QCOMPARE(parseAlgorithm("hals-ex"), std::optional<Algorithm>(Algorithm::HalsEx));
    // Every method but CF_OGL takes the extrapolated rules; CF_OGL says why not.
    o.algorithm = Algorithm::MuEx;
    for (const char* method : { "nmf", "cf", "lccf", "lcf", "cnmf", "ccf", "gnmf" })
        QVERIFY(makeMethodFactory(method, X, o) != nullptr);
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, makeMethodFactory("cf-ogl", X, o));
    QCOMPARE(parseAlgorithm("HALS"), std::optional<Algorithm>());
}

#include "facet_test.h"
FACET_TEST_APPLESS_MAIN(TestAlgorithms)
#include "test_algorithms.moc"
