// SPDX-License-Identifier: GPL-3.0-or-later
#include "methods/lccf.h"

#include <cmath>
#include <stdexcept>
#include <string>

namespace facet {

void requireGraphRegularizer(
    const std::shared_ptr<const Graph>& graph, Eigen::Index samples, double lambda)
{
    if (!(lambda >= 0) || !std::isfinite(lambda))
        throw std::invalid_argument(
            "lambda must be finite and >= 0, got " + std::to_string(lambda));
    if (!graph || graph->size() != samples || graph->S.cols() != samples
        || graph->degree.size() != samples)
        throw std::invalid_argument("the graph regularizer needs a graph on the n = "
            + std::to_string(samples) + " samples");
}

Matrix graphTimes(const Graph& graph, const Matrix& V)
{
    // Eigen's column-major sparse x dense product walks rows of V across its columns (k cache
    // lines per stored entry) on one thread: 1.3 ms for nnz = 135,000, k = 10, a sixth of an
    // NMF iteration at n = 20,000 (issue 7). S is symmetric (graph.h), so row j of S V is
    // sum_i s_ij v_i over column j: a gather of contiguous rows of V^T, independent per j.
    const Matrix Vt = V.transpose(); // k x n
    Matrix out(Vt.rows(), Vt.cols()); // (S V)^T
    const Eigen::Index n = graph.S.outerSize();
#pragma omp parallel for schedule(static) if (graph.S.nonZeros() * V.cols() > (1 << 16))
    for (Eigen::Index j = 0; j < n; ++j) {
        auto column = out.col(j);
        column.setZero();
        for (SparseMatrix::InnerIterator it(graph.S, j); it; ++it)
            column += it.value() * Vt.col(it.row());
    }
    return out.transpose();
}

double graphRegularizerValue(const Graph& graph, const Matrix& V, double lambda)
{
    if (lambda == 0)
        return 0;
    // Tr(V^T D V) - Tr(V^T S V) is a difference of two nearly equal sums: in single precision it
    // lost every digit and came out negative (LCCF on a generated set, issue 7). With S
    // symmetric, Tr(V^T (D - S) V) = sum_i (d_i - (S 1)_i) |v_i|^2 + (1/2) sum_ij s_ij |v_i -
    // v_j|^2: the first sum is 0 for a kNN graph (kept for the NCW graph, whose D is not S 1) and
    // every term of the second is >= 0, so nothing cancels; the sums run in double. O(nnz k).
    const Matrix Vt = V.transpose(); // k x n: the rows v_i as contiguous columns
    const Eigen::Index n = graph.S.outerSize();
    double value = 0;
#pragma omp parallel for schedule(static) reduction(+ : value) if (graph.S.nonZeros() > (1 << 14))
    for (Eigen::Index j = 0; j < n; ++j) {
        double rowSum = 0, pairs = 0;
        for (SparseMatrix::InnerIterator it(graph.S, j); it; ++it) {
            rowSum += double(it.value());
            pairs += double(it.value()) * double((Vt.col(it.row()) - Vt.col(j)).squaredNorm());
        }
        value += (double(graph.degree(j)) - rowSum) * double(Vt.col(j).squaredNorm()) + 0.5 * pairs;
    }
    return lambda * value;
}

Lccf::Lccf(MatrixCRef X, std::shared_ptr<const Gram> gram, std::shared_ptr<const Graph> graph,
    int rank, double lambda)
    : Cf(X, std::move(gram), rank)
    , m_graph(std::move(graph))
    , m_lambda(lambda)
{
    requireGraphRegularizer(m_graph, X.cols(), lambda);
}

// The gradient of lambda Tr(V^T (D - S) V) is 2 lambda (D V - S V): D V joins the denominator,
// S V the numerator. lambda = 0 adds nothing, so the rule is CF's bit for bit.
Cf::Regularizer Lccf::vRegularizer() const
{
    if (m_lambda == 0)
        return {};
    const Scalar lambda = Scalar(m_lambda);
    Regularizer r;
    r.plus = lambda * (m_graph->degree.asDiagonal() * m_V);
    r.minus = lambda * graphTimes(*m_graph, m_V);
    return r;
}

double Lccf::regularizerObjective() const
{
    return graphRegularizerValue(*m_graph, m_V, m_lambda);
}

} // namespace facet
