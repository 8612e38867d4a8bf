// SPDX-License-Identifier: GPL-3.0-or-later
// CF_OGL's eigensolve in the single-precision solver (graph/spectral.cpp). Its filtered subspace
// iteration works on blocks whose width is a whole number of SIMD packets, 16 floats with
// AVX-512 against 8 doubles, and stops at a float tolerance (residuals 2e-5 of the spectrum's
// bound): both sparse solvers must still agree with the dense one to float accuracy, count the
// components, and give the same bits on any number of threads.
#include "core/openmp.h"
#include "core/random.h"
#include "graph/adaptive_neighbors.h"
#include "graph/components.h"
#include "graph/spectral.h"

#include "graph_fixtures.h"

#include <QtTest>

#include <type_traits>

using namespace facet;
using Index = Eigen::Index;

namespace {

// c groups of `size` points in m dimensions; group k is raised by 4 in the features f with
// f % c == k, plus uniform noise: one component per group in the adaptive-neighbour graph.
Matrix groups(int c, int size, int m, std::uint64_t seed)
{
    Rng rng(seed);
    Matrix X(m, c * size);
    for (int k = 0; k < c; ++k)
        for (int s = 0; s < size; ++s)
            for (Index f = 0; f < m; ++f)
                X(f, k * size + s) = Scalar(1 + (f % c == k ? 4 : 0) + 0.5 * rng.uniform());
    return X;
}

using testing::laplacian;

} // namespace

class TestSpectralPrecision : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void sparseSolversMatchDense_data()
    {
        QTest::addColumn<int>("components");
        QTest::addColumn<int>("c");
        QTest::addColumn<bool>("filtered");
        for (const bool filtered : { false, true }) {
            const char* tag = filtered ? " filtered" : " shift-invert";
            QTest::addRow("connected c=5%s", tag) << 1 << 5 << filtered;
            QTest::addRow("connected c=20%s", tag) << 1 << 20 << filtered;
            QTest::addRow("4 components c=6%s", tag) << 4 << 6 << filtered;
        }
    }
    void sparseSolversMatchDense()
    {
        static_assert(std::is_same_v<Scalar, float>, "this file tests the float build");
        QFETCH(int, components);
        QFETCH(int, c);
        QFETCH(bool, filtered);
        Rng rng(41);
        const Matrix X
            = components == 1 ? Matrix(rng.uniformMatrix(3, 400)) : groups(components, 100, 8, 5);
        const SparseMatrix L = laplacian(adaptiveNeighborGraph(X, 6).S);
        QCOMPARE(connectedComponents(SparseMatrix(-L)).count, components);
        const Index from = filtered ? 0 : kChebyshevMinNodes;
        const SpectralEmbedding dense = smallestEigenpairs(L, c, L.rows());
        const SpectralEmbedding sparse = smallestEigenpairs(L, c, 0, nullptr, from);
        QVERIFY(dense.converged && sparse.converged);
        QVERIFY(sparse.path
            == (filtered ? SpectralEmbedding::Path::Filtered
                         : SpectralEmbedding::Path::ShiftInvert));
        const float deviation = (dense.eigenvalues - sparse.eigenvalues).cwiseAbs().maxCoeff();
        QVERIFY2(deviation < 1e-5f,
            qPrintable(QStringLiteral("eigenvalue deviation %1").arg(deviation)));
        const float orthogonality
            = (sparse.F.transpose() * sparse.F - Matrix::Identity(c, c)).cwiseAbs().maxCoeff();
        QVERIFY2(orthogonality < 1e-4f, qPrintable(QString::number(orthogonality)));
        // Tr(F^T L F) is the sum of the c smallest eigenvalues.
        const float trace = (sparse.F.transpose() * (L * sparse.F)).trace();
        QVERIFY(std::abs(trace - dense.eigenvalues.head(c).sum()) < 1e-4f);
        QCOMPARE(int((sparse.eigenvalues.array() < kZeroEigenvalue).count()),
            std::min(c + 1, components));
        const int saved = omp::maxThreads();
        for (const int threads : { 1, 3 }) {
            omp::setThreads(threads);
            const Matrix F = smallestEigenpairs(L, c, 0, nullptr, from).F;
            omp::setThreads(saved);
            QVERIFY(F == sparse.F);
        }
    }
};

#include "facet_test.h"
FACET_TEST_APPLESS_MAIN(TestSpectralPrecision)
#include "test_spectral_precision.moc"
