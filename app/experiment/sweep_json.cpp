// SPDX-License-Identifier: GPL-3.0-or-later
#include "experiment/sweep_json.h"

#include "util/params_json.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>

#include <algorithm>
#include <cmath>
#include <limits>

namespace facet {

using namespace Qt::StringLiterals;

namespace {

QJsonValue jsonNumber(double v)
{
    return std::isfinite(v) ? QJsonValue(v) : QJsonValue();
}

double numberFrom(const QJsonValue& v)
{
    return v.isDouble() ? v.toDouble() : std::numeric_limits<double>::quiet_NaN();
}

QString seedText(std::uint64_t seed)
{
    return QString::number(seed);
}

QString normalizationName(SampleNormalization n)
{
    switch (n) {
    case SampleNormalization::None:
        return u"none"_s;
    case SampleNormalization::L2:
        return u"l2"_s;
    case SampleNormalization::Auto:
        break;
    }
    return u"auto"_s;
}

QString protocolName(const ExperimentOptions& o)
{
    QString name = o.semiSupervised() ? u"semi-supervised"_s : u"unsupervised"_s;
    if (o.parameterSweep())
        name = u"parameter (%1), %2"_s.arg(
            QString::fromStdString(sweepParameterName(o.parameter)), name);
    return name;
}

template <class T> int indexIn(const std::vector<T>& list, const T& value)
{
    return int(std::find(list.begin(), list.end(), value) - list.begin());
}

} // namespace

QString selectionLabel(const ExperimentOptions& o)
{
    if (o.subruns <= 1)
        return u"one run per trial"_s;
    if (o.selection == SubrunSelection::Accuracy)
        return u"oracle selection: best AC of %1 sub-runs per trial (looks at the truth "
               "labels; optimistic, as in the papers)"_s.arg(o.subruns);
    return u"lowest objective of %1 sub-runs per trial"_s.arg(o.subruns);
}

QJsonObject experimentOptionsToJson(const ExperimentOptions& o, SampleNormalization norm)
{
    QJsonArray methods, clusters, values;
    for (const std::string& m : o.methods)
        methods.append(QString::fromStdString(m));
    for (int c : o.clusterCounts)
        clusters.append(c);
    for (double v : o.parameterValues)
        values.append(v);
    QJsonObject json {
        { u"protocol"_s, protocolName(o) },
        { u"methods"_s, methods },
        { u"clusters"_s, clusters },
        { u"trials"_s, o.trials },
        { u"subruns"_s, o.subruns },
        { u"select"_s, o.selection == SubrunSelection::Accuracy ? u"accuracy"_s : u"objective"_s },
        { u"selection"_s, selectionLabel(o) },
        { u"rank-offset"_s, o.rankOffset },
        { u"evaluate"_s, o.evaluate == EvaluateOn::Unlabeled ? u"unlabeled"_s : u"all"_s },
        { u"seed"_s, seedText(o.seed) },
        { u"normalize"_s, normalizationName(norm) },
        { u"run"_s, runParamsToJson(o.base) },
    };
    if (o.labeledFraction > 0)
        json.insert(u"labeled-fraction"_s, o.labeledFraction);
    if (o.labeledPerClass > 0)
        json.insert(u"labeled-per-class"_s, o.labeledPerClass);
    if (o.parameterSweep())
        json.insert(u"param"_s,
            QJsonObject { { u"name"_s, QString::fromStdString(sweepParameterName(o.parameter)) },
                { u"values"_s, values } });
    return json;
}

QJsonObject trialToJson(
    const TrialResult& t, const ExperimentOptions& options, const QStringList& classNames)
{
    QJsonArray classes, indices, subruns;
    for (int c : t.classes) {
        classes.append(c < classNames.size() ? classNames.at(c) : QString::number(c + 1));
        indices.append(c);
    }
    for (const SubrunScore& s : t.subruns)
        subruns.append(QJsonObject {
            { u"objective"_s, jsonNumber(s.objective) }, { u"ac"_s, s.ac }, { u"nmi"_s, s.nmi } });
    const RunOptions run = cellRunOptions(options, t.cell, t.subrun);
    // What differs per trial from options.run; the rest is shared by every trial.
    QJsonObject params { { u"rank"_s, t.rank }, { u"seed"_s, seedText(run.driver.seed) } };
    QJsonObject json {
        { u"method"_s, QString::fromStdString(t.cell.method) },
        { u"clusters"_s, t.cell.clusters },
        { u"trial"_s, t.cell.trial + 1 },
        { u"seed"_s, seedText(t.seed) },
        { u"classes"_s, classes },
        { u"class_indices"_s, indices },
        { u"rank"_s, t.rank },
        { u"samples"_s, t.samples },
        { u"labeled"_s, t.labeled },
        { u"evaluated"_s, t.evaluated },
        { u"ac"_s, t.ac },
        { u"nmi"_s, t.nmi },
        { u"objective"_s, jsonNumber(t.objective) },
        { u"iterations"_s, t.iterations },
        { u"stop_reason"_s, QString::fromLatin1(stopReasonName(t.stopReason)) },
        { u"subrun"_s, t.subrun + 1 },
        { u"subruns"_s, subruns },
        { u"seconds"_s, t.seconds },
    };
    if (options.parameterSweep()) {
        const QString name = QString::fromStdString(sweepParameterName(options.parameter));
        params.insert(name, t.parameterValue);
        json.insert(u"param"_s, name);
        json.insert(u"param_index"_s, t.cell.parameterIndex);
        json.insert(u"param_value"_s, t.parameterValue);
    }
    json.insert(u"params"_s, params);
    // CF_OGL's graph components as a clustering: null when the learned graph did not have
    // exactly c components; absent for the other methods, and for a CF_OGL trial of an older
    // file that did not score them (so a resumed sweep keeps saying it does not know).
    if (t.graphAc || (t.cell.method == "cf-ogl" && t.graphScored)) {
        json.insert(u"graph_ac"_s, t.graphAc ? QJsonValue(*t.graphAc) : QJsonValue());
        json.insert(u"graph_nmi"_s, t.graphNmi ? QJsonValue(*t.graphNmi) : QJsonValue());
    }
    return json;
}

Result<TrialResult> trialFromJson(const QJsonObject& o)
{
    TrialResult t;
    t.cell.method = o.value(u"method"_s).toString().toStdString();
    t.cell.clusters = o.value(u"clusters"_s).toInt();
    t.cell.trial = o.value(u"trial"_s).toInt() - 1;
    t.cell.parameterIndex = o.value(u"param_index"_s).toInt(0);
    if (t.cell.method.empty() || t.cell.clusters < 1 || t.cell.trial < 0)
        return Error { u"a trial needs method, clusters and trial (from 1)"_s };
    bool ok = false;
    t.seed = o.value(u"seed"_s).toString().toULongLong(&ok);
    if (!ok)
        return Error { u"trial seed must be a decimal string"_s };
    t.parameterValue = numberFrom(o.value(u"param_value"_s));
    for (const QJsonValue& v : o.value(u"class_indices"_s).toArray())
        t.classes.push_back(v.toInt());
    t.rank = o.value(u"rank"_s).toInt();
    t.samples = o.value(u"samples"_s).toInt();
    t.labeled = o.value(u"labeled"_s).toInt();
    t.evaluated = o.value(u"evaluated"_s).toInt();
    if (!o.value(u"ac"_s).isDouble() || !o.value(u"nmi"_s).isDouble())
        return Error { u"a trial needs numbers ac and nmi"_s };
    t.ac = o.value(u"ac"_s).toDouble();
    t.nmi = o.value(u"nmi"_s).toDouble();
    t.objective = numberFrom(o.value(u"objective"_s));
    t.iterations = o.value(u"iterations"_s).toInt();
    const QString reason = o.value(u"stop_reason"_s).toString();
    for (StopReason r : { StopReason::Converged, StopReason::MaxIterations, StopReason::Cancelled,
             StopReason::NonFinite })
        if (reason == QLatin1StringView(stopReasonName(r)))
            t.stopReason = r;
    t.subrun = o.value(u"subrun"_s).toInt(1) - 1;
    for (const QJsonValue& v : o.value(u"subruns"_s).toArray()) {
        const QJsonObject s = v.toObject();
        t.subruns.push_back({ numberFrom(s.value(u"objective"_s)), s.value(u"ac"_s).toDouble(),
            s.value(u"nmi"_s).toDouble() });
    }
    t.seconds = o.value(u"seconds"_s).toDouble();
    t.graphScored = o.contains(u"graph_ac"_s) || t.cell.method != "cf-ogl";
    if (o.value(u"graph_ac"_s).isDouble() && o.value(u"graph_nmi"_s).isDouble()) {
        t.graphAc = o.value(u"graph_ac"_s).toDouble();
        t.graphNmi = o.value(u"graph_nmi"_s).toDouble();
    }
    return t;
}

QJsonObject sweepDatasetToJson(const QJsonObject& request, const Dataset& data)
{
    QJsonObject json = request;
    json.insert(u"name"_s, data.name);
    json.insert(u"samples"_s, qint64(data.samples()));
    json.insert(u"features"_s, qint64(data.features()));
    json.insert(u"classes"_s, data.classCount());
    json.insert(u"class_names"_s, QJsonArray::fromStringList(data.classNames));
    json.insert(u"checksum"_s, dataChecksum(data.X));
    return json;
}

QJsonObject sweepFileToJson(const SweepFile& file, const ExperimentOptions& options,
    const QStringList& classNames, int cellsPlanned)
{
    QJsonArray trials;
    for (const TrialResult& t : file.trials)
        trials.append(trialToJson(t, options, classNames));
    return QJsonObject {
        { u"format"_s, u"facet-sweep"_s },
        { u"facet_version"_s, QStringLiteral(FACET_VERSION_STRING) },
        { u"options"_s, file.options },
        { u"dataset"_s, file.dataset },
        { u"arguments"_s, QJsonArray::fromStringList(file.arguments) },
        { u"complete"_s, file.complete },
        { u"cells_planned"_s, cellsPlanned },
        { u"trials"_s, trials },
    };
}

Result<SweepFile> readSweepFile(const QString& path)
{
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly))
        return Error { u"cannot read %1: %2"_s.arg(path, f.errorString()) };
    QJsonParseError parseError;
    const QJsonDocument doc = QJsonDocument::fromJson(f.readAll(), &parseError);
    if (doc.isNull())
        return Error { u"%1 is not valid JSON: %2"_s.arg(path, parseError.errorString()) };
    const QJsonObject root = doc.object();
    if (root.value(u"format"_s).toString() != u"facet-sweep")
        return Error { u"%1 is not a facet sweep (no \"format\": \"facet-sweep\")"_s.arg(path) };
    SweepFile file;
    file.options = root.value(u"options"_s).toObject();
    file.dataset = root.value(u"dataset"_s).toObject();
    for (const QJsonValue& v : root.value(u"arguments"_s).toArray())
        file.arguments << v.toString();
    file.complete = root.value(u"complete"_s).toBool();
    const QJsonArray trials = root.value(u"trials"_s).toArray();
    for (qsizetype i = 0; i < trials.size(); ++i) {
        Result<TrialResult> t = trialFromJson(trials.at(i).toObject());
        if (!t)
            return Error { u"%1: trial %2: %3"_s.arg(path).arg(i + 1).arg(t.error()) };
        file.trials.push_back(std::move(*t));
    }
    return file;
}

