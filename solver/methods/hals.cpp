// SPDX-License-Identifier: GPL-3.0-or-later
#include "methods/hals.h"

#include "core/collectives.h"

#include "graph/graph_terms.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <vector>

namespace facet {

static_assert(kHalsRowBlock == kSampleBlock, "a rank's samples are whole HALS blocks");

namespace {

using Index = Eigen::Index;

Index blockCount(Index rows)
{
    return (rows + kHalsRowBlock - 1) / kHalsRowBlock;
}

// One sweep over the columns of the rows [first, first + len) of F; returns the squared change
// and adds each entry's step times its curvature to `violation`. `product` is scratch of at least
// len entries.
double sweepRows(Matrix& F, const Matrix& A, const Matrix& B, Index first, Index len,
    Eigen::Ref<Vector> product, double& violation)
{
    auto Fb = F.middleRows(first, len);
    const auto Ab = A.middleRows(first, len);
    double change = 0;
    for (Index j = 0; j < F.cols(); ++j) {
        const Scalar curvature = B(j, j);
        if (!(curvature > 0))
            continue; // the column's partner is all zero: nothing to fit, leave it
        auto p = product.head(len);
        p.noalias() = Fb * B.col(j);
        auto f = Fb.col(j);
        for (Index i = 0; i < len; ++i) {
            const Scalar updated = std::max(kPositiveFloor, f(i) + (Ab(i, j) - p(i)) / curvature);
            const double d = double(updated - f(i));
            change += d * d;
            violation += std::abs(d) * double(curvature);
            f(i) = updated;
        }
    }
    return change;
}

} // namespace

int halsSweepBudget(double productFlops, double sweepFlops, double alpha)
{
    if (!(sweepFlops > 0))
        return 1;
    const double budget = std::floor(1 + alpha * productFlops / sweepFlops);
    return int(std::clamp(budget, 1.0, 100.0));
}

HalsSweepStats halsSweeps(
    Matrix& F, const Matrix& A, const Matrix& B, int maxSweeps, double delta, Index firstRow)
{
    const Index rows = F.rows();
    // Block b covers the rows [start(b), start(b + 1)) of F, cut at the multiples of
    // kHalsRowBlock of the larger factor's row numbers (firstRow + i).
    const Index skew = firstRow % kHalsRowBlock;
    const Index blocks = blockCount(rows + skew);
    const auto start
        = [&](Index b) { return std::clamp(b * kHalsRowBlock - skew, Index(0), rows); };
    const double delta2 = delta * delta;
    std::vector<double> blockViolation(static_cast<std::size_t>(blocks));
    int most = 0;
#pragma omp parallel reduction(max : most) if (rows * F.cols() >= 4096)
    {
        Vector product(kHalsRowBlock);
#pragma omp for schedule(static)
        for (Index b = 0; b < blocks; ++b) {
            const Index first = start(b), len = start(b + 1) - first;
            double firstChange = 0;
            int sweeps = 0;
            while (sweeps < maxSweeps) {
                double violation = 0;
                const double change = sweepRows(F, A, B, first, len, product, violation);
                if (sweeps == 0)
                    blockViolation[std::size_t(b)] = violation;
                ++sweeps;
                if (sweeps == 1)
                    firstChange = change;
                else if (change <= delta2 * firstChange)
                    break;
                if (change == 0)
                    break;
            }
            most = std::max(most, sweeps);
        }
    }
    HalsSweepStats stats;
    stats.sweeps = most;
    for (const double v : blockViolation) // in block order: the same sum for any thread count
        stats.violation += v;
    return stats;
}

Vector halsGraphMajorizer(const Graph& graph)
{
    // The sweeps update V's rows one after another, each reading its neighbours' new rows: on a
    // graph split over ranks that is a sequence across the ranks, not a step each rank takes.
    if (graph.halo)
        throw std::invalid_argument("the graph term's HALS sweeps do not run distributed; use "
                                    "--algorithm mu or mu-ex");
    Vector rowSums = Vector::Zero(graph.size());
    for (Index j = 0; j < graph.S.outerSize(); ++j)
        for (SparseMatrix::InnerIterator it(graph.S, j); it; ++it)
            rowSums(it.row()) += it.value();
    return graph.degree + rowSums;
}

HalsSweepStats halsGraphSweeps(Matrix& V, const Matrix& A, const Matrix& B, const Graph& graph,
    const Vector& majorizer, Scalar lambda, int maxSweeps, double delta)
{
    const Index n = V.rows(), k = V.cols();
    const Index blocks = blockCount(n);
    Matrix plus, minus; // lambda D V and lambda S V at the V a sweep starts from
    std::vector<double> blockChange(static_cast<std::size_t>(blocks));
    std::vector<double> blockViolation(static_cast<std::size_t>(blocks));
    HalsSweepStats stats;
    double firstChange = 0;
    int sweeps = 0;
    while (sweeps < maxSweeps) {
        graphGradientParts(graph, V, lambda, plus, minus);
#pragma omp parallel if (n * k >= 4096)
        {
            Vector product(kHalsRowBlock);
#pragma omp for schedule(static)
            for (Index b = 0; b < blocks; ++b) {
                const Index first = b * kHalsRowBlock, len = std::min(kHalsRowBlock, n - first);
                auto Vb = V.middleRows(first, len);
                double change = 0, violation = 0;
                for (Index j = 0; j < k; ++j) {
                    auto p = product.head(len);
                    p.noalias() = Vb * B.col(j);
                    auto v = Vb.col(j);
                    for (Index r = 0; r < len; ++r) {
                        const Index i = first + r;
                        // plus(i, j) = lambda D_ii v_ij: column j is still the sweep's start here.
                        const Scalar g = p(r) - A(i, j) + plus(i, j) - minus(i, j);
                        const Scalar curvature = B(j, j) + lambda * majorizer(i);
                        if (!(curvature > 0))
                            continue;
                        const Scalar updated = std::max(kPositiveFloor, v(r) - g / curvature);
                        const double d = double(updated - v(r));
                        change += d * d;
                        violation += std::abs(d) * double(curvature);
                        v(r) = updated;
                    }
                }
                blockChange[std::size_t(b)] = change;
                blockViolation[std::size_t(b)] = violation;
            }
        }
        double change = 0;
        for (const double c : blockChange) // in block order: the same sum for any thread count
            change += c;
        ++sweeps;
        if (sweeps == 1) {
            firstChange = change;
            for (const double v : blockViolation)
                stats.violation += v;
        } else if (change <= delta * delta * firstChange) {
            break;
        }
        if (change == 0)
            break;
    }
    stats.sweeps = sweeps;
    return stats;
}

} // namespace facet
