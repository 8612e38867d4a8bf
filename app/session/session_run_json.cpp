// SPDX-License-Identifier: GPL-3.0-or-later
#include "session/session_run_json.h"

#include "session/session_matrix.h"
#include "util/json_read.h"
#include "util/json_values.h"
#include "util/params_json.h"

#include <QJsonArray>

#include <cmath>
#include <limits>

namespace facet {

using namespace Qt::StringLiterals;

namespace {

// An array of whole numbers in [minimum, maximum].
Result<std::vector<int>> readIntArray(
    const QJsonObject& o, const QString& key, const QString& context, int minimum, int maximum)
{
    std::vector<int> values;
    if (!o.contains(key))
        return values;
    const QJsonValue v = o.value(key);
    if (!v.isArray())
        return Error { u"%1: \"%2\" must be an array"_s.arg(context, key) };
    const QJsonArray array = v.toArray();
    values.reserve(std::size_t(array.size()));
    for (qsizetype i = 0; i < array.size(); ++i) {
        const QJsonValue item = array.at(i);
        const double d = item.toDouble(std::nan(""));
        if (!item.isDouble() || d != std::floor(d) || d < minimum || d > maximum)
            return Error { u"%1: \"%2\" entry %3 must be a whole number from %4 to %5"_s
                               .arg(context, key)
                               .arg(i + 1)
                               .arg(minimum)
                               .arg(maximum) };
        values.push_back(int(d));
    }
    return values;
}

std::optional<double> optionalOf(double v)
{
    return std::isnan(v) ? std::nullopt : std::optional<double>(v);
}

Result<RunSummary> summaryFromJson(const QJsonObject& o, const QString& context)
{
    RunSummary s;
    JsonReader in(o, context + u": summary"_s);
    in.readInt(u"iterations"_s, s.iterations, 0, std::numeric_limits<int>::max(), true);
    QString reason;
    in.readString(u"stop_reason"_s, reason, true);
    double ac = std::nan(""), nmi = ac, graphAc = ac, graphNmi = ac;
    in.readNumberOrNull(u"objective"_s, s.objective, true);
    in.readNumberOrNull(u"returned_objective"_s, s.returnedObjective);
    in.readNumberOrNull(u"ac"_s, ac);
    in.readNumberOrNull(u"nmi"_s, nmi);
    in.readNumberOrNull(u"graph_ac"_s, graphAc);
    in.readNumberOrNull(u"graph_nmi"_s, graphNmi);
    in.readNumberOrNull(u"reconstruction_error"_s, s.reconstructionError);
    in.readNumberOrNull(u"sparseness"_s, s.sparseness);
    in.readDouble(u"seconds"_s, s.seconds, 0, std::numeric_limits<double>::max());
    in.readDouble(u"setup_seconds"_s, s.setupSeconds, 0, s.seconds);
    in.readDouble(u"cluster_seconds"_s, s.clusterSeconds, 0, s.seconds);
    if (!in.ok())
        return in.failure();
    bool known = false;
    for (StopReason r : { StopReason::Converged, StopReason::MaxIterations, StopReason::Cancelled,
             StopReason::NonFinite })
        if (reason == QLatin1StringView(stopReasonName(r))) {
            s.stopReason = r;
            known = true;
        }
    if (!known)
        return Error { u"%1: summary: unknown stop_reason \"%2\""_s.arg(context, reason.left(40)) };
    s.ac = optionalOf(ac);
    s.nmi = optionalOf(nmi);
    s.graphAc = optionalOf(graphAc);
    s.graphNmi = optionalOf(graphNmi);
    return s;
}

// null or absent: an empty matrix (a run kept without factors).
Result<Matrix> optionalMatrix(
    const QJsonObject& o, const QString& key, const QString& context, qint64& budgetBytes)
{
    const QJsonValue v = o.value(key);
    if (v.isUndefined() || v.isNull())
        return Matrix();
    if (!v.isObject())
        return Error { u"%1: \"%2\" must be a matrix object or null"_s.arg(context, key) };
    return matrixFromJson(v.toObject(), u"%1: %2"_s.arg(context, key), budgetBytes);
}

} // namespace

QJsonObject runRecordToJson(const RunRecord& r)
{
    const RunSummary& s = r.summary;
    QJsonArray history;
    for (double v : r.history)
        history.append(numberOrNull(v));
    return QJsonObject {
        { u"id"_s, r.id },
        { u"name"_s, r.name },
        { u"created"_s, r.created.toUTC().toString(Qt::ISODateWithMs) },
        { u"options"_s, runOptionsToJson(r.options) },
        { u"dataset"_s, identityToJson(r.dataset) },
        { u"summary"_s,
            QJsonObject {
                { u"iterations"_s, s.iterations },
                { u"stop_reason"_s, QString::fromLatin1(stopReasonName(s.stopReason)) },
                { u"objective"_s, numberOrNull(s.objective) },
                { u"returned_objective"_s, numberOrNull(s.returnedObjective) },
                { u"ac"_s, optionalNumber(s.ac) },
                { u"nmi"_s, optionalNumber(s.nmi) },
                { u"graph_ac"_s, optionalNumber(s.graphAc) },
                { u"graph_nmi"_s, optionalNumber(s.graphNmi) },
                { u"reconstruction_error"_s, numberOrNull(s.reconstructionError) },
                { u"sparseness"_s, numberOrNull(s.sparseness) },
                { u"seconds"_s, s.seconds },
                { u"setup_seconds"_s, s.setupSeconds },
                { u"cluster_seconds"_s, s.clusterSeconds },
            } },
        { u"objective_history"_s, history },
        { u"segment_starts"_s, intArray(r.segmentStarts) },
        { u"time_history"_s, doubleArray(r.times) },
        { u"labels"_s, intArray(r.predicted) },
        { u"image"_s,
            QJsonObject { { u"height"_s, r.imageHeight }, { u"width"_s, r.imageWidth } } },
        { u"basis"_s, r.basis.size() > 0 ? QJsonValue(matrixToJson(r.basis)) : QJsonValue() },
        { u"V"_s, r.V.size() > 0 ? QJsonValue(matrixToJson(r.V)) : QJsonValue() },
        { u"W"_s, r.W.size() > 0 ? QJsonValue(matrixToJson(r.W)) : QJsonValue() },
    };
}

Result<RunRecord> runRecordFromJson(
    const QJsonObject& o, const QString& context, qint64& budgetBytes)
{
    RunRecord r;
    JsonReader in(o, context);
    in.readInt(u"id"_s, r.id, 1, std::numeric_limits<int>::max(), true);
    in.readString(u"name"_s, r.name, true);
    QString created;
    in.readString(u"created"_s, created);
    const QJsonObject options = in.object(u"options"_s, true);
    const QJsonObject summary = in.object(u"summary"_s, true);
    const QJsonObject image = in.object(u"image"_s);
    const QJsonObject dataset = in.object(u"dataset"_s);
    if (!in.ok())
        return in.failure();
    Result<DatasetIdentity> identity = identityFromJson(dataset, context + u": dataset"_s);
    if (!identity)
        return Error { identity.error() };
    r.dataset = std::move(*identity);
    r.created = created.isEmpty() ? QDateTime() : QDateTime::fromString(created, Qt::ISODateWithMs);
    if (!created.isEmpty() && !r.created.isValid())
        return Error { u"%1: \"created\" must be an ISO 8601 time, found \"%2\""_s.arg(
            context, created.left(40)) };

    Result<RunOptions> runOptions = runOptionsFromJson(options, context + u": options"_s);
    if (!runOptions)
        return Error { runOptions.error() };
    r.options = std::move(*runOptions);
    Result<RunSummary> s = summaryFromJson(summary, context);
    if (!s)
        return Error { s.error() };
    r.summary = *s;

    JsonReader size(image, context + u": image"_s);
    size.readInt(u"height"_s, r.imageHeight, 0, 1 << 20);
    size.readInt(u"width"_s, r.imageWidth, 0, 1 << 20);
    if (!size.ok())
        return size.failure();

    const QJsonValue history = o.value(u"objective_history"_s);
    if (!history.isUndefined() && !history.isArray())
        return Error { u"%1: \"objective_history\" must be an array"_s.arg(context) };
    for (const QJsonValue& v : history.toArray()) {
        if (!v.isNull() && !v.isDouble())
            return Error { u"%1: \"objective_history\" holds numbers or null"_s.arg(context) };
        r.history.push_back(v.isNull() ? std::nan("") : v.toDouble());
    }
    const QJsonValue times = o.value(u"time_history"_s);
    if (!times.isUndefined() && !times.isArray())
        return Error { u"%1: \"time_history\" must be an array"_s.arg(context) };
    for (const QJsonValue& v : times.toArray()) {
        if (!v.isDouble() || !(v.toDouble() >= 0) || !std::isfinite(v.toDouble()))
            return Error { u"%1: \"time_history\" holds seconds, finite and >= 0"_s.arg(context) };
        r.times.push_back(v.toDouble());
    }
    if (r.times.size() > r.history.size())
        return Error { u"%1: \"time_history\" has %2 entries for %3 iterations"_s.arg(context)
                           .arg(r.times.size())
                           .arg(r.history.size()) };
    const int historyLength = int(std::min<qsizetype>(r.history.size(), 1 << 30));
    Result<std::vector<int>> segments
        = readIntArray(o, u"segment_starts"_s, context, 0, historyLength);
    if (!segments)
        return Error { segments.error() };
    r.segmentStarts = std::move(*segments);
    Result<std::vector<int>> labels
        = readIntArray(o, u"labels"_s, context, 0, std::numeric_limits<int>::max());
    if (!labels)
        return Error { labels.error() };
    r.predicted = std::move(*labels);

    Result<Matrix> basis = optionalMatrix(o, u"basis"_s, context, budgetBytes);
    if (!basis)
        return Error { basis.error() };
    Result<Matrix> V = optionalMatrix(o, u"V"_s, context, budgetBytes);
    if (!V)
        return Error { V.error() };
    // W: the CF family's; sessions written before it was kept have none.
    Result<Matrix> W = optionalMatrix(o, u"W"_s, context, budgetBytes);
    if (!W)
        return Error { W.error() };
    r.basis = std::move(*basis);
    r.V = std::move(*V);
    r.W = std::move(*W);
    if ((r.basis.size() > 0) != (r.V.size() > 0))
        return Error { u"%1: a run keeps both factors (basis and V) or neither"_s.arg(context) };
    if (r.hasFactors() && r.basis.cols() != r.V.cols())
        return Error { u"%1: basis is %2 x %3 but V is %4 x %5; they must share the rank"_s
                           .arg(context)
                           .arg(r.basis.rows())
                           .arg(r.basis.cols())
                           .arg(r.V.rows())
                           .arg(r.V.cols()) };
    if (r.W.size() > 0 && (!r.hasFactors() || r.W.rows() != r.V.rows() || r.W.cols() != r.V.cols()))
        return Error { u"%1: W is %2 x %3 but V is %4 x %5; W must have V's shape"_s.arg(context)
                           .arg(r.W.rows())
                           .arg(r.W.cols())
                           .arg(r.V.rows())
                           .arg(r.V.cols()) };
    if (r.hasFactors() && !r.predicted.empty() && qsizetype(r.predicted.size()) != r.V.rows())
        return Error { u"%1: %2 labels for %3 samples (rows of V)"_s.arg(context)
                           .arg(r.predicted.size())
                           .arg(r.V.rows()) };
    if (r.hasFactors() && r.imageHeight > 0 && r.imageWidth > 0
        && qint64(r.imageHeight) * r.imageWidth != r.basis.rows())
        return Error { u"%1: images of %2 x %3 pixels do not match %4 basis rows"_s.arg(context)
                           .arg(r.imageHeight)
                           .arg(r.imageWidth)
                           .arg(r.basis.rows()) };
    return r;
}

} // namespace facet
