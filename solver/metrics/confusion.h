// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <Eigen/Core>

#include <vector>

namespace facet {

// The contingency table of METHODS.md section 5 laid out for reading: rows are the true classes
// (ascending label value), columns the predicted clusters re-ordered by the Hungarian
// cluster -> class map that AC uses (bestClusterToClassMap). Column j < matchedColumns is the
// cluster mapped to the j-th class that has a cluster, in class order; the unmapped clusters
// (more clusters than classes) follow in ascending label order. So with at least as many
// clusters as classes the matched cells are the leading diagonal and trace / n = AC.
struct ConfusionMatrix {
    std::vector<int> trueValues; // label value of each row
    std::vector<int> clusterValues; // predicted label value of each column, in display order
    std::vector<int> mappedRow; // per column: the row its cluster is mapped to, or -1
    Eigen::MatrixXi counts; // classes x clusters
    int matchedColumns = 0;

    // Samples in matched cells: n * AC.
    long long matchedCount() const;
};

// Throws std::invalid_argument as contingencyTable does (different lengths, no samples).
ConfusionMatrix confusionMatrix(const std::vector<int>& truth, const std::vector<int>& predicted);

} // namespace facet
