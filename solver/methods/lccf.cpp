// SPDX-License-Identifier: GPL-3.0-or-later
#include "methods/lccf.h"

#include "graph/graph_terms.h"

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
    return lambda == 0 ? 0 : lambda * graphQuadraticForm(graph, V);
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
    m_terms.parts(*m_graph, m_V, lambda, m_vVersion, r.plus, r.minus);
    return r;
}

double Lccf::regularizerObjective() const
{
    // Distributed: this rank's samples' shares of the trace, summed over the ranks.
    return m_lambda == 0 ? 0
                         : m_lambda
            * sumOverSamples(m_dist, m_terms.value(*m_graph, m_V, Scalar(m_lambda), m_vVersion));
}

} // namespace facet
