// SPDX-License-Identifier: GPL-3.0-or-later
// Consensus clustering for the rank survey (issue 38): average linkage against scipy's, the
// consensus of identical clusterings, planted clusters whose consensus is block-diagonal with a
// cophenetic correlation near 1 only at the true k, and the size bound.
#include "core/random.h"
#include "experiment/consensus.h"
#include "experiment/run.h"

#include <QtTest>

#include <cmath>
#include <set>
#include <stdexcept>

using namespace facet;

namespace {

// Four clusters of 15 non-negative samples each, on disjoint sets of 8 features: data whose
// clusters NMF at rank 4 finds from any start.
Matrix plantedClusters(Rng& rng, std::vector<int>& truth)
{
    constexpr int kClusters = 4, kPerCluster = 15, kFeatures = 8;
    Matrix X = Matrix::Zero(kClusters * kFeatures, kClusters * kPerCluster);
    truth.clear();
    for (int c = 0; c < kClusters; ++c)
        for (int s = 0; s < kPerCluster; ++s) {
            const int j = c * kPerCluster + s;
            for (int f = 0; f < kFeatures; ++f)
                X(c * kFeatures + f, j) = Scalar(1 + 0.05 * rng.uniform());
            for (Eigen::Index f = 0; f < X.rows(); ++f)
                X(f, j) += Scalar(0.02 * rng.uniform());
            truth.push_back(c);
        }
    return X;
}

} // namespace

class TestConsensus : public QObject {
    Q_OBJECT

private slots:
    // Twelve points in the plane; scipy 1.10's linkage(pdist(P), 'average') and cophenet give
    // these merge heights and this correlation.
    void averageLinkageMatchesScipy()
    {
        Eigen::MatrixXd points(12, 2);
        for (int i = 0; i < 12; ++i)
            points.row(i) << std::sin(i * 1.3) * 2, std::cos(i * 0.7) * 1.5;
        Eigen::MatrixXd d(12, 12);
        for (int i = 0; i < 12; ++i)
            for (int j = 0; j < 12; ++j)
                d(i, j) = (points.row(i) - points.row(j)).norm();
        const AverageLinkage tree = averageLinkage(d);
        const std::vector<double> scipy { 0.36129273, 0.39358924, 0.76393481, 0.8855875, 0.91837679,
            1.27198926, 1.60674993, 1.62501555, 2.05774436, 2.7516831, 2.93158715 };
        QCOMPARE(tree.merges.size(), scipy.size());
        for (std::size_t i = 0; i < scipy.size(); ++i)
            QVERIFY2(std::abs(tree.merges[i].height - scipy[i]) < 1e-8,
                qPrintable(QString::number(tree.merges[i].height, 'g', 12)));
        QVERIFY2(std::abs(tree.copheneticCorrelation - 0.752357901087050) < 1e-12,
            qPrintable(QString::number(tree.copheneticCorrelation, 'g', 15)));
        std::set<int> leaves(tree.order.begin(), tree.order.end());
        QCOMPARE(leaves.size(), std::size_t(12));
    }

    // R copies of one clustering: a consensus of exactly 0 and 1, dispersion 1, cophenetic 1,
    // and each cluster contiguous in the order.
    void identicalRunsGiveZerosAndOnes()
    {
        const std::vector<int> labels { 2, 0, 1, 2, 0, 1, 1, 2, 0, 0 };
        const Consensus c = consensusOf({ labels, labels, labels });
        QCOMPARE(c.runs, 3);
        for (Eigen::Index i = 0; i < 10; ++i)
            for (Eigen::Index j = 0; j < 10; ++j)
                QCOMPARE(
                    c.matrix(i, j), labels[std::size_t(i)] == labels[std::size_t(j)] ? 1.0 : 0.0);
        QCOMPARE(c.dispersion, 1.0);
        QCOMPARE(c.cophenetic, 1.0);
        int changes = 0;
        for (std::size_t i = 1; i < c.order.size(); ++i)
            changes += labels[std::size_t(c.order[i])] != labels[std::size_t(c.order[i - 1])];
        QCOMPARE(changes, 2);
        // One cluster for everything: no spread of distances, so no correlation.
        QVERIFY(std::isnan(consensusOf({ std::vector<int>(5, 0) }).cophenetic));
    }

    // Planted clusters, NMF from 6 seeds per rank: near 1 at the true k = 4, lower at 3 and 5.
    void plantedClustersPeakAtTheTrueRank()
    {
        Rng rng(11);
        std::vector<int> truth;
        const Matrix X = plantedClusters(rng, truth);
        std::vector<double> cophenetic;
        for (int k = 3; k <= 5; ++k) {
            std::vector<std::vector<int>> clusterings;
            for (std::uint64_t seed = 1; seed <= 6; ++seed) {
                RunOptions options;
                options.method = "nmf";
                options.params.rank = k;
                options.clusters = k;
                options.driver.seed = seed;
                options.driver.maxIter = 300;
                clusterings.push_back(runAndCluster(X, {}, options).predicted);
            }
            const Consensus c = consensusOf(clusterings);
            cophenetic.push_back(c.cophenetic);
            if (k == 4) {
                // Block-diagonal once ordered: each planted cluster is contiguous.
                int changes = 0;
                for (std::size_t i = 1; i < c.order.size(); ++i)
                    changes += truth[std::size_t(c.order[i])] != truth[std::size_t(c.order[i - 1])];
                QCOMPARE(changes, 3);
            }
        }
        qInfo("cophenetic at k = 3, 4, 5: %g %g %g", cophenetic[0], cophenetic[1], cophenetic[2]);
        QVERIFY2(
            cophenetic[1] > 0.99 && cophenetic[0] < cophenetic[1] && cophenetic[2] < cophenetic[1],
            qPrintable(QStringLiteral("k = 3, 4, 5: %1 %2 %3")
                           .arg(cophenetic[0])
                           .arg(cophenetic[1])
                           .arg(cophenetic[2])));
    }

    void tooLargeIsRefusedWithTheSize()
    {
        const std::vector<int> labels(1000, 0);
        try {
            consensusOf({ labels }, consensusBytes(999));
            QFAIL("a consensus over the bound was computed");
        } catch (const std::invalid_argument& e) {
            const QString message = QString::fromUtf8(e.what());
            QVERIFY2(message.contains(QStringLiteral("1000 samples")) && message.contains(u"GiB")
                    && message.contains(QStringLiteral("subsample")),
                e.what());
        }
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, consensusOf({ { 0, 1 }, { 0 } }));
    }
};

#include "facet_test.h"
FACET_TEST_APPLESS_MAIN(TestConsensus)
#include "test_consensus.moc"
