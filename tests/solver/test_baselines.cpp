// SPDX-License-Identifier: GPL-3.0-or-later
// The baselines (k-means on raw data, PCA) and the labelled-subset draw of semi-supervised runs.
#include "core/cancellation.h"
#include "core/openmp.h"
#include "core/symmetric_product.h"
#include "experiment/labeled_subset.h"
#include "experiment/run.h"
#include "method_checks.h"
#include "methods/baselines.h"
#include "test_printers.h"

#include <QtTest>

#include <Eigen/Eigenvalues>

#include <algorithm>
#include <limits>
#include <map>
#include <stop_token>

using namespace facet;
using namespace facet::testing;

class TestBaselines : public QObject {
    Q_OBJECT
private slots:
    void kmeansBaselineFindsBlobs()
    {
        std::vector<int> truth;
        const Matrix X = blobs(6, 4, 25, truth, 1);
        RunOptions o;
        o.method = "kmeans";
        o.params.rank = 4;
        const RunResult r = runAndCluster(X, truth, o);
        QCOMPARE(*r.ac, 1.0);
        QCOMPARE(r.factorization.basis.cols(), 4);
        QCOMPARE((r.factorization.V.rowwise().sum().array() == 1).count(), X.cols());
    }
    void kmeansBaselineStopsWhenCancelled()
    {
        // Cancel (SolveControl::stop) reaches k-means: it stops after the round that is running
        // and starts no further replicate; the run reports Cancelled with a whole assignment.
        std::vector<int> truth;
        const Matrix X = blobs(6, 4, 25, truth, 1);
        RunOptions o;
        o.method = "kmeans";
        o.cluster.replicates = 20;
        std::stop_source source;
        source.request_stop();
        SolveControl control;
        control.stop = source.get_token();
        const RunResult r = runAndCluster(X, truth, o, control);
        QCOMPARE(r.factorization.stopReason, StopReason::Cancelled);
        QCOMPARE(r.factorization.iterations, 1);
        QCOMPARE(r.factorization.basis.cols(), 4);
        QVERIFY(r.factorization.basis.allFinite());
        QCOMPARE((r.factorization.V.rowwise().sum().array() == 1).count(), X.cols());
        const RunResult whole = runAndCluster(X, truth, o);
        QCOMPARE(whole.factorization.stopReason, StopReason::Converged);
    }
    void kmeansBaselineReportsItsStarts()
    {
        // runAndCluster names the k-means baseline's stage and passes its progress on: rising
        // fractions ending at 1, a report at the end of every start; the same assignment as
        // without a listener. A stop requested from the first report ends the run after that
        // round, Cancelled, with a whole assignment.
        std::vector<int> truth;
        const Matrix X = blobs(6, 4, 25, truth, 1);
        RunOptions o;
        o.method = "kmeans";
        o.cluster.replicates = 5;
        std::vector<std::string> stages;
        std::vector<double> fractions;
        SolveControl watch;
        watch.onStage = [&](std::string_view stage) { stages.emplace_back(stage); };
        watch.onStageProgress = [&](double f) { fractions.push_back(f); };
        const RunResult watched = runAndCluster(X, truth, o, watch);
        QCOMPARE(stages, std::vector<std::string> { kKMeansStage });
        QVERIFY2(fractions.size() >= 5, qPrintable(QString::number(fractions.size())));
        QVERIFY(fractions.front() > 0);
        QVERIFY(std::is_sorted(fractions.begin(), fractions.end()));
        QCOMPARE(fractions.back(), 1.0);
        for (int r = 1; r <= 5; ++r)
            QVERIFY(std::find(fractions.begin(), fractions.end(), r / 5.0) != fractions.end());
        const RunResult plain = runAndCluster(X, truth, o);
        QVERIFY(watched.factorization.basis == plain.factorization.basis);
        QCOMPARE(watched.predicted, plain.predicted);

        std::stop_source stop;
        SolveControl control;
        control.stop = stop.get_token();
        int reports = 0;
        control.onStageProgress = [&](double) {
            ++reports;
            stop.request_stop();
        };
        const RunResult cancelled = runAndCluster(X, truth, o, control);
        QCOMPARE(reports, 1);
        QCOMPARE(cancelled.factorization.stopReason, StopReason::Cancelled);
        QCOMPARE((cancelled.factorization.V.rowwise().sum().array() == 1).count(), X.cols());
    }
    void kmeansBaselineReportsTheRoundLimit()
    {
        // A start stopped by maxIter has not converged: its first round moves every sample
        // (from no cluster), so one round is never a fixed point.
        std::vector<int> truth;
        const Matrix X = blobs(6, 4, 25, truth, 1);
        KMeansOptions o;
        o.clusters = 4;
        o.replicates = 3;
        o.maxIter = 1;
        const Factorization limited = kmeansBaseline(X, o);
        QCOMPARE(limited.stopReason, StopReason::MaxIterations);
        QCOMPARE(limited.iterations, 1);
        o.maxIter = 100;
        const Factorization whole = kmeansBaseline(X, o);
        QCOMPARE(whole.stopReason, StopReason::Converged);
        QVERIFY(whole.iterations > 1 && whole.iterations < 100);
    }
    void pcaBothPathsAgree()
    {
        // m <= n uses the covariance, m > n the centred Gram matrix: same subspace and scores.
        Rng rng(4);
        const Matrix A
            = rng.uniformMatrix(8, 3) * rng.uniformMatrix(3, 30) + 0.01 * rng.uniformMatrix(8, 30);
        const Factorization wide = pcaBaseline(A, 3); // m = 8 <= n = 30
        const Factorization viaGram = pcaBaseline(Matrix(A.leftCols(6)), 3); // m = 8 > n = 6
        QVERIFY((wide.basis.transpose() * wide.basis - Matrix::Identity(3, 3)).norm() < 1e-10);
        QVERIFY(
            (viaGram.basis.transpose() * viaGram.basis - Matrix::Identity(3, 3)).norm() < 1e-10);
        // Reference for the 6-sample case through the covariance path on the same data.
        const Matrix S = A.leftCols(6);
        const Vector mean = S.rowwise().mean();
        const Matrix C = (S.colwise() - mean) * (S.colwise() - mean).transpose();
        Eigen::SelfAdjointEigenSolver<Matrix> eig(C);
        for (int j = 0; j < 3; ++j) {
            const Vector u = eig.eigenvectors().col(7 - j);
            QVERIFY(std::abs(std::abs(u.dot(viaGram.basis.col(j))) - 1.0) < 1e-8);
        }
        // Scores have decreasing variance.
        const Vector var = wide.V.colwise().squaredNorm();
        QVERIFY(var(0) >= var(1) && var(1) >= var(2));
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, pcaBaseline(A, 9));
    }
    void pcaLanczosMatchesTheDenseDecomposition()
    {
        // From order 64 on the k leading pairs come from Lanczos (Spectra); both shapes against
        // the dense decomposition of the explicitly centred covariance.
        Rng rng(11);
        const Matrix A = rng.uniformMatrix(90, 6) * rng.uniformMatrix(6, 240)
            + 0.05 * rng.uniformMatrix(90, 240);
        for (const Matrix& X : { A, Matrix(A.transpose()) }) {
            PcaStats stats;
            const Factorization f = pcaBaseline(X, 4, &stats);
            QVERIFY(stats.lanczos);
            QCOMPARE(stats.order, Eigen::Index(90));
            QVERIFY(stats.products > 0);
            QVERIFY(!f.log.empty() && f.log.front().find("Lanczos") != std::string::npos);
            const Vector mean = X.rowwise().mean();
            const Matrix Xc = X.colwise() - mean;
            Eigen::SelfAdjointEigenSolver<Matrix> eig(Xc * Xc.transpose());
            for (int j = 0; j < 4; ++j) {
                const Vector u = eig.eigenvectors().col(X.rows() - 1 - j);
                QVERIFY(std::abs(std::abs(u.dot(f.basis.col(j))) - 1.0) < 1e-8);
            }
            QVERIFY((f.V - Xc.transpose() * f.basis).norm() < 1e-9 * f.V.norm());
            QVERIFY(std::abs(f.history.front() - (Xc.squaredNorm() - f.V.squaredNorm()))
                < 1e-9 * Xc.squaredNorm());
        }
        // A rank whose subspace would exceed half the order: the full decomposition.
        PcaStats stats;
        const Factorization wide = pcaBaseline(A, 40, &stats);
        QVERIFY(!stats.lanczos);
        QCOMPARE(wide.basis.cols(), 40);
        QVERIFY((wide.basis.transpose() * wide.basis - Matrix::Identity(40, 40)).norm() < 1e-9);
    }
    void symmetricLowerProduct_data()
    {
        QTest::addColumn<int>("p");
        // Below kTwoPartsFrom (Eigen's product); at it; whole groups of 4 columns and 8 rows;
        // a part ending between groups, columns left over (1031 = 4 * 257 + 3) and tail rows.
        QTest::newRow("one part") << 255;
        QTest::newRow("two parts, from 256") << 256;
        QTest::newRow("two parts, 300") << 300;
        QTest::newRow("two parts, 1031") << 1031;
    }
    void symmetricLowerProduct()
    {
        // PCA's Lanczos products (core/symmetric_product.h) against Eigen's selfadjoint
        // product, with the upper triangle NaN: it must not be read. The same bits on 1, 2
        // and 3 threads.
        QFETCH(int, p);
        Rng rng(7);
        Eigen::MatrixXd C
            = rng.uniformMatrix(p, p).cast<double>() - Eigen::MatrixXd::Constant(p, p, 0.5);
        const Eigen::VectorXd x = rng.uniformMatrix(p, 1).cast<double>();
        const Eigen::VectorXd expected = C.selfadjointView<Eigen::Lower>() * x;
        C.triangularView<Eigen::StrictlyUpper>().setConstant(
            std::numeric_limits<double>::quiet_NaN());
        const SymmetricLowerProduct op(C);
        QCOMPARE(op.rows(), Eigen::Index(p));
        if (p >= SymmetricLowerProduct::kTwoPartsFrom) {
            // Two parts of about half the triangle's entries each.
            const Eigen::Index s = op.split();
            QVERIFY(s > 0 && s < p);
            const double first = double(s) * double(p) - double(s) * double(s - 1) / 2;
            QVERIFY(std::abs(first / (double(p) * double(p + 1) / 2) - 0.5) < 0.02);
        } else {
            QCOMPARE(op.split(), Eigen::Index(p));
        }
        Eigen::VectorXd y(p);
        op.perform_op(x.data(), y.data());
        QVERIFY(y.allFinite());
        QVERIFY((y - expected).norm() <= 1e-13 * expected.norm());
        const int threads = omp::maxThreads();
        for (const int t : { 1, 2, 3 }) {
            omp::setThreads(t);
            Eigen::VectorXd again(p);
            op.perform_op(x.data(), again.data());
            omp::setThreads(threads);
            QVERIFY(again == y);
        }
    }
    void pcaGramPaths_data()
    {
        QTest::addColumn<int>("p");
        QTest::addColumn<int>("q");
        // Order 300, depth 1200: tiles of 256 (a partial one) over slabs of 256 (a partial one),
        // products and rank updates in parallel. Depth 9000: the same tiles over 36 slabs (until
        // 25 November such a depth took four depth parts by the rank update).
        QTest::newRow("tiles") << 300 << 1200;
        QTest::newRow("deep") << 70 << 9000;
    }
    void pcaGramPaths()
    {
        // Both PCA shapes against the dense decomposition of the explicitly centred
        // covariance, and the same bits on 1, 2 and 3 threads.
        QFETCH(int, p);
        QFETCH(int, q);
        Rng rng(5);
        const Matrix A
            = rng.uniformMatrix(p, 5) * rng.uniformMatrix(5, q) + 0.05 * rng.uniformMatrix(p, q);
        for (const Matrix& X : { A, Matrix(A.transpose()) }) {
            PcaStats stats;
            const Factorization f = pcaBaseline(X, 4, &stats);
            QVERIFY(stats.lanczos);
            QCOMPARE(stats.order, Eigen::Index(p));
            const Matrix Xc = X.colwise() - X.rowwise().mean();
            const Matrix small
                = X.rows() <= X.cols() ? Matrix(Xc * Xc.transpose()) : Matrix(Xc.transpose() * Xc);
            Eigen::SelfAdjointEigenSolver<Matrix> eig(small);
            for (int j = 0; j < 4; ++j) {
                Vector u = eig.eigenvectors().col(p - 1 - j);
                if (X.rows() > X.cols()) // an eigenvector of Xc^T Xc: the direction is Xc e
                    u = (Xc * u).normalized();
                QVERIFY(std::abs(std::abs(u.dot(f.basis.col(j))) - 1.0) < 1e-8);
            }
            QVERIFY((f.V - Xc.transpose() * f.basis).norm() < 1e-9 * f.V.norm());
            const int threads = omp::maxThreads();
            for (const int t : { 1, 3 }) {
                omp::setThreads(t);
                const Factorization again = pcaBaseline(X, 4);
                omp::setThreads(threads);
                QVERIFY(again.basis == f.basis);
                QVERIFY(again.V == f.V);
            }
        }
    }
    void pcaReportsItsProgress_data()
    {
        QTest::addColumn<int>("p");
        QTest::addColumn<int>("q");
        QTest::addColumn<bool>("lanczos");
        // The tiles over 5 slabs and Lanczos; a deep Gram matrix (36 slabs; until 25 November
        // summed in four depth parts that reported once, at their end); a full decomposition
        // (order below 64), then the transposed shapes (n x n Gram).
        QTest::newRow("tiles, Lanczos") << 90 << 1200 << true;
        QTest::newRow("deep") << 70 << 9000 << true;
        QTest::newRow("full decomposition") << 12 << 1500 << false;
    }
    void pcaReportsItsProgress()
    {
        // Rising fractions in (0, 1], ending at 1, with reports both from the Gram matrix's
        // slabs (at most kPcaGramShare) and, with Lanczos, from its products; the same bits
        // as without a listener. A stop requested from the first report throws SetupCancelled
        // of kPcaStage at the next check.
        QFETCH(int, p);
        QFETCH(int, q);
        QFETCH(bool, lanczos);
        Rng rng(3);
        const Matrix A
            = rng.uniformMatrix(p, 5) * rng.uniformMatrix(5, q) + 0.05 * rng.uniformMatrix(p, q);
        for (const Matrix& X : { A, Matrix(A.transpose()) }) {
            std::vector<double> fractions;
            PcaStats stats;
            const Factorization f = pcaBaseline(
                X, 4, &stats, {}, [&](double fraction) { fractions.push_back(fraction); });
            QCOMPARE(stats.lanczos, lanczos);
            QVERIFY2(fractions.size() >= 3, qPrintable(QString::number(fractions.size())));
            QVERIFY(fractions.front() > 0 && fractions.front() <= 0.5);
            QVERIFY(std::is_sorted(fractions.begin(), fractions.end()));
            QCOMPARE(fractions.back(), 1.0);
            const auto gram = std::count_if(
                fractions.begin(), fractions.end(), [](double x) { return x <= 0.8; });
            QVERIFY(gram >= 2);
            if (lanczos) // the products' reports between the Gram matrix's and the end
                QVERIFY(std::any_of(
                    fractions.begin(), fractions.end(), [](double x) { return x > 0.8 && x < 1; }));
            const Factorization plain = pcaBaseline(X, 4);
            QVERIFY(plain.basis == f.basis);
            QVERIFY(plain.V == f.V);

            std::stop_source stop;
            int reports = 0;
            try {
                pcaBaseline(X, 4, nullptr, stop.get_token(), [&](double) {
                    ++reports;
                    stop.request_stop();
                });
                QFAIL("the stop was not honoured");
            } catch (const SetupCancelled& cancelled) {
                QCOMPARE(cancelled.stage(), std::string(kPcaStage));
            }
            QCOMPARE(reports, 1);
        }
    }
    void labeledSubsetByCount()
    {
        std::vector<int> truth;
        for (int c = 0; c < 5; ++c)
            for (int i = 0; i < 10 + c; ++i)
                truth.push_back(c);
        const std::vector<int> known = chooseLabeledSubset(truth, { 0, 2, 7 });
        std::map<int, int> perClass;
        for (std::size_t i = 0; i < truth.size(); ++i) {
            if (known[i] >= 0) {
                QCOMPARE(known[i], truth[i]);
                ++perClass[known[i]];
            }
        }
        QCOMPARE(int(perClass.size()), 5);
        for (const auto& [c, count] : perClass)
            QCOMPARE(count, 2);
        QCOMPARE(chooseLabeledSubset(truth, { 0, 2, 7 }), known);
        QVERIFY(chooseLabeledSubset(truth, { 0, 2, 8 }) != known);
    }
    void semiSupervisedRunsDrawTheirLabels()
    {
        // runAndCluster draws the labelled subset for the semi-supervised methods only.
        std::vector<int> truth;
        const Matrix X = blobs(5, 3, 12, truth, 2);
        for (const char* method : { "cnmf", "ccf", "semignmf" }) {
            RunOptions o;
            o.method = method;
            o.params.rank = 3;
            o.driver.maxIter = 20;
            o.labeledPerClass = 2;
            const RunResult r = runAndCluster(X, truth, o);
            QCOMPARE(int(std::count_if(
                         r.knownLabels.begin(), r.knownLabels.end(), [](int l) { return l >= 0; })),
                6);
            QVERIFY(!everySampleLabelled(r));
            // 12 per class labels every sample: the scores then measure the given labels.
            o.labeledPerClass = 12;
            QVERIFY(everySampleLabelled(runAndCluster(X, truth, o)));
        }
        RunOptions plain;
        plain.method = "nmf";
        plain.params.rank = 3;
        plain.driver.maxIter = 5;
        plain.labeledPerClass = 2;
        QVERIFY(runAndCluster(X, truth, plain).knownLabels.empty());
        QVERIFY(!everySampleLabelled(runAndCluster(X, truth, plain)));
    }
    void labeledSubsetByFraction()
    {
        std::vector<int> truth(40, 0);
        std::fill(truth.begin() + 20, truth.end(), 1);
        const std::vector<int> known = chooseLabeledSubset(truth, { 0.3, 0, 1 });
        QCOMPARE(int(std::count(known.begin(), known.begin() + 20, 0)), 6);
        QCOMPARE(int(std::count(known.begin() + 20, known.end(), 1)), 6);
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, chooseLabeledSubset(truth, { 1.0, 0, 1 }));
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, chooseLabeledSubset(truth, { 0.0, 0, 1 }));
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, chooseLabeledSubset(truth, { 0.5, -1, 1 }));
    }
};

#include "facet_test.h"
FACET_TEST_APPLESS_MAIN(TestBaselines)
#include "test_baselines.moc"
