// SPDX-License-Identifier: GPL-3.0-or-later
// The kNN graph (METHODS.md 1.3) against a brute-force O(n^2) search, its invariants, the default
// heat width, and the SemiGNMF label constraints (2.3).
#include "core/openmp.h"
#include "core/random.h"
#include "graph/adaptive_neighbors.h"
#include "graph/knn_graph.h"

#include <QtTest>

#include <algorithm>
#include <cmath>
#include <utility>
#include <vector>

using namespace facet;
using Index = Eigen::Index;

Q_DECLARE_METATYPE(facet::GraphWeight)

namespace {

// n uniform samples in [offset, offset + 1)^m with planted duplicates (three copies of sample 3,
// two of sample 7) and, optionally, a zero sample.
Matrix samples(Index m, Index n, double offset, bool zeroSample, std::uint64_t seed)
{
    Rng rng(seed);
    Matrix X = rng.uniformMatrix(m, n).array() + Scalar(offset);
    X.col(10) = X.col(3);
    X.col(20) = X.col(3);
    X.col(31) = X.col(7);
    if (zeroSample)
        X.col(45).setZero();
    return X;
}

// Structure and weights as dense n x n matrices (a stored 0 still counts as an edge).
struct DenseGraph {
    Eigen::Matrix<bool, Eigen::Dynamic, Eigen::Dynamic> edge;
    Matrix weight;
};

DenseGraph densify(const Graph& graph)
{
    const Index n = graph.size();
    DenseGraph d { Eigen::Matrix<bool, Eigen::Dynamic, Eigen::Dynamic>::Constant(n, n, false),
        Matrix::Zero(n, n) };
    for (Index j = 0; j < graph.S.outerSize(); ++j)
        for (SparseMatrix::InnerIterator it(graph.S, j); it; ++it) {
            d.edge(it.row(), it.col()) = true;
            d.weight(it.row(), it.col()) = it.value();
        }
    return d;
}

// Every other sample by (distance from x_i, index), the distance from the difference.
std::vector<std::pair<Scalar, Index>> othersByDistance(const Matrix& X, Index i)
{
    std::vector<std::pair<Scalar, Index>> all;
    for (Index j = 0; j < X.cols(); ++j)
        if (j != i)
            all.emplace_back((X.col(i) - X.col(j)).squaredNorm(), j);
    std::sort(all.begin(), all.end());
    return all;
}

// Brute force: every distance from the difference, neighbours by (distance, index).
DenseGraph referenceGraph(const Matrix& X, int p, GraphWeight weight, double t)
{
    const Index n = X.cols();
    DenseGraph d { Eigen::Matrix<bool, Eigen::Dynamic, Eigen::Dynamic>::Constant(n, n, false),
        Matrix::Zero(n, n) };
    for (Index i = 0; i < n; ++i) {
        const std::vector<std::pair<Scalar, Index>> all = othersByDistance(X, i);
        for (int h = 0; h < p; ++h) {
            d.edge(i, all[std::size_t(h)].second) = true;
            d.edge(all[std::size_t(h)].second, i) = true;
        }
    }
    for (Index i = 0; i < n; ++i)
        for (Index j = 0; j < n; ++j) {
            if (!d.edge(i, j))
                continue;
            double w = 1;
            if (weight == GraphWeight::Heat) {
                w = std::exp(-double((X.col(i) - X.col(j)).squaredNorm()) / (2 * t * t));
            } else if (weight == GraphWeight::Cosine) {
                const double scale = double(X.col(i).norm() * X.col(j).norm());
                w = scale > 0 ? std::clamp(double(X.col(i).dot(X.col(j))) / scale, 0.0, 1.0) : 0.0;
            }
            d.weight(i, j) = Scalar(w);
        }
    return d;
}

double bruteMeanDistance(const Matrix& X)
{
    double sum = 0;
    const Index n = X.cols();
    for (Index i = 0; i < n; ++i)
        for (Index j = i + 1; j < n; ++j)
            sum += double((X.col(i) - X.col(j)).norm());
    return sum / (0.5 * double(n) * double(n - 1));
}

void verifyInvariants(const Graph& graph)
{
    const Index n = graph.size();
    QCOMPARE(graph.S.cols(), n);
    QCOMPARE(graph.degree.size(), n);
    const SparseMatrix St = graph.S.transpose();
    QVERIFY((Matrix(graph.S) - Matrix(St)).cwiseAbs().maxCoeff() == 0);
    QVERIFY(densify(graph).edge.diagonal().count() == 0);
    QVERIFY((graph.S.coeffs() >= 0).all());
    QVERIFY((graph.degree - graph.S * Vector::Ones(n)).cwiseAbs().maxCoeff() < 1e-12);
}

} // namespace

