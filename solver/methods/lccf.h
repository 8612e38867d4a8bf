// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "graph/graph.h"
#include "graph/graph_terms.h"
#include "methods/cf.h"

#include <memory>

namespace facet {

// METHODS.md 1.3, LCCF, Locally Consistent Concept Factorization (Cai, He & Han 2011):
// O = ||X - X W V^T||_F^2 + lambda Tr(V^T L V), L = D - S,
//   W <- W o (K V) / (K W V^T V)
//   V <- V o (K W + lambda S V) / (V W^T K W + lambda D V).
// Shapes: K n x n, W n x k, V n x k, S n x n sparse. Same normalization as CF; lambda = 0 is CF
// exactly. D is the graph's degree vector as given, not recomputed from S: the NCW form (1.7)
// passes L' = Gamma^(-1/2) L Gamma^(-1/2), whose D' is not the row sums of S'.
class Lccf : public Cf {
public:
    // graph: S and D on the n samples (shared, built once per data set); lambda >= 0.
    Lccf(MatrixCRef X, std::shared_ptr<const Gram> gram, std::shared_ptr<const Graph> graph,
        int rank, double lambda);

    std::string_view name() const override { return "lccf"; }

protected:
    Regularizer vRegularizer() const override;
    double regularizerObjective() const override;

private:
    std::shared_ptr<const Graph> m_graph;
    double m_lambda;
    mutable GraphTermCache m_terms; // the objective's gather also yields the next rule's parts
};

// Validation shared by the graph-regularized methods: a graph on n samples with n degrees, and a
// finite lambda >= 0. Throws std::invalid_argument.
void requireGraphRegularizer(
    const std::shared_ptr<const Graph>& graph, Eigen::Index samples, double lambda);

// lambda Tr(V^T L V) = lambda (sum(V o (D V)) - sum(V o (S V))), V n x k.
double graphRegularizerValue(const Graph& graph, const Matrix& V, double lambda);

} // namespace facet
