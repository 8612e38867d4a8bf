// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <Eigen/Core>

#include <vector>

namespace facet {

// Kuhn-Munkres: a one-to-one assignment of rows to columns maximizing the total weight.
// Rectangular matrices are allowed: with more rows than columns some rows stay unassigned.
// Returns, per row, the assigned column or -1. O(r^2 c) for r <= c.
std::vector<int> maximumWeightAssignment(const Eigen::MatrixXd& weight);

} // namespace facet
