// SPDX-License-Identifier: GPL-3.0-or-later
// The graph regularizer's row-parallel kernels (graph/graph_terms.h) against the plain
// definitions: lambda D V and lambda S V from Eigen's products, and Tr(V^T (D - S) V) from
// Tr(V^T D V) - Tr(V^T S V) in long double. Every rank that takes a different code path (1 to 4
// SIMD packets per row, and the wide rows past them in groups of packets), a graph whose storage
// is not compressed, degrees that are not S's row sums (the NCW form), and thread counts.
#include "core/openmp.h"
#include "core/random.h"
#include "graph/graph_terms.h"
#include "graph/knn_graph.h"

#include <QtTest>

using namespace facet;
using Index = Eigen::Index;

namespace {

Graph sampleGraph(Index n, std::uint64_t seed)
{
    Rng rng(seed);
    const Matrix X = rng.uniformMatrix(6, n);
    KnnOptions o;
    o.p = 4;
    o.weight = GraphWeight::Heat;
    o.search = KnnSearch::Exact;
    return buildKnnGraph(X, o);
}

long double referenceQuadraticForm(const Graph& graph, const Matrix& V)
{
    const Matrix SV = graph.S * V;
    long double value = 0;
    for (Index i = 0; i < V.rows(); ++i)
        for (Index c = 0; c < V.cols(); ++c)
            value += (long double)V(i, c)
                * ((long double)graph.degree(i) * V(i, c) - (long double)SV(i, c));
    return value;
}

} // namespace

class GraphTermsTest : public QObject {
    Q_OBJECT

private slots:
    void matchesDefinitions_data()
    {
        QTest::addColumn<int>("n");
        QTest::addColumn<bool>("compressed");
        QTest::addColumn<bool>("ownDegrees");
        QTest::newRow("small, one thread's work") << 60 << true << false;
        QTest::newRow("large enough for the threads") << 3000 << true << false;
        QTest::newRow("uncompressed storage") << 700 << false << false;
        QTest::newRow("degrees not the row sums (NCW)") << 900 << true << true;
    }
    void matchesDefinitions()
    {
        QFETCH(int, n);
        QFETCH(bool, compressed);
        QFETCH(bool, ownDegrees);
        Graph graph = sampleGraph(n, 3);
        if (!compressed) {
            // Room for 3 more entries per column: the columns' stored ranges then end before the
            // next one starts.
            graph.S.reserve(Eigen::VectorXi::Constant(n, 3));
            QVERIFY(!graph.S.isCompressed());
            QVERIFY(graph.S.outerIndexPtr()[1] > graph.S.innerNonZeroPtr()[0]);
        }
        Rng rng(11);
        if (ownDegrees)
            graph.degree = graph.degree + rng.uniformMatrix(n, 1);
        for (const int k : { 1, 3, 8, 10, 16, 17, 24, 32, 33, 40, 72 }) {
            const Matrix V = rng.uniformMatrix(n, k);
            const Scalar lambda = Scalar(2.5);
            Matrix plus, minus;
            graphGradientParts(graph, V, lambda, plus, minus);
            const Matrix plus0 = lambda * (graph.degree.asDiagonal() * V);
            const Matrix minus0 = lambda * (graph.S * V);
            const Scalar tolerance = 16 * std::numeric_limits<Scalar>::epsilon();
            QCOMPARE(plus.rows(), Index(n));
            QCOMPARE(plus.cols(), Index(k));
            QCOMPARE(minus.rows(), Index(n));
            QCOMPARE(minus.cols(), Index(k));
            QVERIFY2(
                (plus - plus0).norm() <= tolerance * plus0.norm(), qPrintable(QString::number(k)));
            QVERIFY2((minus - minus0).norm() <= tolerance * minus0.norm(),
                qPrintable(QString::number(k)));

            // One gather for both: the same bits as the two functions.
            Matrix plusBoth, minusBoth;
            const double both = graphTermsAndValue(graph, V, lambda, plusBoth, minusBoth);
            QVERIFY(plusBoth == plus);
            QVERIFY(minusBoth == minus);
            QCOMPARE(both, graphQuadraticForm(graph, V));

            const long double reference = referenceQuadraticForm(graph, V);
            const double value = graphQuadraticForm(graph, V);
            QVERIFY2(value >= 0, qPrintable(QString::number(k)));
            QVERIFY2(std::abs((long double)value - reference)
                    <= 1e3L * std::numeric_limits<Scalar>::epsilon() * std::abs(reference),
                qPrintable(QStringLiteral("k %1: %2 against %3")
                               .arg(k)
                               .arg(value, 0, 'g', 17)
                               .arg(double(reference), 0, 'g', 17)));
        }
    }

