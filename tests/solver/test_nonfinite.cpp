// SPDX-License-Identifier: GPL-3.0-or-later
// Non-finite numbers through every method (RELIABILITY.md): NaN or Inf in the data is refused
// with the sample and feature named; an objective that overflows mid-run stops with NonFinite
// and keeps the factors of the last finite iteration, exactly those a run cut off there returns;
// a cancel at any iteration gives the factors a run of that many iterations gives.
#include "core/driver.h"
#include "core/update.h"
#include "experiment/run.h"

#include "test_printers.h"

#include <QtTest>

#include <cmath>
#include <limits>
#include <stdexcept>

using namespace facet;

namespace {

constexpr Eigen::Index kFeatures = 12, kSamples = 18;

// Three planted groups of six samples, non-negative, seeded.
Matrix plantedData(std::uint64_t seed)
{
    Rng rng(seed);
    Matrix X = rng.uniformMatrix(kFeatures, kSamples) * Scalar(0.1);
    for (Eigen::Index j = 0; j < kSamples; ++j)
        X.block(4 * (j / 6), j, 4, 1).array() += Scalar(1);
    return X;
}

std::vector<int> plantedLabels()
{
    std::vector<int> labels;
    for (Eigen::Index j = 0; j < kSamples; ++j)
        labels.push_back(int(j / 6));
    return labels;
}

RunOptions optionsFor(const std::string& method, int maxIter)
{
    RunOptions o;
    o.method = method;
    o.params.rank = 3;
    o.params.p = 3;
    o.driver.maxIter = maxIter;
    o.driver.minIter = 1;
    o.driver.tol = 0;
    o.driver.seed = 7;
    o.cluster.replicates = 2;
    if (findMethod(method)->semiSupervised)
        o.labeledFraction = 0.34;
    return o;
}

void addMethodRows(bool baselines = false)
{
    QTest::addColumn<QString>("method");
    for (const MethodInfo& m : methodCatalog())
        if (baselines || !m.baseline)
            QTest::newRow(m.name.c_str()) << QString::fromStdString(m.name);
}

bool finite(const Factorization& f)
{
    for (double h : f.history)
        if (!std::isfinite(h))
            return false;
    return f.basis.allFinite() && f.V.allFinite() && f.W.allFinite();
}

// A method whose factor grows by 1e60 per step: the objective ||V||^2 is finite after steps 1
// and 2 (entries 1e60, 1e120) and overflows at step 3 (1e180 squared), in the middle of a run.
class Exploding final : public Method {
public:
    std::string_view name() const override { return "exploding"; }
    void initialize(Rng& rng) override { m_V = rng.uniformMatrix(kSamples, 3).array() + 1; }
    void step() override { m_V *= Scalar(1e60); }
    double objective() const override { return double(m_V.squaredNorm()); }
    UpdateTerms updateTerms(int) const override { return {}; }
    std::vector<Matrix> state() const override { return { m_V }; }
    void restore(const std::vector<Matrix>& s) override { m_V = s.at(0); }
    void exportTo(Factorization& out) const override { out.V = m_V; }

private:
    Matrix m_V;
};

} // namespace

class TestNonFinite : public QObject {
    Q_OBJECT

private Q_SLOTS:
    // The baselines too: PCA finds them through its covariance's sums (no pass of its own) and
    // then places them.
    void nonFiniteDataIsRefused_data() { addMethodRows(true); }
    void nonFiniteDataIsRefused()
    {
        QFETCH(QString, method);
        for (const double bad :
            { std::numeric_limits<double>::quiet_NaN(), std::numeric_limits<double>::infinity(),
                -std::numeric_limits<double>::infinity() }) {
            Matrix X = plantedData(1);
            X(4, 9) = Scalar(bad); // feature 5 of sample 10
            try {
                runAndCluster(X, plantedLabels(), optionsFor(method.toStdString(), 20));
                QFAIL(
                    qPrintable(QStringLiteral("%1 accepted %2 in the data").arg(method).arg(bad)));
            } catch (const std::invalid_argument& e) {
                const QString message = QString::fromStdString(e.what());
                QVERIFY2(message.contains(QStringLiteral("sample 10")), qPrintable(message));
                QVERIFY2(message.contains(QStringLiteral("feature 5")), qPrintable(message));
            }
        }
    }

