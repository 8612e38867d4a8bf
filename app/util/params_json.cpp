// SPDX-License-Identifier: GPL-3.0-or-later
#include "util/params_json.h"

#include "util/choices.h"
#include "util/json_read.h"

#include <QJsonArray>

#include <cmath>
#include <limits>

namespace facet {

using namespace Qt::StringLiterals;

namespace {

QJsonValue optional(const std::optional<double>& v)
{
    return v ? QJsonValue(*v) : QJsonValue(QJsonValue::Null);
}

constexpr qint64 kIntMax = std::numeric_limits<int>::max();
constexpr double kHuge = std::numeric_limits<double>::max();

template <class T, std::size_t N>
void readChoice(JsonReader& in, const QJsonObject& o, const QString& key,
    const std::array<Choice<T>, N>& table, T& target)
{
    QString text;
    in.readString(key, text);
    if (!in.ok() || !o.contains(key))
        return;
    if (const std::optional<T> value = parseChoice(table, text))
        target = *value;
    else
        in.fail(u"\"%1\" must be %2, found \"%3\""_s.arg(key, choiceList(table), text.left(40)));
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
        { u"stationarity-tol"_s, o.driver.stationarityTol },
        { u"replicates"_s, o.driver.replicates },
        { u"cluster"_s, o.cluster.mode == ClusterMode::KMeans ? u"kmeans"_s : u"argmax"_s },
        { u"cosine"_s, o.cluster.cosine },
        { u"kmeans-replicates"_s, o.cluster.replicates },
        { u"clusters"_s, o.clusters },
        { u"init"_s, m.initSet ? choiceName(kInitChoices, m.init) : u"default"_s },

        { u"lambda"_s, optional(m.lambda) },
        { u"p"_s, m.p },
        // exact or HNSW neighbours give different graphs, so the choice determines the run
        { u"knn"_s, choiceName(kKnnSearchChoices, m.knnSearch) },
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
    // The algorithm that ran, resolved from the method's default when none was asked for; the
    // baselines (k-means, PCA) have none.
    if (const MethodInfo* info = findMethod(o.method); !info || !info->baseline)
        params.insert(u"algorithm"_s,
            choiceName(kAlgorithmChoices, m.algorithm.value_or(defaultAlgorithm(o.method, m))));
    if (o.labeledFraction > 0)
        params.insert(u"labeled-fraction"_s, o.labeledFraction);
    if (o.labeledPerClass > 0)
        params.insert(u"labeled-per-class"_s, o.labeledPerClass);
    if (!o.driver.startSource.empty()) // the factors replace the start "init" would make
        params.insert(u"init-from"_s, QString::fromStdString(o.driver.startSource));
    return params;
}

QJsonObject runOptionsToJson(const RunOptions& o)
{
    QJsonObject json = runParamsToJson(o);
    json.insert(u"method"_s, QString::fromStdString(o.method));
    json.insert(u"seed"_s, QString::number(o.driver.seed));
    // runParamsToJson's "clusters" is RunOptions::clusters; CF_OGL's own c may differ.
    json.insert(u"ogl-clusters"_s, o.params.clusters);
    json.insert(u"labeled-fraction"_s, o.labeledFraction);
    json.insert(u"labeled-per-class"_s, o.labeledPerClass);
    QJsonArray known;
    for (int label : o.params.knownLabels)
        known.append(label);
    json.insert(u"known-labels"_s, known);
    return json;
}

Result<RunOptions> runOptionsFromJson(const QJsonObject& o, const QString& context)
{
    RunOptions r;
    MethodOptions& m = r.params;
    JsonReader in(o, context);
    const QString prefix = context.isEmpty() ? QString() : context + u": "_s;

    QString method;
    in.readString(u"method"_s, method, true);
    if (in.ok() && !findMethod(method.toStdString()))
        return Error { u"%1unknown method \"%2\""_s.arg(prefix, method.left(60)) };
    r.method = method.toStdString();
    // A run started from given factors: the name of their source comes back, the factors do
    // not (DriverOptions::start stays empty), so such options cannot repeat the run.
    QString startSource;
    in.readString(u"init-from"_s, startSource);
    r.driver.startSource = startSource.toStdString();

    in.readInt(u"rank"_s, m.rank, 0, 1000000, true);
    in.readInt(u"max-iter"_s, r.driver.maxIter, 1, kIntMax);
    in.readInt(u"min-iter"_s, r.driver.minIter, 0, kIntMax);
    in.readDouble(u"tol"_s, r.driver.tol, 0, kHuge);
    in.readDouble(u"stationarity-tol"_s, r.driver.stationarityTol, 0, kHuge);
    in.readInt(u"replicates"_s, r.driver.replicates, 1, 100000);
    in.readUInt64(u"seed"_s, r.driver.seed);
    QString cluster = u"kmeans"_s;
    in.readString(u"cluster"_s, cluster);
    if (in.ok() && cluster != u"kmeans" && cluster != u"argmax")
        in.fail(u"%1\"cluster\" must be kmeans or argmax, found \"%2\""_s.arg(
            prefix, cluster.left(40)));
    r.cluster.mode = cluster == u"argmax" ? ClusterMode::ArgMax : ClusterMode::KMeans;
    in.readBool(u"cosine"_s, r.cluster.cosine);
    in.readInt(u"kmeans-replicates"_s, r.cluster.replicates, 1, 100000);
    in.readInt(u"clusters"_s, r.clusters, 0, 1000000);
    QString init = u"default"_s;
    in.readString(u"init"_s, init);
    if (in.ok() && init != u"default") {
        readChoice(in, o, u"init"_s, kInitChoices, m.init);
        m.initSet = true;
    }
    if (o.contains(u"algorithm"_s)) {
        Algorithm algorithm = Algorithm::Mu;
        readChoice(in, o, u"algorithm"_s, kAlgorithmChoices, algorithm);
        m.algorithm = algorithm;
    }
    in.readOptionalDouble(u"lambda"_s, m.lambda, 0, kHuge);
    in.readInt(u"p"_s, m.p, 1, kIntMax);
    readChoice(in, o, u"weight"_s, kGraphWeightChoices, m.weight);
    in.readOptionalDouble(u"heat-t"_s, m.heatT, std::numeric_limits<double>::min(), kHuge);
    readChoice(in, o, u"knn"_s, kKnnSearchChoices, m.knnSearch);
    in.readDouble(u"beta"_s, m.beta, std::numeric_limits<double>::min(), kHuge);
    in.readDouble(u"mu"_s, m.mu, std::numeric_limits<double>::min(), kHuge);
    in.readInt(u"ogl-clusters"_s, m.clusters, 0, 1000000);
    in.readInt(u"outer-iterations"_s, m.outerIterations, 1, 1000000);
    in.readInt(u"inner-steps"_s, m.innerSteps, 1, 1000000);
    in.readBool(u"paper-variant"_s, m.paperVariant);
    readChoice(in, o, u"kernel"_s, kKernelChoices, m.kernel);
    in.readDouble(u"degree"_s, m.degree, std::numeric_limits<double>::min(), kHuge);
    in.readDouble(u"offset"_s, m.offset, -kHuge, kHuge);
    in.readOptionalDouble(u"sigma"_s, m.sigma, std::numeric_limits<double>::min(), kHuge);
    in.readBool(u"ncw"_s, m.ncw);
    in.readBool(u"general-form"_s, m.generalForm);
    in.readBool(u"normalize-each"_s, m.normalizeEach);
    // The CLI refuses 1 and above; 0 means "no labelled subset".
    in.readDouble(u"labeled-fraction"_s, r.labeledFraction, 0, 0.999999999);
    in.readInt(u"labeled-per-class"_s, r.labeledPerClass, 0, kIntMax);
    if (!in.ok())
        return in.failure();
    if (o.contains(u"known-labels"_s)) {
        const QJsonValue known = o.value(u"known-labels"_s);
        if (!known.isArray())
            return Error { u"%1\"known-labels\" must be an array"_s.arg(prefix) };
        for (const QJsonValue& v : known.toArray()) {
            const double d = v.toDouble(-2);
            if (!v.isDouble() || d != std::floor(d) || d < -1 || d > 1000000)
                return Error { u"%1\"known-labels\" holds class indices from 0, or -1 for an "
                               "unlabelled sample"_s.arg(prefix) };
            m.knownLabels.push_back(int(d));
        }
    }
    return r;
}

} // namespace facet