class TestKnnGraph : public QObject {
    Q_OBJECT
private slots:
    void matchesBruteForce_data();
    void matchesBruteForce();
    void blockedSearchAcrossBlocks();
    void tiesAcrossTilesAndThreads();
    void defaultHeatWidth();
    void sampledMeanDistance();
    void refusesBadOptions();
    void labelConstraints();
};

void TestKnnGraph::matchesBruteForce_data()
{
    QTest::addColumn<GraphWeight>("weight");
    QTest::addColumn<int>("p");
    QTest::addColumn<double>("offset"); // -0.5: signed data (negative cosines are cut at 0)
    QTest::addColumn<bool>("explicitT");
    const std::pair<const char*, GraphWeight> modes[] = { { "binary", GraphWeight::Binary },
        { "heat", GraphWeight::Heat }, { "cosine", GraphWeight::Cosine } };
    for (const auto& [name, weight] : modes)
        for (int p : { 1, 5, 12, 59 })
            for (double offset : { 0.0, -0.5 })
                for (bool explicitT : { false, true }) {
                    if (explicitT && weight != GraphWeight::Heat)
                        continue;
                    QTest::addRow("%s p=%d offset=%g%s", name, p, offset, explicitT ? " t=0.7" : "")
                        << weight << p << offset << explicitT;
                }
}

void TestKnnGraph::matchesBruteForce()
{
    QFETCH(GraphWeight, weight);
    QFETCH(int, p);
    QFETCH(double, offset);
    QFETCH(bool, explicitT);
    const Matrix X = samples(8, 60, offset, true, 17);
    KnnOptions o;
    o.p = p;
    o.weight = weight;
    if (explicitT)
        o.heatT = 0.7;
    const double t = explicitT ? 0.7 : bruteMeanDistance(X);
    const Graph graph = buildKnnGraph(X, o);
    verifyInvariants(graph);
    const DenseGraph got = densify(graph);
    const DenseGraph want = referenceGraph(X, p, weight, t);
    QVERIFY(got.edge == want.edge);
    const double err = (got.weight - want.weight).cwiseAbs().maxCoeff();
    QVERIFY2(err <= 1e-12, qPrintable(QStringLiteral("max weight deviation %1").arg(err)));
    // Every sample has at least p neighbours; the zero sample's cosine edges weigh 0.
    for (Index i = 0; i < X.cols(); ++i)
        QVERIFY(got.edge.col(i).count() >= p);
    if (weight == GraphWeight::Cosine)
        QCOMPARE(got.weight.col(45).cwiseAbs().sum(), Scalar(0));
}

void TestKnnGraph::blockedSearchAcrossBlocks()
{
    // Several query blocks of the blocked search, duplicates included.
    Rng rng(5);
    Matrix X = rng.uniformMatrix(4, 2300);
    for (Index j = 2000; j < 2300; j += 7)
        X.col(j) = X.col(j - 1999);
    KnnOptions o;
    o.p = 6;
    const Graph graph = buildKnnGraph(X, o);
    verifyInvariants(graph);
    QVERIFY(densify(graph).edge == referenceGraph(X, 6, GraphWeight::Binary, 1).edge);
}

void TestKnnGraph::tiesAcrossTilesAndThreads()
{
    // The tiled search keeps per-sample candidate lists: 607 copies of one sample (more near-ties
    // than a list holds before it ranks them exactly) spread over 5 tiles of 256, 300 others at
    // a few distinct points, and a second cluster of 60 copies. Against a brute-force ranking
    // by (distance, index), the same neighbours in the same order, on 1 and on 2 threads.
    Rng rng(11);
    Matrix X = rng.uniformMatrix(5, 1300);
    for (Index j = 0; j < 1300; j += 13)
        if (j != 0)
            X.col(j) = X.col(0);
    for (Index j = 1; j < 1300; ++j)
        if (j % 13 != 0 && j % 2 == 0 && j < 1100)
            X.col(j) = X.col(0);
    for (Index j = 1; j < 60; ++j)
        X.col(1299 - 2 * j) = X.col(1299);
    const int count = 7;
    const Index n = X.cols();
    Eigen::Matrix<Index, Eigen::Dynamic, Eigen::Dynamic> wantIndex(count, n);
    Matrix wantDistance(count, n);
    for (Index i = 0; i < n; ++i) {
        const std::vector<std::pair<Scalar, Index>> all = othersByDistance(X, i);
        for (int h = 0; h < count; ++h) {
            wantIndex(h, i) = all[std::size_t(h)].second;
            wantDistance(h, i) = all[std::size_t(h)].first;
        }
    }
    const int threads = omp::maxThreads();
    for (const int t : { 1, 2 }) {
        omp::setThreads(t);
        const NeighborTable got = nearestNeighborTable(X, count);
        omp::setThreads(threads);
        QVERIFY(got.index == wantIndex);
        // (Eigen may sum a 5-entry difference in another order for another operand type.)
        QVERIFY((got.squaredDistance - wantDistance).cwiseAbs().maxCoeff() <= 1e-14);
    }
}

