// SPDX-License-Identifier: GPL-3.0-or-later
#include "methods/registry.h"

#include <cctype>
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

Algorithm defaultAlgorithm(const std::string&)
{
    return Algorithm::Mu;
}

bool supportsAlgorithm(const std::string& method, Algorithm algorithm)
{
    if (algorithm == Algorithm::Mu)
        return true;
    return method == "nmf" || method == "gnmf" || method == "semignmf";
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
    for (const MethodEntry& entry : methodTable()) {
        if (entry.info.name != name)
            continue;
        if (options.algorithm && !entry.info.baseline
            && !supportsAlgorithm(name, *options.algorithm))
            throw std::invalid_argument("the " + std::string(algorithmName(*options.algorithm))
                + " algorithm is available for nmf, gnmf and semignmf; " + name
                + " runs the multiplicative rules (mu) only");
        return entry.make(X, options, context);
    }
    throw std::invalid_argument("unknown method '" + name + "' (known: " + knownNames() + ")");
}

} // namespace facet