    void columnsDoNotDependOnTheRank()
    {
        // Each entry of S V is one chain of multiply-adds over the neighbours, whichever kernel
        // the row's width picks: the wide rows (past 4 packets, in groups) give the narrow
        // ones' bits, so a column of the gradient does not change with the rank around it.
        const Graph graph = sampleGraph(500, 7);
        Rng rng(17);
        const Matrix V = rng.uniformMatrix(500, 72);
        Matrix plusWide, minusWide;
        graphGradientParts(graph, V, Scalar(1.5), plusWide, minusWide);
        for (const int k : { 1, 5, 8, 13, 16, 33, 40 }) {
            Matrix plus, minus;
            graphGradientParts(graph, V.leftCols(k), Scalar(1.5), plus, minus);
            QVERIFY2(minus == minusWide.leftCols(k), qPrintable(QString::number(k)));
            QVERIFY2(plus == plusWide.leftCols(k), qPrintable(QString::number(k)));
        }
    }

    void sameBitsForAnyThreadCount()
    {
        // Each row's sums run in one fixed order, and the value's shares are added in sample
        // order: the thread count changes nothing, so a sweep cell on one thread reproduces the
        // explorer's run on two.
        const Graph graph = sampleGraph(4000, 5);
        Rng rng(13);
        const Matrix V = rng.uniformMatrix(4000, 10);
        const int saved = omp::maxThreads();
        omp::setThreads(1);
        Matrix plus1, minus1;
        graphGradientParts(graph, V, Scalar(3), plus1, minus1);
        const double value1 = graphQuadraticForm(graph, V);
        omp::setThreads(2);
        Matrix plus2, minus2;
        graphGradientParts(graph, V, Scalar(3), plus2, minus2);
        const double value2 = graphQuadraticForm(graph, V);
        omp::setThreads(saved);
        QVERIFY(plus1 == plus2);
        QVERIFY(minus1 == minus2);
        QCOMPARE(value1, value2);
    }

    void cacheServesOnlyItsVersion()
    {
        // The objective's gather leaves the parts for the next rule, once, and only for the same
        // version of V; a new version (V changed) is computed afresh.
        const Graph graph = sampleGraph(800, 9);
        Rng rng(17);
        Matrix V = rng.uniformMatrix(800, 6);
        GraphTermCache cache;
        const double value = cache.value(graph, V, Scalar(2), 1);
        QCOMPARE(value, graphQuadraticForm(graph, V));
        Matrix plus, minus, plus0, minus0;
        graphGradientParts(graph, V, Scalar(2), plus0, minus0);
        cache.parts(graph, V, Scalar(2), 1, plus, minus);
        QVERIFY(plus == plus0 && minus == minus0);
        cache.parts(graph, V, Scalar(2), 1, plus, minus); // taken once: computed again
        QVERIFY(plus == plus0 && minus == minus0);
        // Another lambda at the same version is not served from the cache.
        QCOMPARE(cache.value(graph, V, Scalar(2), 1), value);
        cache.parts(graph, V, Scalar(5), 1, plus, minus);
        graphGradientParts(graph, V, Scalar(5), plus0, minus0);
        QVERIFY(plus == plus0 && minus == minus0);
        // V changes with its version: neither the value nor the parts are stale.
        V *= Scalar(0.5);
        QCOMPARE(cache.value(graph, V, Scalar(2), 2), graphQuadraticForm(graph, V));
        graphGradientParts(graph, V, Scalar(2), plus0, minus0);
        cache.parts(graph, V, Scalar(2), 2, plus, minus);
        QVERIFY(plus == plus0 && minus == minus0);
    }

    void constantRowsGiveZero()
    {
        // Equal rows of V: every pair term is exactly 0, and the degree term of a kNN graph
        // (D = S 1) is 0 up to the rounding of the row sums, where the difference form
        // Tr(V^T D V) - Tr(V^T S V) would leave rounding of the size of the whole trace.
        const Graph graph = sampleGraph(500, 7);
        const Matrix V = Matrix::Constant(500, 10, Scalar(0.25));
        const double value = graphQuadraticForm(graph, V);
        QVERIFY(value >= 0);
        // In the float build the degrees themselves are sums rounded to float, so d_i - (S 1)_i
        // is of the order of their last bit (measured: 4.5e-6).
        const double bound = std::is_same_v<Scalar, float> ? 1e-4 : 1e-12;
        QVERIFY2(value <= bound, qPrintable(QString::number(value)));
    }
};

#include "facet_test.h"
FACET_TEST_APPLESS_MAIN(GraphTermsTest)
#include "test_graph_terms.moc"
