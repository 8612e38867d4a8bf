// SPDX-License-Identifier: GPL-3.0-or-later
#include "session/session.h"

#include "data/dataset_request_json.h"
#include "session/session_migration.h"
#include "session/session_paths.h"
#include "session/session_run_json.h"
#include "util/atomic_write.h"
#include "util/json_read.h"

#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QSet>

#include <cmath>
#include <limits>

namespace facet {

using namespace Qt::StringLiterals;

namespace {

const QString kFormatName = u"facet-session"_s;

// Base64 grows the factors by 4/3; the rest of a session (histories, labels) is small beside
// them. A larger file cannot be a session this build would accept, so it is not read at all.
constexpr qint64 kSessionMaxFileBytes = kSessionMaxFactorBytes / 3 * 4 + (qint64(256) << 20);

} // namespace

QString defaultRunName(const RunOptions& options, const QString& detail)
{
    return u"%1 k=%2%3%4"_s.arg(QString::fromStdString(options.method).toUpper())
        .arg(options.params.rank)
        .arg(detail.isEmpty() ? QString() : u" "_s + detail)
        .arg(options.driver.startSource.empty()       ? QString()
                : options.driver.startHistory.empty() ? u", warm start"_s
                                                      : u", continued"_s);
}

RunRecord makeRunRecord(
    const RunOptions& options, const RunResult& result, const Dataset& data, const QString& name)
{
    const Factorization& f = result.factorization;
    RunRecord r;
    r.options = options;
    r.name = name.isEmpty() ? defaultRunName(options) : name;
    RunSummary& s = r.summary;
    s.iterations = f.iterations;
    s.stopReason = f.stopReason;
    s.objective = f.history.empty() ? std::numeric_limits<double>::quiet_NaN() : f.history.back();
    s.returnedObjective = f.returnedObjective;
    s.ac = result.ac;
    s.nmi = result.nmi;
    s.graphAc = result.graphAc;
    s.graphNmi = result.graphNmi;
    s.reconstructionError = result.reconstructionError;
    s.sparseness = result.sparseness;
    s.seconds = result.setupSeconds + f.initSeconds + f.solveSeconds + result.clusterSeconds;
    s.setupSeconds = result.setupSeconds;
    s.clusterSeconds = result.clusterSeconds;
    r.history = f.history;
    r.segmentStarts = f.segmentStarts;
    r.times = f.times;
    r.predicted = result.predicted;
    r.basis = f.basis;
    r.V = f.V;
    r.W = f.W;
    r.imageHeight = data.height;
    r.imageWidth = data.width;
    r.created = QDateTime::currentDateTimeUtc();
    return r;
}

QByteArray serializeSession(const Session& session, const QString& sessionDir)
{
    QJsonObject json {
        { u"format"_s, kFormatName },
        { u"version"_s, kSessionFormatVersion },
        { u"facet_version"_s, QStringLiteral(FACET_VERSION_STRING) },
    };
    if (session.dataset) {
        QJsonObject dataset = datasetRequestToJson(*session.dataset);
        dataset.insert(u"path"_s, storedDatasetPath(session.dataset->spec, sessionDir));
        json.insert(u"dataset"_s, dataset);
    } else {
        json.insert(u"dataset"_s, QJsonValue::Null);
    }
    QJsonArray datasets;
    for (const SessionDataset& known : session.datasets) {
        QJsonObject dataset = datasetRequestToJson(known.request);
        dataset.insert(u"path"_s, storedDatasetPath(known.request.spec, sessionDir));
        dataset.insert(u"name"_s, known.name);
        dataset.insert(u"sha256"_s, known.sha256);
        datasets.append(dataset);
    }
    json.insert(u"datasets"_s, datasets);
    QJsonArray runs;
    for (const RunRecord& run : session.runs)
        runs.append(runRecordToJson(run));
    json.insert(u"runs"_s, runs);
    if (session.shownRunId > 0)
        json.insert(u"shown_run"_s, session.shownRunId);
    return QJsonDocument(json).toJson(QJsonDocument::Indented);
}

Result<Session> parseSession(const QByteArray& json, const QString& sessionDir)
{
    if (json.size() > kSessionMaxFileBytes)
        return Error { u"the session is %1 MiB; this build reads sessions up to %2 MiB"_s
                           .arg(json.size() >> 20)
                           .arg(kSessionMaxFileBytes >> 20) };
    QJsonParseError parseError;
    const QJsonDocument document = QJsonDocument::fromJson(json, &parseError);
    if (parseError.error != QJsonParseError::NoError)
        return Error {
            u"not valid JSON at byte %1: %2"_s.arg(parseError.offset).arg(parseError.errorString())
        };
    if (!document.isObject())
        return Error { u"a session is a JSON object; this file holds an array or a value"_s };
    QJsonObject root = document.object();

    if (isVersionZeroSession(root))
        root = migrateSessionFromVersionZero(root);
    const QJsonValue format = root.value(u"format"_s);
    if (format.toString() != kFormatName)
        return Error { format.isUndefined()
                ? u"not a Facet session: there is no \"format\": \"facet-session\""_s
                : u"not a Facet session: \"format\" is not \"facet-session\""_s };
    JsonReader in(root, QString());
    int version = -1;
    in.readInt(u"version"_s, version, 0, std::numeric_limits<int>::max(), true);
    if (!in.ok())
        return in.failure();
    if (version > kSessionFormatVersion)
        return Error { u"this session was written by a newer Facet (version %1); this build "
                       "reads up to %2"_s.arg(version)
                           .arg(kSessionFormatVersion) };
    if (version < 1)
        return Error { u"session version %1 does not exist; versions start at 1 (a facet-cli "
                       "run report, the version-0 form, has no \"format\" key)"_s.arg(version) };

    Session session;
    const QJsonValue dataset = root.value(u"dataset"_s);
    if (dataset.isObject()) {
        Result<DatasetRequest> request = datasetRequestFromJson(dataset.toObject());
        if (!request)
            return Error { u"dataset: %1"_s.arg(request.error()) };
        const ResolvedDatasetPath path = resolveDatasetPath(request->spec, sessionDir);
        if (path.problem.isEmpty()) {
            request->spec = path.path;
            session.dataset = std::move(*request);
        } else {
            session.datasetProblem = path.problem;
        }
    } else if (!dataset.isUndefined() && !dataset.isNull()) {
        return Error { u"\"dataset\" must be an object or null"_s };
    }

    const QJsonValue datasets = root.value(u"datasets"_s);
    if (!datasets.isUndefined() && !datasets.isArray())
        return Error { u"\"datasets\" must be an array of datasets"_s };
    const QJsonArray datasetArray = datasets.toArray();
    for (qsizetype i = 0; i < datasetArray.size(); ++i) {
        const QString context = u"datasets entry %1"_s.arg(i + 1);
        if (!datasetArray.at(i).isObject())
            return Error { u"%1 must be an object"_s.arg(context) };
        const QJsonObject entry = datasetArray.at(i).toObject();
        Result<DatasetRequest> request = datasetRequestFromJson(entry);
        if (!request)
            return Error { u"%1: %2"_s.arg(context, request.error()) };
        Result<DatasetIdentity> identity
            = identityFromJson(QJsonObject { { u"name"_s, entry.value(u"name"_s) },
                                   { u"sha256"_s, entry.value(u"sha256"_s) } },
                context);
        if (!identity)
            return Error { identity.error() };
        if (!identity->known())
            return Error { u"%1: \"sha256\" is required"_s.arg(context) };
        // A path that leaves the session's folder is not followed (as for "dataset"): that
        // dataset cannot be reopened from here, and its runs say only its name.
        const ResolvedDatasetPath path = resolveDatasetPath(request->spec, sessionDir);
        if (!path.problem.isEmpty())
            continue;
        request->spec = path.path;
        session.datasets.push_back({ std::move(*request), identity->name, identity->sha256 });
    }

    const QJsonValue runs = root.value(u"runs"_s);
    if (!runs.isArray())
        return Error { u"\"runs\" must be an array of runs"_s };
    const QJsonArray runArray = runs.toArray();
    qint64 budget = kSessionMaxFactorBytes;
    QSet<int> ids;
    for (qsizetype i = 0; i < runArray.size(); ++i) {
        const QString context = u"run %1"_s.arg(i + 1);
        if (!runArray.at(i).isObject())
            return Error { u"%1 must be an object"_s.arg(context) };
        Result<RunRecord> run = runRecordFromJson(runArray.at(i).toObject(), context, budget);
        if (!run)
            return Error { run.error() };
        if (ids.contains(run->id))
            return Error { u"%1: id %2 is used by an earlier run"_s.arg(context).arg(run->id) };
        ids.insert(run->id);
        for (const SessionDataset& known : session.datasets)
            if (run->dataset.sha256 == known.sha256)
                run->dataset.source = known.request.spec;
        session.runs.push_back(std::move(*run));
    }
    if (const QJsonValue shown = root.value(u"shown_run"_s); !shown.isUndefined()) {
        const double id = shown.toDouble(-1);
        // In int's range before the conversion (a value beyond it is no id either).
        if (!shown.isDouble() || !(id >= 1 && id <= std::numeric_limits<int>::max())
            || id != std::floor(id) || !ids.contains(int(id)))
            return Error { u"\"shown_run\" must be the id of one of the runs"_s };
        session.shownRunId = int(id);
    }
    return session;
}

Result<bool> saveSession(const Session& session, const QString& path)
{
    const QString dir = QFileInfo(path).absolutePath();
    return writeBytesFile(path, serializeSession(session, dir));
}

Result<Session> loadSession(const QString& path)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return Error { u"cannot open %1: %2"_s.arg(path, file.errorString()) };
    if (file.size() > kSessionMaxFileBytes)
        return Error { u"%1 is %2 MiB; this build reads sessions up to %3 MiB"_s.arg(path)
                           .arg(file.size() >> 20)
                           .arg(kSessionMaxFileBytes >> 20) };
    const QByteArray bytes = file.readAll();
    if (file.error() != QFileDevice::NoError)
        return Error { u"cannot read %1: %2"_s.arg(path, file.errorString()) };
    Result<Session> session = parseSession(bytes, QFileInfo(path).absolutePath());
    if (!session)
        return Error { u"%1: %2"_s.arg(path, session.error()) };
    return session;
}

} // namespace facet
