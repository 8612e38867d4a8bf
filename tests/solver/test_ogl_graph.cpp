// SPDX-License-Identifier: GPL-3.0-or-later
// The graph pieces of CF_OGL (METHODS.md section 3): the adaptive-neighbour graph G against a
// brute-force construction, connected components, and the sparse spectral embedding against
// the dense eigensolver.
#include "core/openmp.h"
#include "core/random.h"
#include "graph/adaptive_neighbors.h"
#include "graph/components.h"
#include "graph/spectral.h"

#include "test_printers.h"

#include "graph_fixtures.h"

#include <Eigen/Eigenvalues>
#include <QtTest>

#include <algorithm>
#include <cmath>
#include <numbers>
#include <utility>
#include <vector>

using namespace facet;

namespace {

using Index = Eigen::Index;

// c Gaussian blobs of `size` points in m dimensions, non-negative, centres 4 apart.
Matrix graphBlobs(int c, int size, int m, std::uint64_t seed, std::vector<int>* labels = nullptr)
{
    Rng rng(seed);
    Matrix X(m, c * size);
    for (int k = 0; k < c; ++k)
        for (int s = 0; s < size; ++s) {
            const Index j = k * size + s;
            for (Index f = 0; f < m; ++f) {
                const double u1 = 1 - rng.uniform();
                const double u2 = rng.uniform();
                const double z = std::sqrt(-2 * std::log(u1)) * std::cos(2 * std::numbers::pi * u2);
                X(f, j) = Scalar(std::max(0.0, 1.0 + (f % c == k ? 4.0 : 0.0) + 0.25 * z));
            }
            if (labels)
                labels->push_back(k);
        }
    return X;
}

// The formula of METHODS.md 3, straight from its definition on the full distance matrix.
Matrix bruteForceAdaptiveGraph(const Matrix& X, int p)
{
    const Index n = X.cols();
    Matrix G = Matrix::Zero(n, n);
    for (Index i = 0; i < n; ++i) {
        std::vector<std::pair<Scalar, Index>> d;
        for (Index j = 0; j < n; ++j)
            if (j != i)
                d.emplace_back((X.col(i) - X.col(j)).squaredNorm(), j);
        std::sort(d.begin(), d.end());
        const Scalar far = d[std::size_t(std::min<Index>(p, n - 2))].first;
        Scalar sum = 0;
        for (int h = 0; h < p; ++h)
            sum += d[std::size_t(h)].first;
        const Scalar den = p * far - sum;
        for (int h = 0; h < p; ++h)
            G(i, d[std::size_t(h)].second)
                = den > 0 ? (far - d[std::size_t(h)].first) / den : Scalar(1) / p;
    }
    return (G + G.transpose()) / 2;
}

using testing::laplacian;

} // namespace

