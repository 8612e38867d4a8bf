// SPDX-License-Identifier: GPL-3.0-or-later
// Missing entries and weights (methods/mask.h, issue 38): the masked objective
// sum W o (X - U V^T)^2 (+ the graph term) keeps the oracles of METHODS.md section 9 for every
// method and algorithm that takes a mask. The objective never increases, the update terms are its
// gradient (finite differences), the projected gradient vanishes where the algorithm stops, a
// mask of ones is the unmasked run bit for bit, a missing entry's value changes nothing, the
// missing entries of a planted low-rank matrix are predicted to the noise level, and the methods
// without a masked route refuse it with the reason.
#include "core/driver.h"
#include "experiment/run.h"
#include "method_checks.h"
#include "methods/mask.h"
#include "methods/registry.h"

#include <QtTest>

#include <limits>

using namespace facet;
using namespace facet::testing;
using Index = Eigen::Index;

namespace {

// 0/1 mask with about `missing` of the entries 0, seeded.
Matrix randomMask(Index m, Index n, double missing, std::uint64_t seed)
{
    Rng rng(seed);
    Matrix M(m, n);
    for (Index i = 0; i < M.size(); ++i)
        M.data()[i] = rng.uniform() < missing ? Scalar(0) : Scalar(1);
    return M;
}

MethodOptions maskOptions(
    const std::string& method, Algorithm algorithm, Index n, std::shared_ptr<const Matrix> weights)
{
    MethodOptions o;
    o.rank = 3;
    o.algorithm = algorithm;
    o.lambda = 0.5;
    o.weights = std::move(weights);
    if (method == "semignmf" || method == "cnmf") {
        o.knownLabels.assign(std::size_t(n), -1);
        for (Index i = 0; i < n; i += 4)
            o.knownLabels[std::size_t(i)] = int(i % 3);
    }
    return o;
}

// Every (method, algorithm) pair with a masked route.
void addMaskedRoutes()
{
    QTest::addColumn<QString>("method");
    QTest::addColumn<QString>("algorithm");
    for (const char* method : { "nmf", "gnmf", "semignmf", "cnmf" })
        for (const char* algorithm : { "mu", "hals", "mu-ex", "hals-ex" }) {
            if (std::string(method) == "cnmf" && algorithm[0] == 'h')
                continue; // CNMF has the multiplicative rules only
            QTest::newRow((std::string(method) + " " + algorithm).c_str())
                << QString::fromLatin1(method) << QString::fromLatin1(algorithm);
        }
}

Algorithm algorithmOf(const QString& name)
{
    return *parseAlgorithm(name.toStdString());
}

} // namespace

class TestMasks : public QObject {
    Q_OBJECT
private slots:
    void monotone_data() { addMaskedRoutes(); }
    void monotone();
    void gradient_data() { addMaskedRoutes(); }
    void gradient();
    void stationaryWhereItStops();
    void onesAreNoMask_data() { addMaskedRoutes(); }
    void onesAreNoMask();
    void missingValuesNotRead_data() { addMaskedRoutes(); }
    void missingValuesNotRead();
    void predictsHeldOutEntries();
    void refusals();
};

void TestMasks::monotone()
{
    // 30 % missing and, on the other entries, weights in (0, 2]: the weighted objective never
    // increases.
    QFETCH(QString, method);
    QFETCH(QString, algorithm);
    const Matrix X = plantedProduct(40, 30, 3, 0.05, 1);
    Matrix W = randomMask(40, 30, 0.3, 2);
    Rng rng(3);
    W.array() *= 2 * (1 - rng.uniformMatrix(40, 30).array());
    const auto o = maskOptions(
        method.toStdString(), algorithmOf(algorithm), 30, std::make_shared<const Matrix>(W));
    const Factorization f
        = solve(makeMethodFactory(method.toStdString(), X, o), fixedIterations(120, 4));
    // fixedIterations' tol = 0 still stops a run whose objective rose over the last 10
    // iterations: a run that reached its rounding floor (nmf hals-ex does here under clang's
    // -O1) may end a step early on a rise of one ulp, which verifyMonotone tolerates. Any other
    // early stop fails.
    const bool full = f.iterations == 120;
    const bool atFloor = f.iterations >= 100 && f.stopReason == StopReason::Converged
        && f.history.back() >= f.history[f.history.size() - 11]
        && f.history.back() <= f.history[f.history.size() - 11] * (1 + 1e-12);
    QVERIFY2(full || atFloor, qPrintable(QStringLiteral("stopped after %1").arg(f.iterations)));
    verifyMonotone(f.history);
    QVERIFY(f.V.allFinite() && f.basis.allFinite());
}

