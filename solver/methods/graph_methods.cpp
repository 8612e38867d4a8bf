// SPDX-License-Identifier: GPL-3.0-or-later
// Registry entries of lccf, gnmf, semignmf (METHODS.md 1.3, 1.6, 2.3).
#include "core/collectives.h"
#include "core/update.h"
#include "graph/adaptive_neighbors.h" // kNeighborSearchStage
#include "graph/distributed_knn.h"
#include "graph/knn_graph.h"
#include "methods/cf_family.h"
#include "methods/gnmf.h"
#include "methods/kernels.h"
#include "methods/lccf.h"
#include "methods/registry.h"

#include <cmath>
#include <stdexcept>
#include <string>

namespace facet {
namespace {

double graphLambda(const MethodOptions& o)
{
    const double lambda = o.lambda.value_or(kDefaultGraphLambda);
    if (!(lambda >= 0) || !std::isfinite(lambda))
        throw std::invalid_argument(
            "lambda must be finite and >= 0, got " + std::to_string(lambda));
    return lambda;
}

// The shared kNN graph of the options' p / weight / t, built once per data set.
std::shared_ptr<const Graph> knnGraph(MatrixCRef X, const MethodOptions& o, MethodContext& context)
{
    if (!context.graph) {
        // All zeros is refused before a search over it, not after (distributed, rank 0 checked
        // the whole X: one rank's columns may all be 0).
        if (!currentDistribution().active())
            requireUsableData(X);
        KnnOptions knn;
        knn.p = o.p;
        knn.weight = o.weight;
        knn.heatT = o.heatT;
        knn.search = o.knnSearch;
        knn.stop = context.stop;
        knn.progress = context.onStageProgress;
        context.beginStage(kNeighborSearchStage);
        const SampleDistribution distribution = currentDistribution();
        context.graph = std::make_shared<const Graph>(distribution.active()
                ? buildDistributedKnnGraph(X, knn, distribution)
                : buildKnnGraph(X, knn));
    }
    if (context.graph->size() != X.cols())
        throw std::invalid_argument("the shared graph has " + std::to_string(context.graph->size())
            + " nodes but the data has n = " + std::to_string(X.cols()) + " samples");
    return context.graph;
}

MethodFactory makeLccf(MatrixCRef X, const MethodOptions& o, MethodContext& context)
{
    // A kernel that cannot fit is refused before the kNN graph, which takes minutes at the sizes
    // where that happens (cfFamilySetup would refuse it only after the graph).
    requireRank(o.rank, totalSamples(currentDistribution(), X.cols())); // all ranks' n
    if (o.kernel != KernelKind::Linear)
        requireDenseFits(X.cols(), 1,
            o.kernel == KernelKind::Gaussian ? "the gaussian kernel" : "the polynomial kernel");
    // The CF-family plumbing brings the general form (1.4), kernels, NCW (with the weighted
    // graph, 1.7) and the initializations.
    return lccfFactory(X, o, context, knnGraph(X, o, context), graphLambda(o));
}

MethodFactory makeGnmf(MatrixCRef X, const MethodOptions& o, MethodContext& context)
{
    const double lambda = graphLambda(o);
    const std::shared_ptr<const Graph> graph = knnGraph(X, o, context);
    Gnmf probe(X, graph, o.rank, lambda, o.init);
    const Algorithm algorithm = o.algorithm.value_or(defaultAlgorithm("gnmf"));
    return [X, rank = o.rank, lambda, graph, init = o.init, algorithm] {
        auto gnmf = std::make_unique<Gnmf>(X, graph, rank, lambda, init);
        gnmf->setAlgorithm(algorithm);
        return gnmf;
    };
}

// The label-constrained graph is derived per label set and stays private to the run; the shared
// context keeps the plain kNN graph for the other methods.
MethodFactory makeSemiGnmf(MatrixCRef X, const MethodOptions& o, MethodContext& context)
{
    const double lambda = graphLambda(o);
    // Validates p, lambda, rank and the data before the label pass.
    Gnmf probe(X, knnGraph(X, o, context), o.rank, lambda, o.init, "SemiGNMF");
    const auto graph
        = std::make_shared<const Graph>(applyLabelConstraints(*context.graph, o.knownLabels));
    const Algorithm algorithm = o.algorithm.value_or(defaultAlgorithm("semignmf"));
    return [X, rank = o.rank, lambda, graph, init = o.init, algorithm] {
        auto semi = std::make_unique<SemiGnmf>(X, graph, rank, lambda, init);
        semi->setAlgorithm(algorithm);
        return semi;
    };
}

} // namespace

void appendGraphMethods(std::vector<MethodEntry>& table)
{
    table.push_back({ { "lccf", "Locally Consistent CF (Cai, He & Han)",
                          "min ||X - X W V^T||^2 + lambda Tr(V^T L V) over W, V >= 0, L the kNN "
                          "graph Laplacian",
                          false, true },
        makeLccf });
    table.push_back(
        { { "gnmf", "Graph-regularized NMF (Cai et al.)",
              "min ||X - U V^T||^2 + lambda Tr(V^T L V) over U, V >= 0, L the kNN graph "
              "Laplacian",
              true, false },
            makeGnmf });
    table.push_back({ { "semignmf", "Semi-supervised GNMF (labels in the graph)",
                          "min ||X - U V^T||^2 + lambda Tr(V^T L V) over U, V >= 0, L of the kNN "
                          "graph with same-label edges 1 and cross-label edges 0",
                          true, false, true },
        makeSemiGnmf });
}

} // namespace facet
