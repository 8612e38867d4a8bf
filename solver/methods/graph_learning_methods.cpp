// SPDX-License-Identifier: GPL-3.0-or-later
// Registry entries of cf-ogl (METHODS.md section 3).
#include "core/update.h"
#include "graph/adaptive_neighbors.h"
#include "methods/cf_ogl.h"
#include "methods/registry.h"

#include <sstream>
#include <stdexcept>
#include <string>

namespace facet {
namespace {

std::string formatNumber(double value)
{
    std::ostringstream out;
    out << value;
    return out.str();
}

// The rules of section 3 on the options, each message stating the rule broken.
void validateCfOgl(MatrixCRef X, const MethodOptions& o, double lambda, int clusters)
{
    const Eigen::Index n = X.cols();
    if (!(o.beta > 0))
        throw std::invalid_argument("cf-ogl: beta must be > 0, got " + formatNumber(o.beta));
    if (!(o.mu > 0))
        throw std::invalid_argument("cf-ogl: mu must be > 0, got " + formatNumber(o.mu));
    if (!(lambda >= 0))
        throw std::invalid_argument("cf-ogl: lambda must be >= 0, got " + formatNumber(lambda));
    if (o.p < 1 || o.p > n - 1)
        throw std::invalid_argument("cf-ogl: the neighbour count p must be in [1, n - 1] = [1, "
            + std::to_string(n - 1) + "], got " + std::to_string(o.p));
    if (clusters < 1 || clusters > n)
        throw std::invalid_argument("cf-ogl: the number of clusters c must be in [1, n] = [1, "
            + std::to_string(n) + "], got " + std::to_string(clusters));
    if (o.outerIterations < 1)
        throw std::invalid_argument("cf-ogl: the outer iterations must be at least 1, got "
            + std::to_string(o.outerIterations));
    if (o.innerSteps < 1)
        throw std::invalid_argument(
            "cf-ogl: the inner LCCF steps must be at least 1, got " + std::to_string(o.innerSteps));
}

} // namespace

void appendGraphLearningMethods(std::vector<MethodEntry>& table)
{
    table.push_back({ { "cf-ogl", "CF with Optimal Graph Learning (CF_OGL)",
                          "min ||Q - G||^2 + beta Tr(F^T L_Q F) + lambda Tr(V^T L_Q V) + mu ||X - "
                          "X W V^T||^2 "
                          "over W, V >= 0, Q 1 = 1, Q >= 0, F^T F = I",
                          false, true },
        // One driver iteration is one outer iteration (10 LCCF steps, eigenvectors, Q step,
        // beta rule): the caller maps outerIterations to DriverOptions::maxIter.
        [](MatrixCRef X, const MethodOptions& o, MethodContext& context) -> MethodFactory {
            CfOglOptions options;
            options.rank = o.rank;
            options.clusters = o.clusters == 0 ? o.rank : o.clusters;
            options.beta = o.beta;
            options.lambda = o.lambda.value_or(kDefaultCfOglLambda);
            options.mu = o.mu;
            options.innerSteps = o.innerSteps;
            options.paperVariant = o.paperVariant;
            requireRank(o.rank, X.cols());
            // Before K's sign is looked at: -Inf in X made it refuse "negative inner products".
            requireUsableData(X);
            validateCfOgl(X, o, options.lambda, options.clusters);
            if (!context.gram)
                context.gram = Gram::linear(X);
            if (context.gram->hasNegativeEntries())
                throw std::invalid_argument(
                    "CF_OGL's multiplicative updates need K = X^T X >= 0, but this data has "
                    "negative inner products; make the data non-negative (e.g. scale to [0, 1])");
            // G: adaptive neighbours (section 3), not the kNN graph of context.graph; built
            // once here and shared by every replicate.
            context.beginStage(kNeighborSearchStage);
            auto G = std::make_shared<const Graph>(
                adaptiveNeighborGraph(X, o.p, context.stop, context.onStageProgress));
            CfOgl probe(X, context.gram, G, options); // validates on the caller's thread
            return [X, gram = context.gram, G, options] {
                return std::make_unique<CfOgl>(X, gram, G, options);
            };
        } });
}

} // namespace facet