    // Data no factorization can start from (issue 36, item 12), every method and the baselines:
    // all zeros, and values whose squares underflow (1e-310, denormal), gave NMF and CF an
    // objective of 0 without a word and PCA Spectra's "TridiagEigen: eigen decomposition
    // failed"; constant data gave PCA "converged", a negative objective and identical
    // components. Each is refused, saying what is wrong with the data.
    void degenerateDataIsRefused_data()
    {
        QTest::addColumn<QString>("method");
        QTest::addColumn<QString>("kind");
        for (const MethodInfo& m : methodCatalog())
            for (const char* kind : { "zeros", "denormal" })
                QTest::newRow((m.name + ", " + kind).c_str())
                    << QString::fromStdString(m.name) << QString::fromLatin1(kind);
        QTest::newRow("pca, constant") << QStringLiteral("pca") << QStringLiteral("constant");
        QTest::newRow("pca, constant, Lanczos")
            << QStringLiteral("pca") << QStringLiteral("constant, wide");
    }
    void degenerateDataIsRefused()
    {
        QFETCH(QString, method);
        QFETCH(QString, kind);
        const Matrix X = kind == u"zeros" ? Matrix(Matrix::Zero(kFeatures, kSamples))
            : kind == u"denormal"         ? Matrix(plantedData(1) * Scalar(1e-310))
            : kind == u"constant" ? Matrix(Matrix::Constant(kFeatures, kSamples, Scalar(0.7)))
                                  : Matrix(Matrix::Constant(200, 300, Scalar(255)));
        std::vector<int> labels = plantedLabels();
        RunOptions options = optionsFor(method.toStdString(), 20);
        if (X.cols() != kSamples) {
            labels.assign(std::size_t(X.cols()), 0);
            for (std::size_t j = 0; j < labels.size(); ++j)
                labels[j] = int(j % 3);
            options.params.rank = 15; // the order 200 covariance goes to Lanczos
        }
        const QString needle = kind == u"zeros" ? QStringLiteral("the data is all zeros")
            : kind == u"denormal"               ? QStringLiteral("too small to compute with")
                                                : QStringLiteral("the data is constant");
        try {
            const RunResult result = runAndCluster(X, labels, options);
            QFAIL(qPrintable(
                QStringLiteral("%1 accepted %2 data: %3 after %4 iterations")
                    .arg(method, kind,
                        QString::fromLatin1(stopReasonName(result.factorization.stopReason)))
                    .arg(result.factorization.iterations)));
        } catch (const std::invalid_argument& e) {
            QVERIFY2(QString::fromUtf8(e.what()).contains(needle), e.what());
        }
    }

    // allFiniteParallel past its parallel threshold (m n > 1e6) and through a strided block:
    // each bad value is found wherever it sits (the last column of the second thread's share,
    // the first entry), and values outside the block are not read.
    void allFiniteOnLargeAndStridedData()
    {
        Matrix X = Matrix::Constant(1031, 1100, Scalar(0.5));
        X(0, 0) = -Scalar(0); // -0 and the extremes of the range are finite
        X(1, 0) = std::numeric_limits<Scalar>::denorm_min();
        X(2, 0) = std::numeric_limits<Scalar>::max();
        X(3, 0) = std::numeric_limits<Scalar>::lowest();
        QVERIFY(allFiniteParallel(X));
        for (const Scalar bad :
            { std::numeric_limits<Scalar>::quiet_NaN(), std::numeric_limits<Scalar>::infinity(),
                -std::numeric_limits<Scalar>::infinity() })
            for (const auto& [row, col] :
                { std::pair<Eigen::Index, Eigen::Index> { 1030, 1099 }, { 0, 0 }, { 517, 600 } }) {
                Matrix Y = X;
                Y(row, col) = bad;
                QVERIFY2(!allFiniteParallel(Y),
                    qPrintable(QStringLiteral("(%1, %2) = %3").arg(row).arg(col).arg(double(bad))));
            }
        Matrix Y = X;
        Y(1030, 700) = std::numeric_limits<Scalar>::quiet_NaN(); // outside the block below
        Y(5, 1099) = std::numeric_limits<Scalar>::infinity();
        QVERIFY(allFiniteParallel(Y.block(0, 0, 1030, 1099)));
        QVERIFY(!allFiniteParallel(Y.block(0, 1, 1030, 1099)));
        QVERIFY(!allFiniteParallel(Y.block(1, 500, 1030, 300)));
        QVERIFY(allFiniteParallel(Matrix(0, 5)));
        QVERIFY(allFiniteParallel(Matrix(5, 0)));
    }

    // PCA with more features than samples (its Gram matrix is X^T X): a NaN is still placed.
    void pcaWideDataNonFiniteIsRefused()
    {
        Matrix X = plantedData(1).transpose(); // 18 features, 12 samples
        X(3, 7) = std::numeric_limits<Scalar>::quiet_NaN();
        try {
            runAndCluster(X, {}, optionsFor("pca", 1));
            QFAIL("pca accepted NaN in wide data");
        } catch (const std::invalid_argument& e) {
            const QString message = QString::fromStdString(e.what());
            QVERIFY2(message.contains(QStringLiteral("sample 8")), qPrintable(message));
            QVERIFY2(message.contains(QStringLiteral("feature 4")), qPrintable(message));
        }
    }

