// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/types.h"

#include <vector>

namespace facet {

// The representation V (n x k) seen on its first two principal axes, to draw the samples and
// the clusters in a plane. The axes come from the k x k covariance C = Vc^T Vc / (n - 1) with
// Vc = V - 1 mean (never the n x n Gram matrix): k is small, n may be thousands.
struct PrincipalPlane {
    RowVector mean; // 1 x k, the mean row of V
    Matrix axes; // k x 2, unit eigenvectors of C, largest eigenvalue first; zero column if k = 1
    double variance[2] = { 0, 0 }; // the two eigenvalues: variance along each axis
    double totalVariance = 0; // trace(C), so a view can say how much the plane explains
    Matrix points; // n x 2, (V - 1 mean) axes
};

// Eigenvector signs are chosen so each axis's largest-magnitude entry is positive (a seed gives
// one picture). Throws std::invalid_argument for an empty V.
PrincipalPlane principalPlane(MatrixCRef V);

// Rows (r x k, in V's space) projected onto the plane: (rows - 1 mean) axes, r x 2.
Matrix projectOntoPlane(const PrincipalPlane& plane, MatrixCRef rows);

// Mean row of V over the samples of each cluster 0..clusters-1 (clusters x k); an empty cluster
// (or a label outside the range) leaves its row NaN. `predicted` has one entry per row of V.
Matrix clusterCentres(MatrixCRef V, const std::vector<int>& predicted, int clusters);

// For a grid of nx x ny points spanning [xMin, xMax] x [yMin, yMax] with the first and last
// point on the bounds (QCPColorMapData's convention), the index of the nearest row of
// `centres` (c x 2) in the Euclidean metric of the plane; rows with NaN are skipped and -1
// means none is left. Result is nx x ny, entry (ix, iy). These are the cells of the projected
// centres, not the clusters' regions in V's space.
Eigen::MatrixXi nearestCentreGrid(
    MatrixCRef centres, double xMin, double xMax, double yMin, double yMax, int nx, int ny);

} // namespace facet
