// SPDX-License-Identifier: GPL-3.0-or-later
// One sample against basis V(i, :)^T, as the reconstruction view shows it.
#include "core/random.h"
#include "methods/baselines.h"
#include "metrics/sample_reconstruction.h"

#include <QtTest>

#include <cmath>
#include <stdexcept>

using namespace facet;

namespace {

constexpr double kResidualTol = std::is_same_v<Scalar, float> ? 1e-4 : 1e-9;

} // namespace

class TestSampleReconstruction : public QObject {
    Q_OBJECT

private slots:
    void exactProductHasNoResidual()
    {
        Rng rng(3);
        Factorization f;
        f.method = "nmf";
        f.basis = rng.uniformMatrix(12, 4);
        f.V = rng.uniformMatrix(7, 4);
        const Matrix X = f.basis * f.V.transpose();
        const SampleReconstruction r = reconstructSample(X, f, 5, 3);
        QVERIFY((r.original - X.col(5)).norm() == 0);
        QVERIFY(r.residual.norm() < kResidualTol);
        QVERIFY(r.relativeError < kResidualTol);
        QCOMPARE(int(r.topComponents.size()), 3);
    }

    void errorAndTopTermsHandChecked()
    {
        // basis columns e1, 2 e2, e3 (norms 1, 2, 1); v = (0.5, 0.4, -0.1). Term norms 0.5, 0.8,
        // 0.1: component 1 ranks first though its coefficient is smaller.
        Factorization f;
        f.method = "nmf";
        f.basis = Matrix::Zero(3, 3);
        f.basis(0, 0) = 1;
        f.basis(1, 1) = 2;
        f.basis(2, 2) = 1;
        f.V = Matrix(1, 3);
        f.V << 0.5, 0.4, -0.1;
        Matrix X(3, 1);
        X << 1, 0, 0; // x^ = (0.5, 0.8, -0.1), residual (0.5, -0.8, 0.1)
        const SampleReconstruction r = reconstructSample(X, f, 0, 8);
        QCOMPARE(r.topComponents, (std::vector<int> { 1, 0, 2 }));
        QVERIFY(std::abs(r.topCoefficients[0] - 0.4) < kResidualTol);
        QVERIFY(std::abs(r.topCoefficients[2] + 0.1) < kResidualTol);
        QVERIFY(std::abs(r.relativeError - std::sqrt(0.25 + 0.64 + 0.01)) < kResidualTol);
        QVERIFY(std::abs(double(r.reconstruction(1)) - 0.8) < kResidualTol);
        QVERIFY(std::abs(r.residualPeak - 0.8) < kResidualTol);

        X.setZero();
        QVERIFY(std::isnan(reconstructSample(X, f, 0, 2).relativeError));
    }

    void pcaAddsTheMeanBack()
    {
        // With the full rank, PCA reconstructs every sample exactly once the mean is added.
        Rng rng(8);
        const Matrix X = rng.uniformMatrix(6, 10);
        const Factorization f = pcaBaseline(X, 6);
        const SampleReconstruction r = reconstructSample(X, f, 2, 2);
        QVERIFY(r.relativeError < kResidualTol);
    }

    void badArgumentsThrow()
    {
        Factorization f;
        f.basis = Matrix::Ones(3, 2);
        f.V = Matrix::Ones(4, 2);
        const Matrix X = Matrix::Ones(3, 4);
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, reconstructSample(X, f, 4, 1));
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, reconstructSample(X, f, -1, 1));
        QVERIFY_THROWS_EXCEPTION(
            std::invalid_argument, reconstructSample(Matrix::Ones(2, 4), f, 0, 1));
        QCOMPARE(int(reconstructSample(X, f, 0, 9).topComponents.size()), 2);
    }
};

#include "facet_test.h"
FACET_TEST_APPLESS_MAIN(TestSampleReconstruction)
#include "test_sample_reconstruction.moc"
