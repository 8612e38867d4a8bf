// SPDX-License-Identifier: GPL-3.0-or-later
#include "methods/registry.h"

#include "core/extrapolation.h"
#include "methods/mask.h"
#include "methods/nmf.h"

#include <cctype>
#include <cmath>
#include <cstdio>
#include <stdexcept>
#include <utility>

namespace facet {
namespace {

const std::vector<MethodEntry>& methodTable()
{
    static const std::vector<MethodEntry> table = [] {
        std::vector<MethodEntry> t;
        appendBaseMethods(t);
        appendGraphMethods(t);
        appendLocalityAndLabelMethods(t);
        appendGraphLearningMethods(t);
        appendBaselineMethods(t);
        return t;
    }();
    return table;
}

std::string knownNames()
{
    std::string names;
    for (const MethodEntry& entry : methodTable())
        names += (names.empty() ? "" : ", ") + entry.info.name;
    return names;
}

// A masked run (methods/mask.h): the method is made on the mask's filled X, so its checks, its
// start and its kNN graph never read a missing entry, and is handed the mask before its first
// step. The graph and the kernel of the shared context describe the unmasked X: this run neither
// takes them nor leaves its own there. A mask of all ones is no mask.
MethodFactory maskedFactory(
    const MethodEntry& entry, MatrixCRef X, const MethodOptions& options, MethodContext& context)
{
    if (!acceptsMask(entry.info.name))
        throw std::invalid_argument(maskRefusal(entry.info.name));
    if (options.ncw)
        throw std::invalid_argument("NCW takes no mask: its weights d = X^T X 1 need every entry");
    std::shared_ptr<const MaskedData> mask = prepareMask(X, *options.weights);
    if (!mask)
        return entry.make(X, options, context);
    MethodContext own = context;
    own.graph = nullptr;
    own.gram = nullptr;
    MethodFactory make = entry.make(mask->filled, options, own);
    return [make = std::move(make), mask]() -> std::unique_ptr<Method> {
        std::unique_ptr<Method> method = make();
        auto* nmf = dynamic_cast<Nmf*>(method.get());
        if (!nmf)
            throw std::logic_error(std::string(method->name()) + " has no masked route");
        nmf->setMask(mask);
        return method;
    };
}

} // namespace

const std::vector<MethodInfo>& methodCatalog()
{
    static const std::vector<MethodInfo> catalog = [] {
        std::vector<MethodInfo> c;
        for (const MethodEntry& entry : methodTable())
            c.push_back(entry.info);
        return c;
    }();
    return catalog;
}

const MethodInfo* findMethod(const std::string& name)
{
    for (const MethodInfo& info : methodCatalog())
        if (info.name == name)
            return &info;
    return nullptr;
}

std::optional<double> defaultLambda(const std::string& method)
{
    if (method == "lccf" || method == "gnmf" || method == "semignmf")
        return kDefaultGraphLambda;
    if (method == "lcf")
        return kDefaultLcfLambda;
    if (method == "cf-ogl")
        return kDefaultCfOglLambda;
    return std::nullopt;
}

// The fastest route to each objective's solution that Facet has (docs/algorithms.md, "Defaults";
// bench/RESULTS.md, "Time to a solution"). GNMF and SemiGNMF keep the papers' rules: their
// objective has no minimizer (the graph term vanishes along U s, V / s), and the fast algorithms
// follow that direction, ending near NMF's objective with a graph term of nothing. CF_OGL has
// only mu.
Algorithm defaultAlgorithm(const std::string& method)
{
    if (method == "nmf")
        return Algorithm::HalsEx;
    if (method == "cf" || method == "lccf" || method == "lcf" || method == "cnmf"
        || method == "ccf")
        return Algorithm::MuEx;
    return Algorithm::Mu;
}

Algorithm defaultAlgorithm(const std::string& method, const MethodOptions& options)
{
    // LCF's normalize-each rescales between steps, so its objective may rise: the extrapolation,
    // which keeps a step by comparing objectives, has nothing to compare.
    if (method == "lcf" && options.normalizeEach)
        return Algorithm::Mu;
    return defaultAlgorithm(method);
}

bool supportsAlgorithm(const std::string& method, Algorithm algorithm)
{
    // CF_OGL changes its objective between segments (beta, the learned graph) on a schedule that
    // counts steps, so a discarded extrapolated step would consume its schedule: mu only.
    if (method == "cf-ogl")
        return algorithm == Algorithm::Mu;
    if (baseAlgorithm(algorithm) == Algorithm::Mu)
        return true;
    return method == "nmf" || method == "gnmf" || method == "semignmf";
}

std::string algorithmRefusal(const std::string& method, Algorithm algorithm)
{
    const std::string name(algorithmName(algorithm));
    if (method == "cf-ogl")
        return "cf-ogl runs the multiplicative rules (mu) only: its objective changes between "
               "segments on a schedule of steps, which "
            + name + " would disturb";
    return "the " + name + " algorithm is available for nmf, gnmf and semignmf; " + method
        + " runs the multiplicative rules (mu or mu-ex)";
}

std::string parameterBoundProblem(const MethodOptions& options)
{
    const auto text = [](double value) {
        char buffer[32];
        std::snprintf(buffer, sizeof buffer, "%g", value);
        return std::string(buffer);
    };
    const std::pair<const char*, double> weights[] = { { "lambda", options.lambda.value_or(0) },
        { "beta", options.beta }, { "mu", options.mu }, { "offset", options.offset } };
    for (const auto& [name, value] : weights)
        if (std::abs(value) > kLargestWeight)
            return std::string(name) + " " + text(value) + " is beyond " + text(kLargestWeight)
                + ", the largest weight Facet takes: its products with the objective's terms "
                  "would leave the double range (1.8e308) before the first iteration";
    if (options.degree > kLargestDegree)
        return "degree " + text(options.degree) + " is above " + text(kLargestDegree)
            + ", the largest polynomial degree Facet takes: beyond it the kernel is the identity "
              "matrix to double precision, or overflows";
    return {};
}

std::string methodLabel(const std::string& name)
{
    static const std::pair<const char*, const char*> kLabels[]
        = { { "nmf", "NMF" }, { "cf", "CF" }, { "lccf", "LCCF" }, { "lcf", "LCF" },
              { "cnmf", "CNMF" }, { "ccf", "CCF" }, { "cf-ogl", "CF-OGL" }, { "gnmf", "GNMF" },
              { "semignmf", "SemiGNMF" }, { "kmeans", "k-means" }, { "pca", "PCA" } };
    for (const auto& [key, label] : kLabels)
        if (name == key)
            return label;
    std::string upper = name;
    for (char& c : upper)
        c = char(std::toupper(static_cast<unsigned char>(c)));
    return upper;
}

MethodFactory makeMethodFactory(
    const std::string& name, MatrixCRef X, const MethodOptions& options, MethodContext context)
{
    return makeMethodFactoryInto(name, X, options, context);
}

MethodFactory makeMethodFactoryInto(
    const std::string& name, MatrixCRef X, const MethodOptions& options, MethodContext& context)
{
    if (X.size() == 0)
        throw std::invalid_argument("the data is empty");
    if (const std::string problem = parameterBoundProblem(options); !problem.empty())
        throw std::invalid_argument(problem);
    for (const MethodEntry& entry : methodTable()) {
        if (entry.info.name != name)
            continue;
        if (entry.info.baseline)
            return entry.make(X, options, context);
        const Algorithm algorithm = options.algorithm.value_or(defaultAlgorithm(name, options));
        if (!supportsAlgorithm(name, algorithm))
            throw std::invalid_argument(algorithmRefusal(name, algorithm));
        if (name == "lcf" && options.normalizeEach && extrapolates(algorithm))
            throw std::invalid_argument(
                "lcf with normalize-each runs the multiplicative rules (mu) only: its rescaling "
                "changes the objective between steps, and the extrapolation keeps a step by "
                "comparing objectives");
        MethodFactory make = options.weights ? maskedFactory(entry, X, options, context)
                                             : entry.make(X, options, context);
        if (!extrapolates(algorithm))
            return make;
        const auto form = baseAlgorithm(algorithm) == Algorithm::Hals
            ? ExtrapolatedMethod::Form::Additive
            : ExtrapolatedMethod::Form::Geometric;
        return [make = std::move(make), form]() -> std::unique_ptr<Method> {
            return std::make_unique<ExtrapolatedMethod>(make(), form);
        };
    }
    throw std::invalid_argument("unknown method '" + name + "' (known: " + knownNames() + ")");
}

} // namespace facet