    // Finite data whose covariance overflows: PCA says so rather than decomposing Inf.
    void pcaCovarianceOverflowIsRefused()
    {
        Matrix X = plantedData(1);
        X(4, 9) = Scalar(std::numeric_limits<Scalar>::max() / 2);
        try {
            runAndCluster(X, plantedLabels(), optionsFor("pca", 1));
            QFAIL("pca accepted a covariance that overflows");
        } catch (const std::invalid_argument& e) {
            QVERIFY2(
                QString::fromStdString(e.what()).contains(QStringLiteral("overflows")), e.what());
        }
    }

    // Data near the top of the double range: the objective's squares overflow during the run.
    // Whatever iteration that happens at, the result holds only finite numbers, and a NonFinite
    // stop after h finite iterations returns the factors a run of exactly h iterations returns.
    void overflowKeepsLastFiniteFactors_data() { addMethodRows(); }
    void overflowKeepsLastFiniteFactors()
    {
        QFETCH(QString, method);
        const Matrix X = plantedData(2) * Scalar(1e152);
        RunResult result;
        try {
            result = runAndCluster(X, plantedLabels(), optionsFor(method.toStdString(), 40));
        } catch (const std::invalid_argument& e) {
            // Refusing such data up front is an acceptable answer too, if it says why.
            QVERIFY(std::string(e.what()).size() > 10);
            return;
        }
        const Factorization& f = result.factorization;
        QVERIFY2(finite(f), qPrintable(method));
        QCOMPARE(int(result.predicted.size()), int(kSamples));
        qInfo("%s: %s after %d finite iterations", qPrintable(method),
            std::string(stopReasonName(f.stopReason)).c_str(), f.iterations);
        // A run that never iterated is not scored on its start (issue 36, item 15).
        QCOMPARE(result.stoppedAtStart, f.stopReason == StopReason::NonFinite && f.iterations == 0);
        if (result.stoppedAtStart)
            QVERIFY2(!result.ac && !result.nmi, qPrintable(method));
        if (f.stopReason != StopReason::NonFinite || f.iterations == 0)
            return;
        const RunResult cut
            = runAndCluster(X, plantedLabels(), optionsFor(method.toStdString(), f.iterations));
        QCOMPARE(cut.factorization.iterations, f.iterations);
        QVERIFY(cut.factorization.basis.isApprox(f.basis));
        QVERIFY(cut.factorization.V.isApprox(f.V));
    }

    void overflowMidIteration()
    {
        DriverOptions o;
        o.tol = 0;
        o.seed = 5;
        const auto make = [] { return std::make_unique<Exploding>(); };
        const Factorization f = solve(make, o);
        QCOMPARE(f.stopReason, StopReason::NonFinite);
        QCOMPARE(f.iterations, 2);
        QVERIFY(f.V.allFinite());
        o.maxIter = 2;
        const Factorization cut = solve(make, o);
        QCOMPARE(cut.stopReason, StopReason::MaxIterations);
        QCOMPARE(cut.V, f.V); // the factors of iteration 2, not the overflowed ones of 3
        QVERIFY(f.V.maxCoeff() > 1e119);
    }

    // 200 cancels at seeded random iterations, spread over every method: Cancelled after
    // exactly that many iterations, finite factors equal to a run of that length.
    void cancelAtRandomIterations()
    {
        std::vector<std::string> methods;
        for (const MethodInfo& m : methodCatalog())
            if (!m.baseline)
                methods.push_back(m.name);
        const Matrix X = plantedData(3);
        Rng rng(2024);
        for (int trial = 0; trial < 200; ++trial) {
            const std::string& method = methods[std::size_t(trial) % methods.size()];
            const int cancelAt = 1 + int(rng.below(25));
            std::stop_source stop;
            SolveControl control;
            control.stop = stop.get_token();
            control.onIteration = [&](const IterationReport& r) {
                if (r.iteration >= cancelAt)
                    stop.request_stop();
            };
            const RunResult cancelled
                = runAndCluster(X, plantedLabels(), optionsFor(method, 60), control);
            const Factorization& f = cancelled.factorization;
            const QString what = QStringLiteral("%1, cancel at %2")
                                     .arg(QString::fromStdString(method))
                                     .arg(cancelAt);
            QVERIFY2(finite(f), qPrintable(what));
            QCOMPARE(int(cancelled.predicted.size()), int(kSamples));
            if (f.stopReason != StopReason::Cancelled) {
                // Only a method that stops on its own before the cancel point, or at it (its
                // stop rule is checked after the iteration's report), may finish otherwise.
                QVERIFY2(f.iterations <= cancelAt, qPrintable(what));
                continue;
            }
            QVERIFY2(f.iterations >= cancelAt, qPrintable(what));
            const RunResult reference
                = runAndCluster(X, plantedLabels(), optionsFor(method, f.iterations));
            QVERIFY2(reference.factorization.V.isApprox(f.V), qPrintable(what));
            QVERIFY2(reference.factorization.basis.isApprox(f.basis), qPrintable(what));
        }
    }
};

#include "facet_test.h"
FACET_TEST_APPLESS_MAIN(TestNonFinite)
#include "test_nonfinite.moc"
