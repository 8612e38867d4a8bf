// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <Eigen/Core>

#include <vector>

namespace facet {

// METHODS.md section 5. Labels are arbitrary integers (not necessarily 0-based or contiguous);
// both vectors must have the same, non-zero length (std::invalid_argument otherwise).

// Contingency table: rows = distinct true labels (ascending), columns = distinct predicted
// labels (ascending), entry = number of samples with that pair.
struct Contingency {
    std::vector<int> trueValues; // label value of each row
    std::vector<int> predictedValues; // label value of each column
    Eigen::MatrixXi counts;
};
Contingency contingencyTable(const std::vector<int>& truth, const std::vector<int>& predicted);

// For every predicted label value (in Contingency::predictedValues order) the true label value
// it is mapped to by the Hungarian algorithm, or a value not among the true labels when the
// cluster is left unmapped (more clusters than classes): then it is
// std::numeric_limits<int>::min().
std::vector<int> bestClusterToClassMap(const Contingency& table);

// AC: fraction of samples matched under the best one-to-one cluster -> class map.
double clusteringAccuracy(const std::vector<int>& truth, const std::vector<int>& predicted);

// NMI = MI / max(H(truth), H(predicted)); 1 when both partitions are a single cluster.
double normalizedMutualInformation(
    const std::vector<int>& truth, const std::vector<int>& predicted);

} // namespace facet
