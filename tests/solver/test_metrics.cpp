// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/random.h"
#include "metrics/clustering_metrics.h"
#include "metrics/quality.h"

#include <QtTest>

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>
#include <stdexcept>
#include <type_traits>

using namespace facet;

namespace {

constexpr double kTight = 1e-12;
// For results computed in Scalar (quality metrics), which may be float.
constexpr double kScalarTight = std::is_same_v<Scalar, float> ? 1e-5 : 1e-12;

std::vector<int> randomMetricLabels(Rng& rng, int count, int values)
{
    std::vector<int> labels(static_cast<std::size_t>(count));
    for (int& label : labels)
        label = int(rng.below(std::uint64_t(values)));
    return labels;
}

} // namespace

class TestMetrics : public QObject {
    Q_OBJECT

private slots:
    void contingencyCounts()
    {
        const Contingency table = contingencyTable({ 0, 0, 0, 1, 1, 1 }, { 1, 1, 0, 0, 0, 0 });
        QCOMPARE(table.trueValues, (std::vector<int> { 0, 1 }));
        QCOMPARE(table.predictedValues, (std::vector<int> { 0, 1 }));
        Eigen::MatrixXi expected(2, 2);
        expected << 1, 2, //
            3, 0;
        QVERIFY(table.counts == expected);
    }

    void handCheckedTwoByTwo()
    {
        // Table [[1, 2], [3, 0]] (rows: true 0, 1; columns: predicted 0, 1). Mapping predicted
        // 0 -> 1 and 1 -> 0 matches 3 + 2 = 5 samples, the other map 1 + 0 = 1: AC = 5/6.
        const std::vector<int> truth { 0, 0, 0, 1, 1, 1 };
        const std::vector<int> predicted { 1, 1, 0, 0, 0, 0 };
        QCOMPARE(clusteringAccuracy(truth, predicted), 5.0 / 6.0);
        // Marginals a = (3, 3), b = (4, 2), n = 6. H(truth) = log 2,
        // H(pred) = (4/6) log(6/4) + (2/6) log(6/2) = log 3 - (2/3) log 2 < log 2.
        // MI = (1/6) log(6*1/(3*4)) + (2/6) log(6*2/(3*2)) + (3/6) log(6*3/(3*4))
        //    = -(1/6) log 2 + (1/3) log 2 + (1/2) log(3/2) = (1/2) log 3 - (1/3) log 2.
        // NMI = MI / log 2 = log 3 / (2 log 2) - 1/3 = 0.45914791702724...
        const double nmi = std::log(3.0) / (2 * std::log(2.0)) - 1.0 / 3.0;
        QVERIFY(std::abs(normalizedMutualInformation(truth, predicted) - nmi) < kTight);
    }

    void handCheckedBalanced()
    {
        // Table [[1, 2], [2, 1]]: the best map matches 2 + 2 = 4 of 6.
        const std::vector<int> truth { 0, 0, 0, 1, 1, 1 };
        const std::vector<int> predicted { 1, 1, 0, 0, 0, 1 };
        QCOMPARE(clusteringAccuracy(truth, predicted), 4.0 / 6.0);
        // a = b = (3, 3), both entropies log 2.
        // MI = 2 (1/6) log(6/9) + 2 (2/6) log(12/9) = (1/3) log(2/3) + (2/3) log(4/3)
        //    = (5/3) log 2 - log 3, so NMI = 5/3 - log 3 / log 2 = 0.08170416594551...
        const double nmi = 5.0 / 3.0 - std::log(3.0) / std::log(2.0);
        QVERIFY(std::abs(normalizedMutualInformation(truth, predicted) - nmi) < kTight);
    }

    void moreClustersThanClasses()
    {
        // Every cluster is pure, but only two can be mapped one-to-one: AC = 2/4.
        // H(truth) = log 2, H(pred) = log 4, MI = H(truth) (pred determines truth): NMI = 1/2.
        const std::vector<int> truth { 0, 0, 1, 1 };
        const std::vector<int> predicted { 0, 1, 2, 3 };
        QCOMPARE(clusteringAccuracy(truth, predicted), 0.5);
        QVERIFY(std::abs(normalizedMutualInformation(truth, predicted) - 0.5) < kTight);

        const Contingency table = contingencyTable(truth, predicted);
        const std::vector<int> map = bestClusterToClassMap(table);
        QCOMPARE(map.size(), std::size_t(4));
        QCOMPARE(
            std::count(map.begin(), map.end(), std::numeric_limits<int>::min()), std::ptrdiff_t(2));
        const int pairCluster0 = map[0] != std::numeric_limits<int>::min() ? map[0] : map[1];
        const int pairCluster1 = map[2] != std::numeric_limits<int>::min() ? map[2] : map[3];
        QCOMPARE(pairCluster0, 0);
        QCOMPARE(pairCluster1, 1);
    }

