// SPDX-License-Identifier: GPL-3.0-or-later
#include "controls/method_parameters.h"

#include "methods/registry.h"

#include <QHash>

namespace facet {

namespace {

using P = Parameter;

constexpr Parameters kFactorization = P::Init | P::Replicates | P::ClusterMode | P::Cosine;
constexpr Parameters kKnnGraph = P::Lambda | P::Neighbours | P::GraphWeight;
constexpr Parameters kKernel = P::Kernel | P::GeneralForm;

const QHash<QString, Parameters>& table()
{
    // From the registry entries (methods/*_methods.cpp): which MethodOptions fields each reads.
    static const QHash<QString, Parameters> parameters {
        { QStringLiteral("nmf"), kFactorization | P::Ncw | P::Algorithm },
        { QStringLiteral("cf"), kFactorization | kKernel | P::Ncw | P::Algorithm },
        { QStringLiteral("lccf"), kFactorization | kKernel | P::Ncw | kKnnGraph | P::Algorithm },
        // GNMF and SemiGNMF always start at random (the Gnmf constructor takes no start).
        { QStringLiteral("gnmf"),
            P::Replicates | P::ClusterMode | P::Cosine | kKnnGraph | P::Algorithm },
        { QStringLiteral("semignmf"),
            P::Replicates | P::ClusterMode | P::Cosine | kKnnGraph | P::Labels | P::Algorithm },
        // LCF has no general form (its K must be >= 0) and no NCW form.
        { QStringLiteral("lcf"),
            kFactorization | P::Lambda | P::Kernel | P::NormalizeEach | P::Algorithm },
        { QStringLiteral("cnmf"), kFactorization | P::Labels | P::Algorithm },
        { QStringLiteral("ccf"), kFactorization | kKernel | P::Labels | P::Algorithm },
        // CF_OGL builds its own adaptive-neighbour graph from p and starts at random.
        { QStringLiteral("cf-ogl"),
            P::Replicates | P::ClusterMode | P::Cosine | P::Lambda | P::Beta | P::Mu | P::InnerSteps
                | P::PaperVariant | P::Neighbours },
        // The baseline k-means clusters the samples itself: only its cosine option applies.
        { QStringLiteral("kmeans"), P::Cosine },
        { QStringLiteral("pca"), P::ClusterMode | P::Cosine },
    };
    return parameters;
}

} // namespace

Parameters methodParameters(const QString& method)
{
    const auto known = table().constFind(method);
    if (known != table().constEnd())
        return *known;
    const MethodInfo* info = findMethod(method.toStdString());
    if (!info)
        return {};
    if (info->baseline)
        return P::ClusterMode | P::Cosine;
    Parameters parameters = kFactorization;
    if (info->cfFamily)
        parameters |= P::Kernel;
    if (info->semiSupervised)
        parameters |= P::Labels;
    return parameters;
}

double defaultLambda(const QString& method)
{
    // The solver's own default; 100 for a method without lambda, whose panel shows no lambda
    // row.
    return facet::defaultLambda(method.toStdString()).value_or(kDefaultGraphLambda);
}

QString defaultInit(const QString& method)
{
    return method == u"ccf" ? QStringLiteral("nmf") : QStringLiteral("random");
}

bool iterationsAreOuterIterations(const QString& method)
{
    return method == u"cf-ogl";
}

bool stopsByIterationLimit(const QString& method)
{
    return method != u"kmeans" && method != u"pca";
}

} // namespace facet
