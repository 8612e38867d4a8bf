// SPDX-License-Identifier: GPL-3.0-or-later
#include "metrics/principal_plane.h"

#include <Eigen/Eigenvalues>

#include <cmath>
#include <limits>
#include <stdexcept>
#include <string>

namespace facet {

PrincipalPlane principalPlane(MatrixCRef V)
{
    const Eigen::Index n = V.rows();
    const Eigen::Index k = V.cols();
    if (n == 0 || k == 0)
        throw std::invalid_argument("the principal plane needs a non-empty V; got "
            + std::to_string(n) + " x " + std::to_string(k));
    PrincipalPlane plane;
    plane.mean = V.colwise().mean();
    const Matrix centred = V.rowwise() - plane.mean;
    // C = Vc^T Vc / (n - 1), k x k; n = 1 gives C = 0 and a plane through the single point.
    const Matrix C = centred.transpose() * centred / Scalar(std::max<Eigen::Index>(n - 1, 1));
    const Eigen::SelfAdjointEigenSolver<Matrix> eig(C);
    // Eigenvalues come ascending: the last columns are the leading axes.
    plane.axes = Matrix::Zero(k, 2);
    for (Eigen::Index a = 0; a < std::min<Eigen::Index>(k, 2); ++a) {
        Vector axis = eig.eigenvectors().col(k - 1 - a);
        Eigen::Index at = 0;
        axis.cwiseAbs().maxCoeff(&at);
        if (axis(at) < 0)
            axis = -axis;
        plane.axes.col(a) = axis;
        plane.variance[a] = std::max(0.0, double(eig.eigenvalues()(k - 1 - a)));
    }
    plane.totalVariance = double(C.trace());
    plane.points = centred * plane.axes;
    return plane;
}

Matrix projectOntoPlane(const PrincipalPlane& plane, MatrixCRef rows)
{
    if (rows.cols() != plane.axes.rows())
        throw std::invalid_argument("rows to project have " + std::to_string(rows.cols())
            + " columns but the plane was fitted to " + std::to_string(plane.axes.rows()));
    return (rows.rowwise() - plane.mean) * plane.axes;
}

Matrix clusterCentres(MatrixCRef V, const std::vector<int>& predicted, int clusters)
{
    if (Eigen::Index(predicted.size()) != V.rows())
        throw std::invalid_argument("cluster centres need one label per row of V; got "
            + std::to_string(predicted.size()) + " labels for " + std::to_string(V.rows())
            + " rows");
    Matrix sums = Matrix::Zero(std::max(clusters, 0), V.cols());
    std::vector<int> sizes(std::size_t(std::max(clusters, 0)), 0);
    for (Eigen::Index i = 0; i < V.rows(); ++i) {
        const int c = predicted[std::size_t(i)];
        if (c < 0 || c >= clusters)
            continue;
        sums.row(c) += V.row(i);
        ++sizes[std::size_t(c)];
    }
    for (int c = 0; c < clusters; ++c) {
        if (sizes[std::size_t(c)] > 0)
            sums.row(c) /= Scalar(sizes[std::size_t(c)]);
        else
            sums.row(c).setConstant(std::numeric_limits<Scalar>::quiet_NaN());
    }
    return sums;
}

Eigen::MatrixXi nearestCentreGrid(
    MatrixCRef centres, double xMin, double xMax, double yMin, double yMax, int nx, int ny)
{
    if (centres.cols() != 2)
        throw std::invalid_argument(
            "centres in the plane need 2 columns, got " + std::to_string(centres.cols()));
    if (nx < 1 || ny < 1)
        throw std::invalid_argument("the grid needs at least 1 x 1 points, got "
            + std::to_string(nx) + " x " + std::to_string(ny));
    const double dx = nx > 1 ? (xMax - xMin) / (nx - 1) : 0;
    const double dy = ny > 1 ? (yMax - yMin) / (ny - 1) : 0;
    Eigen::MatrixXi nearest(nx, ny);
    for (int iy = 0; iy < ny; ++iy) {
        const double y = yMin + iy * dy;
        for (int ix = 0; ix < nx; ++ix) {
            const double x = xMin + ix * dx;
            int best = -1;
            double bestDistance = std::numeric_limits<double>::infinity();
            for (Eigen::Index c = 0; c < centres.rows(); ++c) {
                const double ex = x - double(centres(c, 0));
                const double ey = y - double(centres(c, 1));
                const double distance = ex * ex + ey * ey;
                if (distance < bestDistance) { // NaN compares false: empty clusters drop out
                    bestDistance = distance;
                    best = int(c);
                }
            }
            nearest(ix, iy) = best;
        }
    }
    return nearest;
}

} // namespace facet
