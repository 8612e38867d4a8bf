// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <Eigen/Core>

#include <vector>

namespace facet {

// The predicted clusters renamed after the classes they stand for, so two clusterings of the
// same data can share one colour per class (the 2-D demo's side-by-side panels). A cluster
// mapped to a class by the Hungarian map that AC uses (bestClusterToClassMap) takes that class's
// label value; the unmapped clusters (more clusters than classes) take the values after the
// largest class value, in ascending order of their own value. Throws std::invalid_argument as
// contingencyTable does.
std::vector<int> alignClustersToClasses(
    const std::vector<int>& truth, const std::vector<int>& predicted);

// For each column of `points` (m x k), the Euclidean distance to the nearest column of `centres`
// (m x c, c >= 1): how far a basis vector sits from the cluster centres (METHODS.md section 7).
Eigen::VectorXd nearestCentreDistances(
    const Eigen::MatrixXd& points, const Eigen::MatrixXd& centres);

} // namespace facet
