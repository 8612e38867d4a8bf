// SPDX-License-Identifier: GPL-3.0-or-later
#include "util/params_json.h"

#include "util/choices.h"

namespace facet {

using namespace Qt::StringLiterals;

namespace {

QJsonValue optional(const std::optional<double>& v)
{
    return v ? QJsonValue(*v) : QJsonValue(QJsonValue::Null);
}

} // namespace

QJsonObject runParamsToJson(const RunOptions& o)
{
    const MethodOptions& m = o.params;
    QJsonObject params {
        { u"rank"_s, m.rank },
        { u"max-iter"_s, o.driver.maxIter },
        { u"min-iter"_s, o.driver.minIter },
        { u"tol"_s, o.driver.tol },
        { u"replicates"_s, o.driver.replicates },
        { u"cluster"_s, o.cluster.mode == ClusterMode::KMeans ? u"kmeans"_s : u"argmax"_s },
        { u"cosine"_s, o.cluster.cosine },
        { u"kmeans-replicates"_s, o.cluster.replicates },
        { u"clusters"_s, o.clusters },
        { u"init"_s, m.initSet ? choiceName(kInitChoices, m.init) : u"default"_s },
        { u"lambda"_s, optional(m.lambda) },
        { u"p"_s, m.p },
        { u"weight"_s, choiceName(kGraphWeightChoices, m.weight) },
        { u"heat-t"_s, optional(m.heatT) },
        { u"beta"_s, m.beta },
        { u"mu"_s, m.mu },
        { u"outer-iterations"_s, m.outerIterations },
        { u"inner-steps"_s, m.innerSteps },
        { u"paper-variant"_s, m.paperVariant },
        { u"kernel"_s, choiceName(kKernelChoices, m.kernel) },
        { u"degree"_s, m.degree },
        { u"offset"_s, m.offset },
        { u"sigma"_s, optional(m.sigma) },
        { u"ncw"_s, m.ncw },
        { u"general-form"_s, m.generalForm },
        { u"normalize-each"_s, m.normalizeEach },
    };
    if (o.labeledFraction > 0)
        params.insert(u"labeled-fraction"_s, o.labeledFraction);
    if (o.labeledPerClass > 0)
        params.insert(u"labeled-per-class"_s, o.labeledPerClass);
    return params;
}

} // namespace facet
