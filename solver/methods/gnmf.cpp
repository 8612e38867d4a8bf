// SPDX-License-Identifier: GPL-3.0-or-later
#include "methods/gnmf.h"

#include "graph/graph_terms.h"
#include "methods/hals.h"
#include "methods/lccf.h"

namespace facet {

Gnmf::Gnmf(MatrixCRef X, std::shared_ptr<const Graph> graph, int rank, double lambda, InitKind init,
    const char* label)
    : Nmf(X, rank, init, label)
    , m_graph(std::move(graph))
    , m_lambda(lambda)
{
    requireGraphRegularizer(m_graph, X.cols(), lambda);
}

// As in LCCF: the gradient 2 lambda (D V - S V) splits into D V (denominator) and S V
// (numerator); lambda = 0 adds nothing, so the rule is NMF's bit for bit.
Nmf::Regularizer Gnmf::vRegularizer() const
{
    if (m_lambda == 0)
        return {};
    const Scalar lambda = Scalar(m_lambda);
    Regularizer r;
    m_terms.parts(*m_graph, m_V, lambda, m_vVersion, r.plus, r.minus);
    return r;
}

double Gnmf::regularizerObjective() const
{
    // Distributed: this rank's samples' shares of the trace, summed over the ranks.
    return m_lambda == 0 ? 0
                         : m_lambda
            * sumOverSamples(m_dist, m_terms.value(*m_graph, m_V, Scalar(m_lambda), m_vVersion));
}

} // namespace facet

namespace facet {

Nmf::GraphTerm Gnmf::halsGraphTerm() const
{
    if (m_lambda == 0)
        return {}; // NMF's sweeps exactly (METHODS.md section 9: lambda = 0 is the plain method)
    if (m_majorizer.size() != m_graph->size())
        m_majorizer = halsGraphMajorizer(*m_graph);
    return { m_graph.get(), Scalar(m_lambda), &m_majorizer };
}

} // namespace facet