QStringList jsonDifferences(const QJsonObject& before, const QJsonObject& now,
    const QString& prefix, const QString& beforeName, const QString& nowName)
{
    QStringList lines;
    QStringList keys = before.keys() + now.keys();
    keys.removeDuplicates();
    keys.sort();
    for (const QString& key : keys) {
        const QJsonValue a = before.value(key), b = now.value(key);
        if (a == b)
            continue;
        const QString name = prefix.isEmpty() ? key : prefix + u'.' + key;
        if (a.isObject() && b.isObject()) {
            lines += jsonDifferences(a.toObject(), b.toObject(), name, beforeName, nowName);
            continue;
        }
        const auto text = [](const QJsonValue& v) {
            if (v.isUndefined())
                return u"(not set)"_s;
            if (v.isObject() || v.isArray())
                return QString::fromUtf8(
                    (v.isObject() ? QJsonDocument(v.toObject()) : QJsonDocument(v.toArray()))
                        .toJson(QJsonDocument::Compact));
            return v.toVariant().toString();
        };
        lines << u"%1: %2 %3, %4 %5"_s.arg(name, text(a), beforeName, text(b), nowName);
    }
    return lines;
}

void sortTrials(std::vector<TrialResult>& trials, const ExperimentOptions& options)
{
    std::stable_sort(trials.begin(), trials.end(), [&](const TrialResult& a, const TrialResult& b) {
        const auto key = [&](const TrialResult& t) {
            return std::tuple(indexIn(options.clusterCounts, t.cell.clusters), t.cell.trial,
                t.cell.parameterIndex, indexIn(options.methods, t.cell.method));
        };
        return key(a) < key(b);
    });
}

} // namespace facet
