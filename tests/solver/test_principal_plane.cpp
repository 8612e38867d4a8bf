// SPDX-License-Identifier: GPL-3.0-or-later
// The principal plane of V and the nearest-centre cells drawn behind the representation scatter.
#include "core/random.h"
#include "metrics/principal_plane.h"

#include <Eigen/SVD>
#include <QtTest>

#include <cmath>
#include <stdexcept>

using namespace facet;

namespace {

constexpr double kTol = std::is_same_v<Scalar, float> ? 1e-4 : 1e-9;

} // namespace

class TestPrincipalPlane : public QObject {
    Q_OBJECT

private slots:
    void planarDataKeepsItsDistances()
    {
        // Rows of V on an affine plane in R^6: the projection is an isometry of that plane.
        Rng rng(5);
        const Matrix coords = rng.uniformMatrix(40, 2);
        const Matrix frame = rng.uniformMatrix(2, 6);
        Matrix V = coords * frame;
        V.rowwise() += rng.uniformMatrix(1, 6).row(0);
        const PrincipalPlane plane = principalPlane(V);
        QCOMPARE(plane.points.rows(), Eigen::Index(40));
        QCOMPARE(plane.points.cols(), Eigen::Index(2));
        for (Eigen::Index a = 0; a < 40; a += 7)
            for (Eigen::Index b = 1; b < 40; b += 5)
                QVERIFY(std::abs(double((plane.points.row(a) - plane.points.row(b)).norm()
                            - (V.row(a) - V.row(b)).norm()))
                    < kTol);
        QVERIFY(std::abs(plane.variance[0] + plane.variance[1] - plane.totalVariance) < kTol);
    }

    void axesAreTheLeadingSingularVectors()
    {
        Rng rng(9);
        Matrix V = rng.uniformMatrix(60, 5);
        V.col(2) *= 4; // a clear leading direction
        const PrincipalPlane plane = principalPlane(V);
        const Matrix centred = V.rowwise() - V.colwise().mean();
        const Eigen::JacobiSVD<Matrix> svd(centred, Eigen::ComputeThinV);
        for (int a = 0; a < 2; ++a) {
            const double s = double(svd.singularValues()(a));
            QVERIFY(std::abs(plane.variance[a] - s * s / 59.0) < kTol);
            // Same direction up to sign, and the sign rule makes the largest entry positive.
            QVERIFY(
                std::abs(std::abs(double(plane.axes.col(a).dot(svd.matrixV().col(a)))) - 1) < kTol);
            Eigen::Index at = 0;
            plane.axes.col(a).cwiseAbs().maxCoeff(&at);
            QVERIFY(plane.axes(at, a) > 0);
        }
        QVERIFY(plane.variance[0] >= plane.variance[1]);
        QVERIFY(std::abs(double(plane.axes.col(0).dot(plane.axes.col(1)))) < kTol);
        QVERIFY(std::abs(plane.totalVariance - double(centred.squaredNorm()) / 59.0) < kTol);
        QVERIFY((projectOntoPlane(plane, V) - plane.points).norm() < kTol);
    }

    void rankOneHasAFlatSecondAxis()
    {
        Matrix V(4, 1);
        V << 1, 2, 3, 6;
        const PrincipalPlane plane = principalPlane(V);
        QCOMPARE(plane.axes(0, 0), Scalar(1));
        QCOMPARE(plane.axes(0, 1), Scalar(0));
        QVERIFY(std::abs(double(plane.points(3, 0)) - 3.0) < kTol);
        QCOMPARE(plane.points.col(1).norm(), Scalar(0));
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, principalPlane(Matrix(0, 3)));
    }

    void centresAreClusterMeans()
    {
        Matrix V(5, 2);
        V << 1, 0, //
            3, 2, //
            10, 10, //
            0, 4, //
            12, 14;
        const Matrix centres = clusterCentres(V, { 0, 0, 2, 0, 2 }, 3);
        QCOMPARE(centres.rows(), Eigen::Index(3));
        QVERIFY(std::abs(double(centres(0, 0)) - 4.0 / 3.0) < kTol);
        QVERIFY(std::abs(double(centres(0, 1)) - 2.0) < kTol);
        QVERIFY(std::isnan(double(centres(1, 0)))); // empty cluster
        QCOMPARE(centres(2, 0), Scalar(11));
        QCOMPARE(centres(2, 1), Scalar(12));
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, clusterCentres(V, { 0, 1 }, 2));
    }

    void gridLabelsTheNearestCentre()
    {
        Matrix centres(3, 2);
        centres << -1, 0, //
            std::numeric_limits<Scalar>::quiet_NaN(), 0, //
            1, 1;
        // x = -2, -1, 0, 1, 2 and y = -1, 1 (end points on the bounds).
        const Eigen::MatrixXi grid = nearestCentreGrid(centres, -2, 2, -1, 1, 5, 2);
        QCOMPARE(grid.rows(), Eigen::Index(5));
        QCOMPARE(grid.cols(), Eigen::Index(2));
        Eigen::MatrixXi expected(5, 2);
        // (0, -1): 1 + 1 = 2 to centre 0 vs 1 + 4 = 5 to centre 2; (0, 1): 5 vs 1.
        expected << 0, 0, //
            0, 0, //
            0, 2, //
            2, 2, //
            2, 2;
        QVERIFY(grid == expected);
        QVERIFY(nearestCentreGrid(centres.middleRows(1, 1), 0, 1, 0, 1, 2, 2).minCoeff() == -1);
    }
};

#include "facet_test.h"
FACET_TEST_APPLESS_MAIN(TestPrincipalPlane)
#include "test_principal_plane.moc"