void TestMasks::gradient()
{
    // N - P of the masked rules is half the weighted objective's gradient, graph term included.
    if constexpr (std::is_same_v<Scalar, float>)
        QSKIP("finite differences need double");
    QFETCH(QString, method);
    QFETCH(QString, algorithm);
    const Matrix X = plantedProduct(12, 10, 3, 0.05, 5);
    const auto o = maskOptions(method.toStdString(), algorithmOf(algorithm), 10,
        std::make_shared<const Matrix>(randomMask(12, 10, 0.3, 6)));
    std::unique_ptr<Method> m = makeMethodFactory(method.toStdString(), X, o)();
    Rng rng(7);
    m->initialize(rng);
    for (int t = 0; t < 3; ++t)
        m->step();
    const QString error = gradientError(*m, 2.0);
    QVERIFY2(error.isEmpty(), qPrintable(error));
}

void TestMasks::stationaryWhereItStops()
{
    // Where masked hals (and mu, slower) stop moving, the masked projected gradient vanishes;
    // the gradient test above ties these terms to the objective's finite differences.
    const Matrix X = plantedProduct(20, 16, 3, 0.05, 8);
    const auto W = std::make_shared<const Matrix>(randomMask(20, 16, 0.3, 9));
    const std::pair<const char*, Algorithm> runs[]
        = { { "nmf", Algorithm::Hals }, { "nmf", Algorithm::Mu }, { "cnmf", Algorithm::Mu } };
    for (const auto& [method, algorithm] : runs) {
        MethodOptions o = maskOptions(method, algorithm, 16, W);
        std::unique_ptr<Method> m = makeMethodFactory(method, X, o)();
        Rng rng(2);
        m->initialize(rng);
        for (int t = 0; t < (algorithm == Algorithm::Hals ? 3000 : 20000); ++t)
            m->step();
        const std::vector<Matrix> point = m->state();
        for (int factor = 0; factor < 2; ++factor) {
            const double violation
                = kktViolation(point[std::size_t(factor)], m->updateTerms(factor));
            QVERIFY2(violation < (algorithm == Algorithm::Hals ? 1e-6 : 1e-3),
                qPrintable(QStringLiteral("%1 %2 factor %3: KKT violation %4")
                               .arg(method)
                               .arg(QString::fromLatin1(algorithmName(algorithm)))
                               .arg(factor)
                               .arg(violation)));
        }
    }
}

void TestMasks::onesAreNoMask()
{
    // A mask of ones is detected and is no mask: the same bits as the unmasked run.
    QFETCH(QString, method);
    QFETCH(QString, algorithm);
    const Matrix X = plantedProduct(40, 30, 3, 0.05, 10);
    const std::string name = method.toStdString();
    const auto plain = maskOptions(name, algorithmOf(algorithm), 30, nullptr);
    const auto ones = maskOptions(
        name, algorithmOf(algorithm), 30, std::make_shared<const Matrix>(Matrix::Ones(40, 30)));
    const Factorization a = solve(makeMethodFactory(name, X, plain), fixedIterations(40, 11));
    const Factorization b = solve(makeMethodFactory(name, X, ones), fixedIterations(40, 11));
    QVERIFY(a.V == b.V);
    QVERIFY(a.basis == b.basis);
    QCOMPARE(a.history, b.history);
}

void TestMasks::missingValuesNotRead()
{
    // The values under weight 0 (NaN, huge, negative) change nothing, from a random start and from
    // one that reads the data (nndsvd; the k-means start for GNMF's graph too).
    QFETCH(QString, method);
    QFETCH(QString, algorithm);
    const Matrix X = plantedProduct(40, 30, 3, 0.05, 12);
    const Matrix W = randomMask(40, 30, 0.3, 13);
    Matrix garbage = X;
    Rng rng(14);
    for (Index i = 0; i < X.size(); ++i)
        if (W.data()[i] == 0)
            garbage.data()[i] = i % 3 == 0 ? std::numeric_limits<Scalar>::quiet_NaN()
                                           : Scalar(i % 3 == 1 ? 1e6 : -5 * rng.uniform());
    const std::string name = method.toStdString();
    for (const InitKind init : { InitKind::Random, InitKind::Nndsvd }) {
        auto o = maskOptions(name, algorithmOf(algorithm), 30, std::make_shared<const Matrix>(W));
        o.init = init;
        const Factorization a = solve(makeMethodFactory(name, X, o), fixedIterations(30, 15));
        const Factorization b = solve(makeMethodFactory(name, garbage, o), fixedIterations(30, 15));
        QVERIFY(a.V == b.V);
        QVERIFY(a.basis == b.basis);
        QCOMPARE(a.history, b.history);
    }
}

