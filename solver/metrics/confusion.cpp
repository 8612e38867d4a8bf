// SPDX-License-Identifier: GPL-3.0-or-later
#include "metrics/confusion.h"

#include "metrics/clustering_metrics.h"

#include <algorithm>
#include <numeric>

namespace facet {

long long ConfusionMatrix::matchedCount() const
{
    long long matched = 0;
    for (Eigen::Index j = 0; j < counts.cols(); ++j) {
        const int row = mappedRow[std::size_t(j)];
        if (row >= 0)
            matched += counts(row, j);
    }
    return matched;
}

ConfusionMatrix confusionMatrix(const std::vector<int>& truth, const std::vector<int>& predicted)
{
    const Contingency table = contingencyTable(truth, predicted);
    // The same map AC maximizes, so the matched cells add up to n * AC exactly.
    const std::vector<int> mappedValue = bestClusterToClassMap(table);
    const std::size_t clusters = table.predictedValues.size();
    std::vector<int> rowOf(clusters, -1);
    for (std::size_t c = 0; c < clusters; ++c) {
        const auto at
            = std::lower_bound(table.trueValues.begin(), table.trueValues.end(), mappedValue[c]);
        if (at != table.trueValues.end() && *at == mappedValue[c])
            rowOf[c] = int(at - table.trueValues.begin());
    }

    // Mapped clusters by their class row, then the unmapped ones as they come.
    std::vector<std::size_t> order(clusters);
    std::iota(order.begin(), order.end(), std::size_t(0));
    std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
        const bool aMapped = rowOf[a] >= 0;
        const bool bMapped = rowOf[b] >= 0;
        if (aMapped != bMapped)
            return aMapped;
        return aMapped && rowOf[a] < rowOf[b];
    });

    ConfusionMatrix out;
    out.trueValues = table.trueValues;
    out.counts.resize(table.counts.rows(), Eigen::Index(clusters));
    for (std::size_t j = 0; j < clusters; ++j) {
        const std::size_t c = order[j];
        out.clusterValues.push_back(table.predictedValues[c]);
        out.mappedRow.push_back(rowOf[c]);
        out.counts.col(Eigen::Index(j)) = table.counts.col(Eigen::Index(c));
        if (rowOf[c] >= 0)
            ++out.matchedColumns;
    }
    return out;
}

} // namespace facet
