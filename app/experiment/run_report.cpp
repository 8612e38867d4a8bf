// SPDX-License-Identifier: GPL-3.0-or-later
#include "experiment/run_report.h"

#include "data/dataset_identity.h"
#include "data/dataset_request_json.h"
#include "util/json_values.h"
#include "util/params_json.h"

#include <QJsonArray>

#include <cmath>

namespace facet {

using namespace Qt::StringLiterals;

QJsonObject runReport(const Dataset& data, const DatasetRequest& request, const RunOptions& options,
    const RunResult& result, const RunTimings& timings)
{
    const Factorization& f = result.factorization;
    QJsonObject params = runParamsToJson(options);
    params.insert(u"clusters"_s, result.clusters); // the number actually used
    // The lambda the method used when none was given (the file then says which value ran, not
    // only that it was the default); "defaulted" names such parameters.
    if (const std::optional<double> lambda = defaultLambda(options.method);
        lambda && !options.params.lambda) {
        params.insert(u"lambda"_s, *lambda);
        params.insert(u"defaulted"_s, QJsonArray { u"lambda"_s });
    }
    // scale01, l2_normalize, pixel_order and the image steps (size, faces, noise, ...).
    const QJsonObject prepare = preparationToJson(request);
    QJsonObject dataset {
        { u"path"_s, request.spec },
        { u"name"_s, data.name },
        { u"summary"_s, describe(data) },
        { u"samples"_s, qint64(data.totalSamples()) },
        { u"features"_s, qint64(data.features()) },
        { u"height"_s, data.height },
        { u"width"_s, data.width },
        { u"classes"_s, data.classCount() },
        { u"class_names"_s, QJsonArray::fromStringList(data.classNames) },
        { u"preprocess"_s, prepare },
        { u"preparation"_s, describePreparation(request) },
        // The identity a run file is matched to its data by (the explorer's sessions record the
        // same digest): SHA-256 of the prepared matrix as factorized, dataSha256.
        { u"sha256"_s, data.whole ? data.whole->sha256 : dataSha256(data.X) },
        { u"notes"_s, QJsonArray::fromStringList(data.notes) },
    };
    QJsonArray history;
    for (double v : f.history)
        history.append(numberOrNull(v));
    QJsonArray log;
    for (const std::string& line : f.log)
        log.append(QString::fromStdString(line));

    return QJsonObject {
        { u"facet_version"_s, QStringLiteral(FACET_VERSION_STRING) },
        { u"method"_s, QString::fromStdString(options.method) },
        { u"params"_s, params },
        { u"dataset"_s, dataset },
        { u"n"_s, qint64(data.totalSamples()) },
        { u"m"_s, qint64(data.features()) },
        { u"rank"_s, options.params.rank },
        // JSON numbers are doubles: seeds past 2^53 are written as strings to stay exact.
        { u"seed"_s,
            options.driver.seed <= (1ULL << 53)
                ? QJsonValue(double(options.driver.seed))
                : QJsonValue(QString::number(options.driver.seed)) },
        { u"iterations"_s, f.iterations },
        { u"replicate_kept"_s, f.replicate },
        { u"objective_history"_s, history },
        // Seconds from the start of the solve at each iteration of this run (the last
        // time_history.size() entries of objective_history: a continued run has none for its
        // earlier part).
        { u"time_history"_s, doubleArray(f.times) },
        // The objective at the factors below, after the final normalization: the history's last
        // value for most methods, not for the graph-regularized ones (Factorization).
        { u"returned_objective"_s, numberOrNull(f.returnedObjective) },
        { u"segment_starts"_s, intArray(f.segmentStarts) },
        { u"stop_reason"_s, QString::fromLatin1(stopReasonName(f.stopReason)) },
        // converged runs: "relative decrease" or "stationarity" (the test that ended the run)
        { u"stop_rule"_s, QString::fromStdString(f.stopRule) },
        { u"still_decreasing"_s, f.stillDecreasing },
        { u"timings"_s,
            QJsonObject {
                { u"load_s"_s, timings.loadSeconds },
                { u"prepare_s"_s, timings.prepareSeconds },
                { u"setup_s"_s, result.setupSeconds },
                { u"solve_s"_s, f.initSeconds + f.solveSeconds },
                { u"cluster_s"_s, result.clusterSeconds },
            } },
        { u"ac"_s, optionalNumber(result.ac) },
        { u"nmi"_s, optionalNumber(result.nmi) },
        { u"reconstruction_error"_s, numberOrNull(result.reconstructionError) },
        { u"sparseness"_s, numberOrNull(result.sparseness) },
        { u"labels"_s, intArray(result.predicted) },
        { u"known_labels"_s, intArray(result.knownLabels) },
        { u"graph_clusters"_s, intArray(f.graphClusters) },
        { u"graph_ac"_s, optionalNumber(result.graphAc) },
        { u"graph_nmi"_s, optionalNumber(result.graphNmi) },
        { u"log"_s, log },
    };
}

} // namespace facet
