// SPDX-License-Identifier: GPL-3.0-or-later
#include "metrics/cluster_alignment.h"

#include "metrics/clustering_metrics.h"

#include <algorithm>
#include <limits>
#include <stdexcept>
#include <string>
#include <unordered_map>

namespace facet {

std::vector<int> alignClustersToClasses(
    const std::vector<int>& truth, const std::vector<int>& predicted)
{
    const Contingency table = contingencyTable(truth, predicted);
    const std::vector<int> map = bestClusterToClassMap(table);
    int next = *std::max_element(table.trueValues.begin(), table.trueValues.end()) + 1;
    std::unordered_map<int, int> renamed;
    for (std::size_t c = 0; c < map.size(); ++c)
        renamed[table.predictedValues[c]]
            = map[c] != std::numeric_limits<int>::min() ? map[c] : next++;
    std::vector<int> aligned(predicted.size());
    std::transform(predicted.begin(), predicted.end(), aligned.begin(),
        [&renamed](int cluster) { return renamed.at(cluster); });
    return aligned;
}

Eigen::VectorXd nearestCentreDistances(
    const Eigen::MatrixXd& points, const Eigen::MatrixXd& centres)
{
    if (centres.cols() < 1 || centres.rows() != points.rows())
        throw std::invalid_argument("nearest centre: the centres need the points' "
            + std::to_string(points.rows()) + " coordinates and at least one column");
    Eigen::VectorXd distances(points.cols());
    for (Eigen::Index j = 0; j < points.cols(); ++j)
        distances(j) = (centres.colwise() - points.col(j)).colwise().norm().minCoeff();
    return distances;
}

} // namespace facet
