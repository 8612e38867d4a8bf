// SPDX-License-Identifier: GPL-3.0-or-later
// The approximate kNN search (HNSW, graph/hnsw_search.h) against the exact one on a small
// clustered set, and the kNN graph built through it (KnnOptions::search).
#include "bench/lowrank_data.h"
#include "core/random.h"
#include "graph/hnsw_search.h"
#include "graph/knn_graph.h"

#include <QtTest>

using namespace facet;
using Index = Eigen::Index;

namespace {

// 1500 unit-norm samples of 64 features in 10 clusters (the LCCF preparation of a generated set).
Matrix clusteredSet()
{
    LowRankSpec spec;
    spec.samples = 1500;
    spec.features = 64;
    spec.seed = 3;
    Matrix X = makeLowRankData(spec).X;
    X.colwise().normalize();
    return X;
}

} // namespace

class HnswSearchTest : public QObject {
    Q_OBJECT

private slots:
    void recallAgainstExactSearch()
    {
        const Matrix X = clusteredSet();
        const int p = 5;
        const NeighborTable exact = nearestNeighborTable(X, p);
        const NeighborTable approximate = approximateNeighborTable(X, p);
        QCOMPARE(approximate.index.rows(), Index(p));
        QCOMPARE(approximate.index.cols(), X.cols());
        const double recall = neighborRecall(approximate, exact);
        QVERIFY2(recall >= 0.95, qPrintable(QStringLiteral("recall %1").arg(recall)));
        QCOMPARE(neighborRecall(exact, exact), 1.0);
        // Same data, same seed: the same table (the index is built in sample order).
        QVERIFY(approximateNeighborTable(X, p).index == approximate.index);
        for (Index i = 0; i < X.cols(); ++i) {
            for (Index h = 0; h < p; ++h) {
                const Index j = approximate.index(h, i);
                QVERIFY(j != i && j >= 0 && j < X.cols());
                // Distances are the exact ones, in non-decreasing order.
                QCOMPARE(approximate.squaredDistance(h, i), (X.col(i) - X.col(j)).squaredNorm());
                if (h > 0)
                    QVERIFY(
                        approximate.squaredDistance(h, i) >= approximate.squaredDistance(h - 1, i));
            }
        }
    }

    void tinySetsFallBackToTheFullList()
    {
        // Fewer points than hnswlib's beam and duplicates: every sample still gets p others.
        Rng rng(4);
        Matrix X = rng.uniformMatrix(3, 6);
        X.col(5) = X.col(0);
        const NeighborTable approximate = approximateNeighborTable(X, 5);
        const NeighborTable exact = nearestNeighborTable(X, 5);
        QCOMPARE(neighborRecall(approximate, exact), 1.0);
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, approximateNeighborTable(X, 6));
    }

    void graphThroughTheApproximateSearch()
    {
        const Matrix X = clusteredSet();
        KnnOptions exact;
        exact.search = KnnSearch::Exact;
        KnnOptions approximate;
        approximate.search = KnnSearch::Approximate;
        const Graph a = buildKnnGraph(X, approximate);
        const Graph e = buildKnnGraph(X, exact);
        QCOMPARE(a.size(), X.cols());
        const SparseMatrix asymmetry = a.S - SparseMatrix(a.S.transpose());
        QCOMPARE(asymmetry.norm(), Scalar(0));
        // Binary weights: the edge sets agree where the neighbour lists do.
        const double shared = double(a.S.cwiseProduct(e.S).sum());
        QVERIFY(shared >= 0.95 * double(e.S.sum()));
    }

    void autoSwitchesAtTheThreshold()
    {
        QVERIFY(!usesApproximateSearch(KnnSearch::Auto, kApproximateKnnThreshold - 1));
        QVERIFY(usesApproximateSearch(KnnSearch::Auto, kApproximateKnnThreshold));
        QVERIFY(!usesApproximateSearch(KnnSearch::Exact, 1000000));
        QVERIFY(usesApproximateSearch(KnnSearch::Approximate, 10));
    }
};

#include "facet_test.h"
FACET_TEST_APPLESS_MAIN(HnswSearchTest)
#include "test_hnsw_search.moc"
