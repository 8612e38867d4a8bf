// SPDX-License-Identifier: GPL-3.0-or-later
#include "cluster/hungarian.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <string>

namespace facet {
namespace {

// Minimum-cost assignment of every row of `cost` (n x m, n <= m) to a distinct column, by
// shortest augmenting paths with dual potentials (Kuhn 1955, Munkres 1957; the O(n^2 m) form of
// Burkard, Dell'Amico & Martello, "Assignment Problems", sec. 4.4). The duals keep
// cost(i, j) - u(i) - v(j) >= 0, with equality on matched pairs, so each added row is one
// Dijkstra search over columns with non-negative reduced costs; at the end the duals certify
// optimality. Arrays are 1-based: column 0 is a virtual column holding the row being inserted.
std::vector<int> minimumCostAssignment(const Eigen::MatrixXd& cost)
{
    const int n = int(cost.rows());
    const int m = int(cost.cols());
    constexpr double kInf = std::numeric_limits<double>::infinity();

    std::vector<double> u(n + 1, 0.0), v(m + 1, 0.0);
    std::vector<int> rowOfColumn(m + 1, 0); // 0 = free column
    std::vector<int> previousColumn(m + 1, 0);
    std::vector<double> slack(m + 1);
    std::vector<char> visited(m + 1);

    for (int row = 1; row <= n; ++row) {
        rowOfColumn[0] = row;
        int column = 0;
        std::fill(slack.begin(), slack.end(), kInf);
        std::fill(visited.begin(), visited.end(), char(0));
        // Grow the alternating tree until it reaches a free column.
        do {
            visited[column] = 1;
            const int i = rowOfColumn[column];
            double delta = kInf;
            int next = 0;
            for (int j = 1; j <= m; ++j) {
                if (visited[j])
                    continue;
                const double reduced = cost(i - 1, j - 1) - u[i] - v[j];
                if (reduced < slack[j]) {
                    slack[j] = reduced;
                    previousColumn[j] = column;
                }
                if (slack[j] < delta) {
                    delta = slack[j];
                    next = j;
                }
            }
            // Raising the duals by delta makes the edge to `next` tight and keeps all others
            // feasible.
            for (int j = 0; j <= m; ++j) {
                if (visited[j]) {
                    u[rowOfColumn[j]] += delta;
                    v[j] -= delta;
                } else {
                    slack[j] -= delta;
                }
            }
            column = next;
        } while (rowOfColumn[column] != 0);
        // Flip the augmenting path back to the virtual column.
        do {
            const int previous = previousColumn[column];
            rowOfColumn[column] = rowOfColumn[previous];
            column = previous;
        } while (column != 0);
    }

    std::vector<int> columnOfRow(std::size_t(n), -1);
    for (int j = 1; j <= m; ++j) {
        if (rowOfColumn[j] != 0)
            columnOfRow[std::size_t(rowOfColumn[j] - 1)] = j - 1;
    }
    return columnOfRow;
}

} // namespace

std::vector<int> maximumWeightAssignment(const Eigen::MatrixXd& weight)
{
    for (Eigen::Index j = 0; j < weight.cols(); ++j) {
        for (Eigen::Index i = 0; i < weight.rows(); ++i) {
            if (!std::isfinite(weight(i, j)))
                throw std::invalid_argument(
                    "maximum weight assignment needs finite weights; entry (" + std::to_string(i)
                    + ", " + std::to_string(j) + ") is " + std::to_string(weight(i, j)));
        }
    }
    const Eigen::Index rows = weight.rows();
    const Eigen::Index cols = weight.cols();
    if (rows == 0)
        return {};
    if (cols == 0)
        return std::vector<int>(std::size_t(rows), -1);

    // Maximizing w is minimizing -w; the search needs rows <= columns, so a tall matrix is
    // solved transposed and the map inverted (rows left without a column get -1).
    if (rows <= cols)
        return minimumCostAssignment(-weight);
    const std::vector<int> rowOfColumn = minimumCostAssignment(-weight.transpose());
    std::vector<int> columnOfRow(std::size_t(rows), -1);
    for (std::size_t j = 0; j < rowOfColumn.size(); ++j)
        columnOfRow[std::size_t(rowOfColumn[j])] = int(j);
    return columnOfRow;
}

} // namespace facet
