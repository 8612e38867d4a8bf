// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "graph/graph.h"
#include "graph/graph_terms.h"
#include "methods/nmf.h"

#include <memory>

namespace facet {

// METHODS.md 1.6, GNMF, graph-regularized NMF (Cai, He, Han & Huang 2011):
// O = ||X - U V^T||_F^2 + lambda Tr(V^T L V), L = D - S,
//   U <- U o (X V) / (U V^T V)
//   V <- V o (X^T U + lambda S V) / (V U^T U + lambda D V).
// Shapes: X m x n, U m x k, V n x k, S n x n sparse. lambda = 0 is NMF exactly. D is the graph's
// degree vector as given (see Lccf).
class Gnmf : public Nmf {
public:
    // X non-negative; graph: S and D on the n samples; lambda >= 0; init as NMF's.
    Gnmf(MatrixCRef X, std::shared_ptr<const Graph> graph, int rank, double lambda,
        InitKind init = InitKind::Random, const char* label = "GNMF");

    std::string_view name() const override { return "gnmf"; }

protected:
    Regularizer vRegularizer() const override;
    double regularizerObjective() const override;
    GraphTerm halsGraphTerm() const override;

private:
    std::shared_ptr<const Graph> m_graph;
    double m_lambda;
    mutable GraphTermCache m_terms; // the objective's gather also yields the next rule's parts
    mutable Vector m_majorizer; // halsGraphMajorizer, made on the hals route's first step
};

// METHODS.md 2.3, SemiGNMF: GNMF on the kNN graph with the known labels written in
// (applyLabelConstraints: same class -> weight 1, different classes -> no edge).
class SemiGnmf : public Gnmf {
public:
    // Constructed like Gnmf, from the graph applyLabelConstraints() returned.
    SemiGnmf(MatrixCRef X, std::shared_ptr<const Graph> graph, int rank, double lambda,
        InitKind init = InitKind::Random)
        : Gnmf(X, std::move(graph), rank, lambda, init, "SemiGNMF")
    {
    }

    std::string_view name() const override { return "semignmf"; }
};

} // namespace facet