    void arbitraryLabelValues()
    {
        // True values sorted {-2, 5, 9}, predicted {7, 100}; table [[2, 0], [0, 2], [1, 0]].
        const std::vector<int> truth { 5, 5, -2, -2, 9 };
        const std::vector<int> predicted { 100, 100, 7, 7, 7 };
        const Contingency table = contingencyTable(truth, predicted);
        QCOMPARE(table.trueValues, (std::vector<int> { -2, 5, 9 }));
        QCOMPARE(table.predictedValues, (std::vector<int> { 7, 100 }));
        QCOMPARE(bestClusterToClassMap(table), (std::vector<int> { -2, 5 }));
        QCOMPARE(clusteringAccuracy(truth, predicted), 4.0 / 5.0);
    }

    void singleClusterConventions()
    {
        QCOMPARE(normalizedMutualInformation({ 3, 3, 3 }, { 8, 8, 8 }), 1.0);
        // One side is a single cluster: MI = 0 while max(H) = log 2 > 0.
        QCOMPARE(normalizedMutualInformation({ 3, 3, 3, 3 }, { 0, 0, 1, 1 }), 0.0);
        QCOMPARE(normalizedMutualInformation({ 0, 1, 0, 1 }, { 2, 2, 2, 2 }), 0.0);
        QCOMPARE(clusteringAccuracy({ 0, 1, 0, 1 }, { 2, 2, 2, 2 }), 0.5);
    }

    void identicalPartitions()
    {
        Rng rng(11);
        const std::vector<int> truth = randomMetricLabels(rng, 300, 7);
        QCOMPARE(clusteringAccuracy(truth, truth), 1.0);
        QVERIFY(std::abs(normalizedMutualInformation(truth, truth) - 1.0) < kTight);
    }

    void permutationInvariance()
    {
        Rng rng(5);
        const std::vector<int> truth = randomMetricLabels(rng, 200, 4);
        // Half the samples keep their class as cluster, the rest get one of 5 at random.
        std::vector<int> predicted = randomMetricLabels(rng, 200, 5);
        for (std::size_t s = 0; s < predicted.size(); s += 2)
            predicted[s] = truth[s];
        const double ac = clusteringAccuracy(truth, predicted);
        const double nmi = normalizedMutualInformation(truth, predicted);
        QVERIFY2(ac > 0.5 && ac < 1, qPrintable(QString::number(ac)));
        QVERIFY(nmi > 0 && nmi < 1);

        // Renaming the clusters with arbitrary values.
        const int rename[5] = { 42, -7, 3, 1000, 0 };
        std::vector<int> renamed(predicted.size());
        for (std::size_t s = 0; s < predicted.size(); ++s)
            renamed[s] = rename[predicted[s]];
        QCOMPARE(clusteringAccuracy(truth, renamed), ac);
        QVERIFY(std::abs(normalizedMutualInformation(truth, renamed) - nmi) < kTight);

        // Reordering the samples (a reversal and a rotation).
        std::vector<int> t2(truth.rbegin(), truth.rend());
        std::vector<int> p2(predicted.rbegin(), predicted.rend());
        std::rotate(t2.begin(), t2.begin() + 37, t2.end());
        std::rotate(p2.begin(), p2.begin() + 37, p2.end());
        QCOMPARE(clusteringAccuracy(t2, p2), ac);
        QCOMPARE(normalizedMutualInformation(t2, p2), nmi);

        // Swapping the roles of truth and prediction.
        QCOMPARE(clusteringAccuracy(predicted, truth), ac);
        QVERIFY(std::abs(normalizedMutualInformation(predicted, truth) - nmi) < kTight);
    }

