// SPDX-License-Identifier: GPL-3.0-or-later
// `facet-cli sweep-cell`: the reproducibility promise of METHODS.md section 6 made checkable.
// The sweep's own arguments (results.json "arguments") are parsed again, so the cell runs with
// exactly the options the sweep had, and its numbers are compared bit for bit with the record.
#include "cli/commands.h"
#include "cli/sweep_command.h"
#include "cli/sweep_options.h"
#include "experiment/sweep_json.h"
#include "experiment/sweep_runner.h"
#include "util/atomic_write.h"

#include <QDir>

#include <algorithm>
#include <cmath>

namespace facet::cli {

using namespace Qt::StringLiterals;

namespace {

// Same numbers, bit for bit (NaN objectives compare equal to each other).
bool identical(const TrialResult& a, const TrialResult& b)
{
    const auto same = [](double x, double y) { return x == y || (std::isnan(x) && std::isnan(y)); };
    return a.seed == b.seed && a.classes == b.classes && a.rank == b.rank && same(a.ac, b.ac)
        && same(a.nmi, b.nmi) && same(a.objective, b.objective) && a.iterations == b.iterations
        && a.subrun == b.subrun;
}

} // namespace

int runSweepCell(const CliOptions& options, QTextStream& out, QTextStream& err)
{
    const SweepCliOptions& request = options.sweep;
    const auto failWith = [&](const QString& message) {
        err << "facet-cli: " << message << Qt::endl;
        return kExitFailure;
    };
    const QString resultsPath = QDir(request.fromDir).filePath(u"results.json"_s);
    const Result<SweepFile> file = readSweepFile(resultsPath);
    if (!file)
        return failWith(file.error());
    if (file->arguments.isEmpty())
        return failWith(u"%1 does not record the sweep's arguments"_s.arg(resultsPath));
    // --out only satisfies the parser; nothing is written there.
    Result<CliOptions> sweep
        = parseSweepArguments(file->arguments + QStringList { u"--out"_s, request.fromDir });
    if (!sweep)
        return failWith(
            u"the arguments in %1 no longer parse: %2"_s.arg(resultsPath, sweep.error()));
    const ExperimentOptions& e = sweep->sweep.experiment;

    ExperimentCell cell = request.cell;
    if (std::find(e.methods.begin(), e.methods.end(), cell.method) == e.methods.end())
        return failWith(u"the sweep has no method '%1'"_s.arg(QString::fromStdString(cell.method)));
    if (std::find(e.clusterCounts.begin(), e.clusterCounts.end(), cell.clusters)
        == e.clusterCounts.end())
        return failWith(u"the sweep has no cluster count %1"_s.arg(cell.clusters));
    if (cell.trial >= e.trials)
        return failWith(
            u"the sweep has %1 trials per c, not %2"_s.arg(e.trials).arg(cell.trial + 1));
    if (e.parameterSweep()) {
        if (!request.parameterValue)
            return failWith(u"this is a parameter sweep: give --param-value"_s);
        const auto at = std::find(
            e.parameterValues.begin(), e.parameterValues.end(), *request.parameterValue);
        if (at == e.parameterValues.end())
            return failWith(u"%1 is not on the sweep's grid"_s.arg(*request.parameterValue));
        cell.parameterIndex = int(at - e.parameterValues.begin());
    }

    const Result<std::shared_ptr<ExperimentDataset>> loaded = loadExperimentData(*sweep);
    if (!loaded)
        return failWith(loaded.error());
    const ExperimentDataset& data = **loaded;
    const QJsonObject dataset = sweepDatasetToJson({}, data.raw());
    if (dataset.value(u"checksum"_s) != file->dataset.value(u"checksum"_s))
        return failWith(u"the data of %1 changed since the sweep (checksum %2, recorded %3)"_s.arg(
            sweep->dataset.spec, dataset.value(u"checksum"_s).toString(),
            file->dataset.value(u"checksum"_s).toString()));

    std::optional<TrialResult> result;
    try {
        result = runExperimentCell(data, e, cell);
    } catch (const std::exception& ex) {
        return failWith(QString::fromStdString(ex.what()));
    }
    if (!result)
        return failWith(u"the cell was stopped"_s);
    const auto recorded = std::find_if(file->trials.begin(), file->trials.end(),
        [&](const TrialResult& t) { return t.cell == cell; });
    const bool haveRecord = recorded != file->trials.end();
    const bool same = haveRecord && identical(*result, *recorded);

    const QStringList names = data.raw().classNames;
    if (!request.cellJsonPath.isEmpty()) {
        const QJsonObject report {
            { u"from"_s, QDir(request.fromDir).absolutePath() },
            { u"cell"_s, trialToJson(*result, e, names) },
            { u"recorded"_s,
                haveRecord ? QJsonValue(trialToJson(*recorded, e, names)) : QJsonValue() },
            { u"identical"_s, haveRecord ? QJsonValue(same) : QJsonValue() },
        };
        if (const Result<bool> ok = writeJsonFile(request.cellJsonPath, report); !ok)
            return failWith(ok.error());
    }
    QStringList classes;
    for (int c : result->classes)
        classes << names.value(c);
    out << QString::fromStdString(cell.method) << " c=" << cell.clusters << " trial "
        << cell.trial + 1 << " (seed " << QString::number(result->seed) << ", classes "
        << classes.join(u' ') << "): AC " << QString::number(result->ac, 'g', 17) << ", NMI "
        << QString::number(result->nmi, 'g', 17) << ", " << result->iterations << " iterations\n";
    if (!haveRecord)
        out << "the sweep has not recorded this cell yet\n";
    else if (same)
        out << "identical to the sweep's record in " << resultsPath << '\n';
    else
        out << "DIFFERS from the sweep's record: AC " << QString::number(recorded->ac, 'g', 17)
            << ", NMI " << QString::number(recorded->nmi, 'g', 17) << ", " << recorded->iterations
            << " iterations\n";
    out.flush();
    return !haveRecord || same ? kExitOk : kExitFailure;
}

} // namespace facet::cli
