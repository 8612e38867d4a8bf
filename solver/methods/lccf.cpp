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

double graphRegularizerValue(const Graph& graph, const Matrix& V, double lambda)
{
    if (lambda == 0)
        return 0;
    // Tr(V^T D V) - Tr(V^T S V) is a difference of two nearly equal sums: in single precision it
    // lost every digit and came out negative (LCCF on a generated set, issue 7). With S symmetric,
    //   Tr(V^T (D - S) V) = sum_i (d_i - (S 1)_i) |v_i|^2 + (1/2) sum_ij s_ij |v_i - v_j|^2,
    // whose first sum is 0 for a kNN graph (kept for the NCW graph, whose D is not S 1) and whose
    // second has only terms >= 0: nothing cancels. The sums run in double. O(nnz k).
    const Matrix Vt = V.transpose(); // k x n: the rows v_i as contiguous columns
    const Eigen::Index n = graph.S.outerSize();
    double value = 0;
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
    r.minus = lambda * (m_graph->S * m_V);
    return r;
}

double Lccf::regularizerObjective() const
{
    return graphRegularizerValue(*m_graph, m_V, m_lambda);
}

} // namespace facet