    void invalidLabelsThrow()
    {
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, contingencyTable({ 0, 1 }, { 0 }));
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, contingencyTable({}, {}));
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, clusteringAccuracy({ 0, 1, 1 }, { 0, 1 }));
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, clusteringAccuracy({}, {}));
        QVERIFY_THROWS_EXCEPTION(
            std::invalid_argument, normalizedMutualInformation({ 0 }, { 0, 0 }));
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, normalizedMutualInformation({}, {}));
        Contingency broken = contingencyTable({ 0, 1 }, { 0, 1 });
        broken.trueValues.pop_back();
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, bestClusterToClassMap(broken));
    }

    void reconstructionExactProduct()
    {
        Rng rng(3);
        const Matrix basis = rng.uniformMatrix(50, 4);
        const Matrix V = rng.uniformMatrix(600, 4); // 600 = 256 + 256 + 88 columns of X
        const Matrix X = basis * V.transpose();
        QVERIFY(relativeReconstructionError(X, basis, V) < kScalarTight);
    }

    void reconstructionMatchesDense_data()
    {
        QTest::addColumn<int>("m");
        QTest::addColumn<int>("n");
        QTest::addColumn<int>("k");
        QTest::newRow("one partial block") << 37 << 10 << 3;
        QTest::newRow("exactly two blocks") << 20 << 512 << 5;
        QTest::newRow("three blocks") << 64 << 700 << 6;
    }

    void reconstructionMatchesDense()
    {
        QFETCH(int, m);
        QFETCH(int, n);
        QFETCH(int, k);
        Rng rng(deriveSeed(9, std::uint64_t(n)));
        const Matrix X = rng.uniformMatrix(m, n);
        const Matrix basis = rng.uniformMatrix(m, k);
        const Matrix V = rng.uniformMatrix(n, k) * Scalar(0.3);
        const double dense = double((X - basis * V.transpose()).norm() / X.norm());
        QVERIFY(dense > 0.01);
        const double blocked = relativeReconstructionError(X, basis, V);
        QVERIFY2(std::abs(blocked - dense) < kScalarTight * dense,
            qPrintable(QStringLiteral("%1 vs %2").arg(blocked, 0, 'g', 17).arg(dense, 0, 'g', 17)));
    }

    void reconstructionEdgeCases()
    {
        const Matrix zero = Matrix::Zero(3, 4);
        QCOMPARE(relativeReconstructionError(zero, Matrix::Zero(3, 2), Matrix::Zero(4, 2)), 0.0);
        QVERIFY(
            std::isinf(relativeReconstructionError(zero, Matrix::Ones(3, 2), Matrix::Ones(4, 2))));
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument,
            relativeReconstructionError(
                Matrix::Ones(3, 4), Matrix::Ones(2, 2), Matrix::Ones(4, 2)));
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument,
            relativeReconstructionError(
                Matrix::Ones(3, 4), Matrix::Ones(3, 2), Matrix::Ones(5, 2)));
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument,
            relativeReconstructionError(
                Matrix::Ones(3, 4), Matrix::Ones(3, 2), Matrix::Ones(4, 3)));
    }

    void hoyerSparsenessValues()
    {
        Matrix oneHot = Matrix::Zero(7, 1);
        oneHot(4, 0) = Scalar(3.5);
        QCOMPARE(hoyerSparseness(oneHot), 1.0);

        const Matrix constant = Matrix::Constant(7, 1, Scalar(0.3));
        QVERIFY(std::abs(hoyerSparseness(constant)) < kScalarTight);

        // (1, 1, 0, 0): |v|_1 / |v|_2 = 2 / sqrt 2 = sqrt 2, n = 4: (2 - sqrt 2) / (2 - 1).
        Matrix half(4, 2);
        half << 1, 1, //
            1, -1, //
            0, 0, //
            0, 0;
        QVERIFY(std::abs(hoyerSparseness(half) - (2 - std::sqrt(2.0))) < kScalarTight);

        // Average over columns; the zero column counts as 0: (1 + 0 + 0) / 3.
        Matrix mixed = Matrix::Zero(7, 3);
        mixed.col(0) = oneHot;
        mixed.col(1) = constant;
        QVERIFY(std::abs(hoyerSparseness(mixed) - 1.0 / 3.0) < kScalarTight);

        QCOMPARE(hoyerSparseness(Matrix::Ones(1, 3)), 0.0);
        QCOMPARE(hoyerSparseness(Matrix(5, 0)), 0.0);
    }
};

#include "facet_test.h"
FACET_TEST_APPLESS_MAIN(TestMetrics)
#include "test_metrics.moc"
