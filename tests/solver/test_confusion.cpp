// SPDX-License-Identifier: GPL-3.0-or-later
// The confusion matrix: columns in the order of AC's Hungarian map, so its matched cells add up
// to n * AC (the leading diagonal when there are at least as many clusters as classes).
#include "core/random.h"
#include "metrics/clustering_metrics.h"
#include "metrics/confusion.h"

#include <QtTest>

#include <stdexcept>

using namespace facet;

namespace {

Eigen::MatrixXi table(int rows, int cols, std::initializer_list<int> values)
{
    Eigen::MatrixXi m(rows, cols);
    auto it = values.begin();
    for (int r = 0; r < rows; ++r)
        for (int c = 0; c < cols; ++c)
            m(r, c) = *it++;
    return m;
}

std::vector<int> randomConfusionLabels(Rng& rng, int count, int values, int offset)
{
    std::vector<int> labels(static_cast<std::size_t>(count));
    for (int& label : labels)
        label = offset + 3 * int(rng.below(std::uint64_t(values)));
    return labels;
}

} // namespace

class TestConfusion : public QObject {
    Q_OBJECT

private slots:
    void handComputedSquare()
    {
        // Contingency (rows class 0..2, columns predicted 0..2): [[1,0,2],[2,1,0],[0,2,1]].
        // The best map is 2 -> 0, 0 -> 1, 1 -> 2 (2 + 2 + 2 = 6 of 9; the identity gives 3),
        // so the columns come as predicted 2, 0, 1 and the diagonal holds the matches.
        const std::vector<int> truth { 0, 0, 0, 1, 1, 1, 2, 2, 2 };
        const std::vector<int> predicted { 2, 2, 0, 0, 0, 1, 1, 1, 2 };
        const ConfusionMatrix cm = confusionMatrix(truth, predicted);
        QCOMPARE(cm.trueValues, (std::vector<int> { 0, 1, 2 }));
        QCOMPARE(cm.clusterValues, (std::vector<int> { 2, 0, 1 }));
        QCOMPARE(cm.mappedRow, (std::vector<int> { 0, 1, 2 }));
        QCOMPARE(cm.matchedColumns, 3);
        QVERIFY(cm.counts == table(3, 3, { 2, 1, 0, 0, 2, 1, 1, 0, 2 }));
        QCOMPARE(cm.counts.trace(), 6);
        QCOMPARE(cm.matchedCount(), 6LL);
        QCOMPARE(clusteringAccuracy(truth, predicted), 6.0 / 9.0);
    }

    void moreClustersThanClasses()
    {
        // Classes {0, 1}, clusters {1, 3, 7}: rows [[1,2,0],[0,0,3]]. 3 -> 0, 7 -> 1 and
        // cluster 1 is left over, so it is the last column and off the diagonal.
        const std::vector<int> truth { 0, 0, 0, 1, 1, 1 };
        const std::vector<int> predicted { 3, 3, 1, 7, 7, 7 };
        const ConfusionMatrix cm = confusionMatrix(truth, predicted);
        QCOMPARE(cm.clusterValues, (std::vector<int> { 3, 7, 1 }));
        QCOMPARE(cm.mappedRow, (std::vector<int> { 0, 1, -1 }));
        QCOMPARE(cm.matchedColumns, 2);
        QVERIFY(cm.counts == table(2, 3, { 2, 0, 1, 0, 3, 0 }));
        QCOMPARE(cm.counts.diagonal().sum(), 5);
        QCOMPARE(clusteringAccuracy(truth, predicted), 5.0 / 6.0);
    }

    void fewerClustersThanClasses()
    {
        // Classes {0, 1, 2}, clusters {0, 1}: cluster 1 holds 2 of class 1 and 3 of class 2,
        // so it maps to class 2; class 1 has no cluster. The matches (2 + 3) are not on the
        // diagonal here, but matchedCount still gives n * AC.
        const std::vector<int> truth { 0, 0, 1, 1, 2, 2, 2 };
        const std::vector<int> predicted { 0, 0, 1, 1, 1, 1, 1 };
        const ConfusionMatrix cm = confusionMatrix(truth, predicted);
        QCOMPARE(cm.clusterValues, (std::vector<int> { 0, 1 }));
        QCOMPARE(cm.mappedRow, (std::vector<int> { 0, 2 }));
        QVERIFY(cm.counts == table(3, 2, { 2, 0, 0, 2, 0, 3 }));
        QCOMPARE(cm.matchedCount(), 5LL);
        QCOMPARE(clusteringAccuracy(truth, predicted), 5.0 / 7.0);
    }

    void traceOverNIsAccuracy_data()
    {
        QTest::addColumn<int>("classes");
        QTest::addColumn<int>("clusters");
        QTest::newRow("square 5") << 5 << 5;
        QTest::newRow("square 12") << 12 << 12;
        QTest::newRow("more clusters") << 4 << 9;
        QTest::newRow("fewer clusters") << 9 << 4;
    }

    void traceOverNIsAccuracy()
    {
        QFETCH(int, classes);
        QFETCH(int, clusters);
        Rng rng(std::uint64_t(31 * classes + clusters));
        for (int trial = 0; trial < 20; ++trial) {
            const int n = 30 + 7 * trial;
            // Odd label values (offsets, gaps of 3) check that values, not indices, are used.
            const std::vector<int> truth = randomConfusionLabels(rng, n, classes, -4);
            std::vector<int> predicted = randomConfusionLabels(rng, n, clusters, 10);
            // Half the samples agree with the truth through a fixed relabelling.
            for (int i = 0; i < n; i += 2)
                predicted[std::size_t(i)] = 10 + 3 * (((truth[std::size_t(i)] + 4) / 3) % clusters);
            const ConfusionMatrix cm = confusionMatrix(truth, predicted);
            const double ac = clusteringAccuracy(truth, predicted);
            QCOMPARE(cm.counts.sum(), n);
            QCOMPARE(double(cm.matchedCount()) / n, ac);
            if (cm.counts.cols() >= cm.counts.rows()) {
                QCOMPARE(double(cm.counts.trace()) / n, ac);
                QCOMPARE(cm.matchedColumns, int(cm.counts.rows()));
            }
            // The columns are a permutation of the contingency table's.
            const Contingency plain = contingencyTable(truth, predicted);
            for (Eigen::Index j = 0; j < cm.counts.cols(); ++j) {
                const auto at = std::find(plain.predictedValues.begin(),
                    plain.predictedValues.end(), cm.clusterValues[std::size_t(j)]);
                QVERIFY(at != plain.predictedValues.end());
                QVERIFY(cm.counts.col(j)
                    == plain.counts.col(Eigen::Index(at - plain.predictedValues.begin())));
            }
        }
    }

    void mismatchedLengthsThrow()
    {
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, confusionMatrix({ 0, 1 }, { 0 }));
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, confusionMatrix({}, {}));
    }
};

#include "facet_test.h"
FACET_TEST_APPLESS_MAIN(TestConfusion)
#include "test_confusion.moc"