void TestKnnGraph::defaultHeatWidth()
{
    const Matrix X = samples(8, 60, 0.0, true, 3);
    const double brute = bruteMeanDistance(X);
    QVERIFY(std::abs(meanPairwiseDistance(X, 0) - brute) <= 1e-13 * brute);
    // The seed only matters when the samples are subsampled.
    QCOMPARE(meanPairwiseDistance(X, 0), meanPairwiseDistance(X, 99));
    // Identical samples: t falls back to 1 and every weight is 1.
    const Matrix same = Matrix::Ones(3, 10);
    KnnOptions o;
    o.weight = GraphWeight::Heat;
    o.p = 3;
    const Graph graph = buildKnnGraph(same, o);
    verifyInvariants(graph);
    QVERIFY((graph.S.coeffs() == 1).all());
}

void TestKnnGraph::sampledMeanDistance()
{
    // n > 3000: a seeded sample of 3000 samples, reproducible, close to the full mean.
    Rng rng(8);
    const Matrix X = rng.uniformMatrix(3, 3400);
    const double a = meanPairwiseDistance(X, 1);
    QCOMPARE(a, meanPairwiseDistance(X, 1));
    QVERIFY(a != meanPairwiseDistance(X, 2));
    const double full = bruteMeanDistance(X);
    QVERIFY2(
        std::abs(a - full) < 0.02 * full, qPrintable(QStringLiteral("%1 vs %2").arg(a).arg(full)));
}

void TestKnnGraph::refusesBadOptions()
{
    const Matrix X = samples(4, 60, 0.0, false, 1);
    KnnOptions o;
    for (int p : { 0, -1, 60, 61 }) {
        o.p = p;
        try {
            buildKnnGraph(X, o);
            QFAIL(qPrintable(QStringLiteral("p = %1 accepted").arg(p)));
        } catch (const std::invalid_argument& e) {
            QVERIFY2(QString::fromUtf8(e.what()).contains(QStringLiteral("p <= n - 1")), e.what());
        }
    }
    o.p = 59;
    QCOMPARE(buildKnnGraph(X, o).S.nonZeros(), Index(60 * 59)); // p = n - 1: complete graph
    o.p = 5;
    o.weight = GraphWeight::Heat;
    for (double t : { 0.0, -1.0, std::nan("") }) {
        o.heatT = t;
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, buildKnnGraph(X, o));
    }
    Matrix bad = X;
    bad(1, 2) = std::numeric_limits<Scalar>::infinity();
    o.heatT.reset();
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, buildKnnGraph(bad, o));
}

void TestKnnGraph::labelConstraints()
{
    const Matrix X = samples(6, 60, 0.0, false, 4);
    KnnOptions o;
    o.weight = GraphWeight::Heat;
    const Graph graph = buildKnnGraph(X, o);
    std::vector<int> labels(60, -1);
    for (Index i = 0; i < 60; i += 3)
        labels[std::size_t(i)] = int((i / 3) % 4);
    const Graph constrained = applyLabelConstraints(graph, labels);
    verifyInvariants(constrained);
    const DenseGraph before = densify(graph);
    const DenseGraph after = densify(constrained);
    for (Index i = 0; i < 60; ++i)
        for (Index j = 0; j < 60; ++j) {
            const int li = labels[std::size_t(i)];
            const int lj = labels[std::size_t(j)];
            if (i != j && li >= 0 && lj >= 0) {
                QCOMPARE(after.edge(i, j), li == lj);
                QCOMPARE(after.weight(i, j), Scalar(li == lj ? 1 : 0));
            } else {
                QCOMPARE(after.edge(i, j), before.edge(i, j));
                QCOMPARE(after.weight(i, j), before.weight(i, j));
            }
        }
    // No known labels: the graph is unchanged.
    const Graph none = applyLabelConstraints(graph, std::vector<int>(60, -1));
    QVERIFY(densify(none).edge == before.edge);
    QVERIFY(densify(none).weight == before.weight);
    QVERIFY(densify(applyLabelConstraints(graph, {})).weight == before.weight);
    QVERIFY_THROWS_EXCEPTION(
        std::invalid_argument, applyLabelConstraints(graph, std::vector<int>(59, -1)));
    labels[5] = -2;
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, applyLabelConstraints(graph, labels));
}

#include "facet_test.h"
FACET_TEST_APPLESS_MAIN(TestKnnGraph)
#include "test_knn_graph.moc"