class TestOglGraph : public QObject {
    Q_OBJECT
private slots:
    void adaptiveGraphMatchesBruteForce_data()
    {
        QTest::addColumn<int>("n");
        QTest::addColumn<int>("p");
        QTest::addColumn<bool>("duplicates");
        QTest::newRow("n=40 p=5") << 40 << 5 << false;
        QTest::newRow("n=40 p=1") << 40 << 1 << false;
        QTest::newRow("n=12 p=11 (n-1)") << 12 << 11 << false;
        QTest::newRow("n=40 p=5 duplicates") << 40 << 5 << true;
        QTest::newRow("n=600 p=7 (several blocks)") << 600 << 7 << false;
    }
    void adaptiveGraphMatchesBruteForce()
    {
        QFETCH(int, n);
        QFETCH(int, p);
        QFETCH(bool, duplicates);
        Rng rng(std::uint64_t(n * 31 + p));
        Matrix X = rng.uniformMatrix(6, n);
        if (duplicates)
            for (Index j = 0; j < n; j += 3)
                X.col(j) = X.col(0); // many equal distances: ties go by index
        const Graph G = adaptiveNeighborGraph(X, p);
        const Matrix dense = Matrix(G.S);
        const Matrix reference = bruteForceAdaptiveGraph(X, p);
        QVERIFY2((dense - reference).cwiseAbs().maxCoeff() < 1e-12,
            qPrintable(QStringLiteral("max deviation %1")
                           .arg(double((dense - reference).cwiseAbs().maxCoeff()))));
        QVERIFY((dense - dense.transpose()).cwiseAbs().maxCoeff() == 0);
        QVERIFY(dense.diagonal().cwiseAbs().maxCoeff() == 0);
        QVERIFY((G.degree - dense.rowwise().sum()).cwiseAbs().maxCoeff() < 1e-12);
        // Only positive weights are stored, and every row has one.
        for (Index j = 0; j < G.S.outerSize(); ++j) {
            QVERIFY(G.S.outerIndexPtr()[j + 1] > G.S.outerIndexPtr()[j]);
            for (SparseMatrix::InnerIterator it(G.S, j); it; ++it)
                QVERIFY(it.value() > 0);
        }
    }
    void identicalSamplesGiveUniformRows()
    {
        const Matrix X = Matrix::Ones(3, 8);
        const Graph G = adaptiveNeighborGraph(X, 3);
        const Matrix dense = Matrix(G.S);
        // Row i of the unsymmetrized G is 1/3 on samples with the 3 smallest indices != i.
        QVERIFY(std::abs(dense(0, 1) - 1.0 / 3) < 1e-15); // 0 -> 1 and 1 -> 0
        QVERIFY(std::abs(dense(0, 4) - 1.0 / 6) < 1e-15); // 4 -> 0 only
        QCOMPARE(dense(5, 6), Scalar(0));
    }
    void badNeighbourCountThrows()
    {
        const Matrix X = Matrix::Ones(2, 5);
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, adaptiveNeighborGraph(X, 0));
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, adaptiveNeighborGraph(X, 5));
    }
    void componentsOfBlocks()
    {
        // Edges 0-2, 2-4 (one direction only), 1-3; 5 alone; a stored zero is not an edge.
        SparseMatrix A(6, 6);
        A.insert(0, 2) = 1;
        A.insert(4, 2) = 0.5;
        A.insert(1, 3) = 2;
        A.insert(3, 1) = 2;
        A.insert(5, 0) = 0;
        A.insert(5, 5) = 3; // a self-loop joins nothing
        const Components c = connectedComponents(A);
        QCOMPARE(c.count, 3);
        QCOMPARE(c.labels, (std::vector<int> { 0, 1, 0, 1, 0, 2 }));
    }
    void blobsGiveOneComponentEach()
    {
        std::vector<int> labels;
        const Matrix X = graphBlobs(3, 30, 10, 4, &labels);
        const Components c = connectedComponents(adaptiveNeighborGraph(X, 5).S);
        QCOMPARE(c.count, 3);
        QCOMPARE(c.labels, labels);
    }
    void sparseMatchesDense_data()
    {
        // 0: connected random, 1: three blobs, 2: seven blobs (more components than the sparse
        // path's factorization groups, so groups of two components)
        // Each on both sparse solvers: the shift-invert Lanczos (these graphs are below
        // kChebyshevMinNodes) and the filtered subspace iteration (chebyshevFrom = 0).
        QTest::addColumn<int>("graph");
        QTest::addColumn<int>("c");
        QTest::addColumn<bool>("filtered");
        for (const bool filtered : { false, true }) {
            const char* tag = filtered ? " filtered" : " shift-invert";
            QTest::addRow("connected c=1%s", tag) << 0 << 1 << filtered;
            QTest::addRow("connected c=4%s", tag) << 0 << 4 << filtered;
            QTest::addRow("3 components c=2%s", tag) << 1 << 2 << filtered;
            QTest::addRow("3 components c=3%s", tag) << 1 << 3 << filtered;
            QTest::addRow("3 components c=6%s", tag) << 1 << 6 << filtered;
            QTest::addRow("7 components c=7%s", tag) << 2 << 7 << filtered;
            QTest::addRow("7 components c=10%s", tag) << 2 << 10 << filtered;
        }
    }
    void sparseMatchesDense()
    {
        QFETCH(int, graph);
        QFETCH(int, c);
        QFETCH(bool, filtered);
        const Index from = filtered ? 0 : kChebyshevMinNodes;
        Rng rng(21);
        const Matrix X = graph == 0 ? Matrix(rng.uniformMatrix(3, 300))
            : graph == 1            ? graphBlobs(3, 100, 10, 8)
                                    : graphBlobs(7, 40, 10, 9);
        const int components = graph == 0 ? 1 : graph == 1 ? 3 : 7;
        const SparseMatrix L = laplacian(adaptiveNeighborGraph(X, 6).S);
        QCOMPARE(connectedComponents(SparseMatrix(-L)).count, components);
        const SpectralEmbedding dense = smallestEigenpairs(L, c, L.rows());
        const SpectralEmbedding sparse = smallestEigenpairs(L, c, 0, nullptr, from);
        QVERIFY(dense.converged && sparse.converged);
        QVERIFY(dense.path == SpectralEmbedding::Path::Dense);
        QVERIFY(sparse.path
            == (c + 1 <= components ? SpectralEmbedding::Path::Components
                    : filtered      ? SpectralEmbedding::Path::Filtered
                                    : SpectralEmbedding::Path::ShiftInvert));
        // The work each path reports for the bench: 9n^3 for the dense QR algorithm; the
        // sparse path, when the components leave eigenpairs to find (3 components answer c = 2
        // alone), at least one product per eigenpair and far less than the dense path.
        const double n = double(L.rows());
        QCOMPARE(dense.flops, 9 * n * n * n);
        if (c + 1 <= components) {
            QCOMPARE(sparse.flops, 0.0);
        } else {
            QVERIFY(sparse.flops > 5 * n * double(c) && sparse.flops < dense.flops / 10);
            QVERIFY(sparse.bytes > 0);
        }
        QCOMPARE(sparse.eigenvalues.size(), Index(c + 1));
        QVERIFY2((dense.eigenvalues - sparse.eigenvalues).cwiseAbs().maxCoeff() < 1e-10,
            qPrintable(
                QStringLiteral("eigenvalue deviation %1")
                    .arg(double((dense.eigenvalues - sparse.eigenvalues).cwiseAbs().maxCoeff()))));
        for (const SpectralEmbedding* e : { &dense, &sparse }) {
            QVERIFY(
                (e->F.transpose() * e->F - Matrix::Identity(c, c)).cwiseAbs().maxCoeff() < 1e-10);
            // Tr(F^T L F) is the sum of the c smallest eigenvalues (the minimum, Ky Fan).
            const double trace = (e->F.transpose() * (L * e->F)).trace();
            QVERIFY(std::abs(trace - dense.eigenvalues.head(c).sum()) < 1e-10);
        }
        // The same invariant subspace where it is unique (a gap after the c-th eigenvalue).
        if (dense.eigenvalues(c) - dense.eigenvalues(c - 1) > 1e-6) {
            const Matrix P = dense.F * dense.F.transpose() - sparse.F * sparse.F.transpose();
            QVERIFY2(P.cwiseAbs().maxCoeff() < 1e-6,
                qPrintable(
                    QStringLiteral("projector deviation %1").arg(double(P.cwiseAbs().maxCoeff()))));
        }
        // Zero eigenvalues count components (the beta rule reads them).
        const int zeros = int((sparse.eigenvalues.array() < kZeroEigenvalue).count());
        QCOMPARE(zeros, std::min(c + 1, components));
        // Deterministic, also on one thread and on three (the component groups are fixed).
        QVERIFY(smallestEigenpairs(L, c, 0, nullptr, from).F == sparse.F);
        const int saved = omp::maxThreads();
        for (const int threads : { 1, 3 }) {
            omp::setThreads(threads);
            const Matrix F = smallestEigenpairs(L, c, 0, nullptr, from).F;
            omp::setThreads(saved);
            QVERIFY(F == sparse.F);
        }
    }
    // The filter's upper end (spectrumUpperBound) must lie above lambda_max(L): an eigenvalue
    // past it would be amplified instead of damped. Graphs whose top eigenvector a 16-step
    // Lanczos could miss or underestimate: a path (lambda_max approached slowly, a dense top of
    // the spectrum; there Gershgorin's bound 4 is the tighter one), a star (lambda_max = n, far
    // above the rest, on one hub), a heavy three-leaf star beside a path (lambda_max = 4000 with
    // Gershgorin's bound 6000, the top eigenvector on 4 of 504 nodes), CF_OGL's learned graph of
    // blobs and of noise. It must also stay within Gershgorin's bound, and on the learned
    // graphs be tighter than it (the filters' rate, spectral.cpp).
    void spectrumUpperBoundHolds_data()
    {
        QTest::addColumn<int>("graph");
        QTest::addColumn<bool>("tighter");
        QTest::newRow("path") << 0 << false;
        QTest::newRow("star") << 1 << false;
        QTest::newRow("heavy small star beside a path") << 2 << false;
        QTest::newRow("learned graph of 3 blobs") << 3 << true;
        QTest::newRow("learned graph of noise") << 4 << true;
    }
    void spectrumUpperBoundHolds()
    {
        QFETCH(int, graph);
        QFETCH(bool, tighter);
        std::vector<Eigen::Triplet<Scalar, Index>> edges;
        const auto edge = [&](Index i, Index j, Scalar w) {
            edges.emplace_back(i, j, w);
            edges.emplace_back(j, i, w);
        };
        SparseMatrix S;
        if (graph <= 2) {
            const Index n = graph == 2 ? 504 : 500;
            for (Index i = 1; i < 500; ++i)
                edge(graph == 1 ? 0 : i - 1, i, Scalar(1));
            if (graph == 2)
                for (Index leaf = 501; leaf < 504; ++leaf)
                    edge(500, leaf, Scalar(1000));
            S.resize(n, n);
            S.setFromTriplets(edges.begin(), edges.end());
        } else {
            Rng rng(4);
            S = adaptiveNeighborGraph(
                graph == 3 ? graphBlobs(3, 150, 10, 12) : Matrix(rng.uniformMatrix(8, 450)), 5)
                    .S;
        }
        const SparseMatrix L = laplacian(S);
        const double largest
            = double(Eigen::SelfAdjointEigenSolver<Matrix>(Matrix(L), Eigen::EigenvaluesOnly)
                         .eigenvalues()
                         .maxCoeff());
        double gershgorin = 0;
        for (Index i = 0; i < L.outerSize(); ++i)
            gershgorin = std::max(gershgorin, double(L.col(i).cwiseAbs().sum()));
        const double bound = double(spectrumUpperBound(L));
        const QByteArray numbers = QStringLiteral("bound %1, lambda_max %2, Gershgorin %3")
                                       .arg(bound, 0, 'g', 12)
                                       .arg(largest, 0, 'g', 12)
                                       .arg(gershgorin, 0, 'g', 12)
                                       .toUtf8();
        QVERIFY2(bound >= largest * (1 - 1e-10), numbers.constData());
        QVERIFY2(bound <= gershgorin, numbers.constData());
        if (tighter)
            QVERIFY2(bound < 0.9 * gershgorin, numbers.constData());
        QCOMPARE(spectrumUpperBound(L), Scalar(bound)); // a fixed start
    }
    // A warm start from the eigenvectors of a nearby graph (CF_OGL's previous outer iteration)
    // gives the cold solve's answer in fewer operator products. Nearby: every weight of the
    // graph scaled by a factor in [0.97, 1.03]. Connected (c + 1 eigenpairs to find) and three
    // blobs (c + 1 - 3).
    void warmStartFromNearbyGraph_data()
    {
        QTest::addColumn<int>("graph");
        QTest::addColumn<int>("c");
        QTest::addColumn<bool>("filtered");
        for (const bool filtered : { false, true }) {
            const char* tag = filtered ? " filtered" : " shift-invert";
            QTest::addRow("connected c=4%s", tag) << 0 << 4 << filtered;
            QTest::addRow("connected c=8%s", tag) << 0 << 8 << filtered;
            QTest::addRow("3 components c=3%s", tag) << 1 << 3 << filtered;
            QTest::addRow("3 components c=6%s", tag) << 1 << 6 << filtered;
        }
    }
    void warmStartFromNearbyGraph()
    {
        QFETCH(int, graph);
        QFETCH(int, c);
        QFETCH(bool, filtered);
        const Index from = filtered ? 0 : kChebyshevMinNodes;
        Rng rng(23);
        const Matrix X = graph == 0 ? Matrix(rng.uniformMatrix(3, 600)) : graphBlobs(3, 200, 10, 8);
        const SparseMatrix S0 = adaptiveNeighborGraph(X, 6).S;
        SparseMatrix S1 = S0;
        // Symmetric perturbation: the factor depends on the unordered pair.
        for (Index j = 0; j < S1.outerSize(); ++j)
            for (SparseMatrix::InnerIterator it(S1, j); it; ++it) {
                const Index a = std::min(it.row(), it.col()), b = std::max(it.row(), it.col());
                it.valueRef() *= Scalar(1 + 0.03 * std::sin(double(7 * a + 13 * b)));
            }
        const SpectralEmbedding previous = smallestEigenpairs(laplacian(S0), c, 0, nullptr, from);
        QVERIFY(previous.converged);
        QCOMPARE(previous.solved.rows(), X.cols());
        QCOMPARE(previous.solved.cols(), Index(c + 1 - (graph == 0 ? 1 : 3)));
        const SparseMatrix L = laplacian(S1);
        const SpectralEmbedding cold = smallestEigenpairs(L, c, 0, nullptr, from);
        const SpectralEmbedding warm = smallestEigenpairs(L, c, 0, &previous.solved, from);
        QVERIFY(cold.converged && warm.converged);
        const auto path
            = filtered ? SpectralEmbedding::Path::Filtered : SpectralEmbedding::Path::ShiftInvert;
        QVERIFY(previous.path == path && cold.path == path && warm.path == path);
        QVERIFY2(warm.products < cold.products,
            qPrintable(
                QStringLiteral("warm %1 products, cold %2").arg(warm.products).arg(cold.products)));
        QVERIFY(warm.flops < cold.flops);
        QVERIFY2((warm.eigenvalues - cold.eigenvalues).cwiseAbs().maxCoeff() < 1e-10,
            qPrintable(
                QStringLiteral("eigenvalue deviation %1")
                    .arg(double((warm.eigenvalues - cold.eigenvalues).cwiseAbs().maxCoeff()))));
        QVERIFY(
            (warm.F.transpose() * warm.F - Matrix::Identity(c, c)).cwiseAbs().maxCoeff() < 1e-10);
        const double trace = (warm.F.transpose() * (L * warm.F)).trace();
        QVERIFY(std::abs(trace - cold.eigenvalues.head(c).sum()) < 1e-10);
        // Deterministic; a start of the wrong size is ignored (the cold solve, bit for bit).
        QVERIFY(smallestEigenpairs(L, c, 0, &previous.solved, from).F == warm.F);
        const Matrix wrongSize = Matrix::Ones(X.cols() - 1, 2);
        QVERIFY(smallestEigenpairs(L, c, 0, &wrongSize, from).F == cold.F);
    }
    // A path of n nodes has lambda_k = 2 - 2 cos(pi k / n): its small eigenvalues are 1e-6 apart
    // under a spectrum 4 wide, which the degree-20 filters cannot separate in 40 rounds. The
    // solve must hand over to the shift-invert Lanczos and still give the exact spectrum; the
    // filtered products it spent are counted.
    void filteredFallsBackToShiftInvert()
    {
        const Index n = 2500;
        const int c = 3;
        std::vector<Eigen::Triplet<Scalar, Index>> edges;
        for (Index i = 0; i + 1 < n; ++i) {
            edges.emplace_back(i, i + 1, Scalar(1));
            edges.emplace_back(i + 1, i, Scalar(1));
        }
        SparseMatrix S(n, n);
        S.setFromTriplets(edges.begin(), edges.end());
        const SparseMatrix L = laplacian(S);
        const SpectralEmbedding e = smallestEigenpairs(L, c, 0, nullptr, 0);
        QVERIFY(e.converged);
        QVERIFY(e.path == SpectralEmbedding::Path::ShiftInvert);
        QVERIFY2(e.products > 40 * 20, qPrintable(QString::number(e.products)));
        for (int k = 0; k <= c; ++k) {
            const double exact = 2 - 2 * std::cos(M_PI * k / double(n));
            QVERIFY2(std::abs(double(e.eigenvalues(k)) - exact) < 1e-12 + 1e-8 * exact,
                qPrintable(QStringLiteral("lambda_%1 = %2, exact %3")
                               .arg(k)
                               .arg(double(e.eigenvalues(k)))
                               .arg(exact)));
        }
        // The default threshold sends the same graph (n >= kChebyshevMinNodes) the same way.
        QVERIFY(smallestEigenpairs(L, c, 0).F == e.F);
    }
};

#include "facet_test.h"
FACET_TEST_APPLESS_MAIN(TestOglGraph)
#include "test_ogl_graph.moc"