void TestMasks::predictsHeldOutEntries()
{
    // The test that can fail: X = U V^T + noise with 30 % of the entries missing; the masked
    // factorization predicts the missing entries of U V^T to within the noise level (relative
    // RMSE), where filling them from the row means does several times worse.
    const Matrix clean = plantedProduct(40, 30, 3, 0, 16);
    Rng rng(17);
    const Matrix X = clean + 0.02 * rng.uniformMatrix(40, 30); // non-negative noise
    const Matrix W = randomMask(40, 30, 0.3, 18);
    const double noiseLevel = double((X - clean).norm()) / std::sqrt(double(X.size())); // RMS
    for (const Algorithm algorithm : { Algorithm::Hals, Algorithm::Mu }) {
        RunOptions run;
        run.method = "nmf";
        run.params = maskOptions("nmf", algorithm, 30, std::make_shared<const Matrix>(W));
        run.driver.maxIter = algorithm == Algorithm::Hals ? 3000 : 20000;
        run.driver.tol = 1e-12;
        run.driver.replicates = 4;
        run.driver.seed = 19;
        const RunResult r = runAndCluster(X, {}, run);
        const Matrix R = r.factorization.basis * r.factorization.V.transpose();
        double err2 = 0, fill2 = 0;
        Index missing = 0;
        const Matrix filled = prepareMask(X, W)->filled;
        for (Index i = 0; i < X.size(); ++i)
            if (W.data()[i] == 0) {
                err2 += std::pow(double(R.data()[i] - clean.data()[i]), 2);
                fill2 += std::pow(double(filled.data()[i] - clean.data()[i]), 2);
                ++missing;
            }
        const double rmse = std::sqrt(err2 / double(missing));
        const double fillRmse = std::sqrt(fill2 / double(missing));
        QVERIFY2(rmse < 1.5 * noiseLevel,
            qPrintable(
                QStringLiteral("%1: RMSE at the missing entries %2, noise %3, row-mean fill %4")
                    .arg(QString::fromLatin1(algorithmName(algorithm)))
                    .arg(rmse)
                    .arg(noiseLevel)
                    .arg(fillRmse)));
        QVERIFY(fillRmse > 5 * rmse);
        QVERIFY(r.reconstructionError < 0.05); // over the observed entries
    }
}

void TestMasks::refusals()
{
    const Matrix X = plantedProduct(20, 16, 3, 0.05, 20);
    const auto W = std::make_shared<const Matrix>(randomMask(20, 16, 0.3, 21));
    for (const char* method : { "cf", "lccf", "lcf", "ccf", "cf-ogl" }) {
        MethodOptions o = maskOptions(method, Algorithm::Mu, 16, W);
        o.algorithm.reset();
        try {
            (void)makeMethodFactory(method, X, o);
            QFAIL(method);
        } catch (const std::invalid_argument& e) {
            QVERIFY2(std::string(e.what()).find("K = X^T X") != std::string::npos, e.what());
        }
    }
    for (const char* method : { "kmeans", "pca" }) {
        RunOptions run;
        run.method = method;
        run.params.rank = 3;
        run.params.weights = W;
        try {
            (void)runAndCluster(X, {}, run);
            QFAIL(method);
        } catch (const std::invalid_argument& e) {
            QVERIFY2(std::string(e.what()).find("whole samples") != std::string::npos, e.what());
        }
    }
    // The weights themselves.
    const auto refusedWith = [&](Matrix weights, const Matrix& data, const char* text) {
        MethodOptions o = maskOptions("nmf", Algorithm::Mu, 16, nullptr);
        o.weights = std::make_shared<const Matrix>(std::move(weights));
        try {
            (void)makeMethodFactory("nmf", data, o);
            QFAIL(text);
        } catch (const std::invalid_argument& e) {
            QVERIFY2(std::string(e.what()).find(text) != std::string::npos, e.what());
        }
    };
    refusedWith(Matrix::Ones(16, 20), X, "the mask is 16 x 20 but the data is 20 x 16");
    Matrix negative = *W;
    negative(3, 4) = -1;
    refusedWith(negative, X, "finite and >= 0; sample 5, feature 4");
    Matrix nan = *W;
    nan(2, 2) = std::numeric_limits<Scalar>::quiet_NaN();
    refusedWith(nan, X, "finite and >= 0");
    refusedWith(Matrix::Zero(20, 16), X, "every entry missing");
    Matrix observedNan = X;
    observedNan(0, 0) = std::numeric_limits<Scalar>::quiet_NaN();
    refusedWith(Matrix::Ones(20, 16), observedNan, "mark it missing");
    MethodOptions ncw = maskOptions("nmf", Algorithm::Mu, 16, W);
    ncw.ncw = true;
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, (void)makeMethodFactory("nmf", X, ncw));
}

#include "facet_test.h"
FACET_TEST_APPLESS_MAIN(TestMasks)
#include "test_masks.moc"
