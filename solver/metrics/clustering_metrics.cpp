// SPDX-License-Identifier: GPL-3.0-or-later
#include "metrics/clustering_metrics.h"

#include "cluster/hungarian.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <string>

namespace facet {
namespace {

void checkLabels(const std::vector<int>& truth, const std::vector<int>& predicted)
{
    if (truth.size() != predicted.size())
        throw std::invalid_argument("clustering metrics need one predicted label per sample; got "
            + std::to_string(truth.size()) + " true and " + std::to_string(predicted.size())
            + " predicted labels");
    if (truth.empty())
        throw std::invalid_argument("clustering metrics need at least one sample");
}

std::vector<int> sortedDistinct(std::vector<int> values)
{
    std::sort(values.begin(), values.end());
    values.erase(std::unique(values.begin(), values.end()), values.end());
    return values;
}

Eigen::Index indexOf(const std::vector<int>& sorted, int value)
{
    return Eigen::Index(std::lower_bound(sorted.begin(), sorted.end(), value) - sorted.begin());
}

void checkTable(const Contingency& table)
{
    if (table.counts.rows() != Eigen::Index(table.trueValues.size())
        || table.counts.cols() != Eigen::Index(table.predictedValues.size()))
        throw std::invalid_argument("contingency table is " + std::to_string(table.counts.rows())
            + " x " + std::to_string(table.counts.cols()) + " but lists "
            + std::to_string(table.trueValues.size()) + " true and "
            + std::to_string(table.predictedValues.size()) + " predicted values");
}

// Best one-to-one map, as a column (true class index) per predicted cluster index, or -1.
// Clusters are the rows so that surplus clusters, not surplus classes, come back unmapped.
std::vector<int> clusterToClassIndex(const Contingency& table)
{
    return maximumWeightAssignment(table.counts.transpose().cast<double>());
}

// H = sum_i (a_i / n) log(n / a_i) over the non-zero marginal counts a_i.
double entropy(const Eigen::VectorXd& marginal, double n)
{
    double h = 0;
    for (const double a : marginal) {
        if (a > 0)
            h += a / n * std::log(n / a);
    }
    return h;
}

} // namespace

Contingency contingencyTable(const std::vector<int>& truth, const std::vector<int>& predicted)
{
    checkLabels(truth, predicted);
    Contingency table;
    table.trueValues = sortedDistinct(truth);
    table.predictedValues = sortedDistinct(predicted);
    table.counts = Eigen::MatrixXi::Zero(
        Eigen::Index(table.trueValues.size()), Eigen::Index(table.predictedValues.size()));
    for (std::size_t s = 0; s < truth.size(); ++s)
        ++table.counts(
            indexOf(table.trueValues, truth[s]), indexOf(table.predictedValues, predicted[s]));
    return table;
}

std::vector<int> bestClusterToClassMap(const Contingency& table)
{
    checkTable(table);
    const std::vector<int> classIndex = clusterToClassIndex(table);
    std::vector<int> map(classIndex.size());
    for (std::size_t c = 0; c < classIndex.size(); ++c)
        map[c] = classIndex[c] >= 0 ? table.trueValues[std::size_t(classIndex[c])]
                                    : std::numeric_limits<int>::min();
    return map;
}

// AC = (1/n) max_map sum_c counts(map(c), c) (METHODS.md section 5).
double clusteringAccuracy(const std::vector<int>& truth, const std::vector<int>& predicted)
{
    const Contingency table = contingencyTable(truth, predicted);
    const std::vector<int> classIndex = clusterToClassIndex(table);
    long long matched = 0;
    for (std::size_t c = 0; c < classIndex.size(); ++c) {
        if (classIndex[c] >= 0)
            matched += table.counts(classIndex[c], Eigen::Index(c));
    }
    return double(matched) / double(truth.size());
}

// With n_ij the contingency counts, a_i and b_j its row and column sums:
// MI = sum_ij (n_ij / n) log(n n_ij / (a_i b_j)), NMI = MI / max(H(a), H(b)).
double normalizedMutualInformation(const std::vector<int>& truth, const std::vector<int>& predicted)
{
    const Contingency table = contingencyTable(truth, predicted);
    if (table.counts.rows() == 1 && table.counts.cols() == 1)
        return 1.0;

    const Eigen::MatrixXd counts = table.counts.cast<double>();
    const double n = double(truth.size());
    const Eigen::VectorXd a = counts.rowwise().sum();
    const Eigen::VectorXd b = counts.colwise().sum().transpose();
    double mi = 0;
    for (Eigen::Index j = 0; j < counts.cols(); ++j) {
        for (Eigen::Index i = 0; i < counts.rows(); ++i) {
            const double nij = counts(i, j);
            if (nij > 0)
                mi += nij / n * std::log(n * nij / (a(i) * b(j)));
        }
    }
    // Every listed label occurs, so with two or more on one side that side's entropy is > 0.
    const double denominator = std::max(entropy(a, n), entropy(b, n));
    // MI <= min(H) <= max(H) exactly; rounding may overshoot either end by an ulp or so.
    return std::clamp(mi / denominator, 0.0, 1.0);
}

} // namespace facet
