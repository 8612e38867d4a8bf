// SPDX-License-Identifier: GPL-3.0-or-later
// The sweeps of a reproduction: planned (every data file and command checked first), run one
// after the other, and read back as comparisons with the paper.
#include "cli/reproduce_plan.h"

#include "cli/reproduce_command.h"
#include "cli/sweep_command.h"
#include "cli/sweep_options.h"
#include "distributed/communicator.h"
#include "experiment/sweep_json.h"

#include <QCryptographicHash>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>

namespace facet::cli {

using namespace Qt::StringLiterals;

namespace {

QString fileSha256(const QString& path)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return {};
    QCryptographicHash hash(QCryptographicHash::Sha256);
    hash.addData(&file);
    return QString::fromLatin1(hash.result().toHex());
}

} // namespace

Result<std::vector<PlannedDataset>> planReproduction(const PaperRecord& paper,
    const ReproduceCliOptions& options, const QJsonObject& preset, const QString& outDir,
    int threads)
{
    const QString dataDir = reproduceDataDir(options);
    std::vector<PlannedDataset> plan;
    for (const PaperDataset& d : paper.datasets) {
        if (!d.available || (!options.datasets.isEmpty() && !options.datasets.contains(d.key)))
            continue;
        PlannedDataset p;
        p.info = &d;
        p.path = QDir(dataDir).filePath(d.file);
        if (!QFileInfo(p.path).isFile())
            return Error { u"reproduce %1: the %2 data, %3, is not in %4; set FACET_DATA_DIR or "
                           "give --data-dir"_s.arg(
                               paper.key, d.paperName, d.file, QDir(dataDir).absolutePath()) };
        p.dir = QDir(outDir).filePath(d.key);
        QStringList args = presetSweepArguments(preset, p.path);
        const bool resume = QFileInfo::exists(QDir(p.dir).filePath(u"results.json"_s));
        args << (resume ? u"--resume"_s : u"--out"_s) << p.dir;
        args << u"--threads"_s << QString::number(threads);
        Result<CliOptions> sweep = parseSweepArguments(args);
        if (!sweep)
            return Error { u"reproduce %1, %2: %3"_s.arg(paper.key, d.key, sweep.error()) };
        p.sweep = std::move(*sweep);
        plan.push_back(std::move(p));
    }
    if (plan.empty())
        return Error { u"reproduce %1: no data set to run"_s.arg(paper.key) };
    return plan;
}

int runPlannedSweeps(const PaperRecord& paper, const std::vector<PlannedDataset>& plan,
    QTextStream& out, QTextStream& err, std::stop_token stop)
{
    for (const PlannedDataset& d : plan) {
        out << "== " << paper.key << " on " << d.info->paperName << ": facet-cli "
            << d.sweep.sweep.arguments.join(u' ') << " --out " << d.dir << Qt::endl;
        SingleProcessCommunicator alone; // reproduce runs in one process
        const int code = runSweep(d.sweep, out, err, stop, alone);
        if (code != kExitOk)
            return code;
    }
    return kExitOk;
}

Result<ReproducedDataset> collectReproduced(
    const PaperRecord& paper, const PlannedDataset& d, const QString& sweepDir)
{
    const Result<SweepFile> file = readSweepFile(QDir(d.dir).filePath(u"results.json"_s));
    if (!file)
        return Error { file.error() };
    const ExperimentOptions& options = d.sweep.sweep.experiment;
    ReproducedDataset out;
    out.comparison = compareWithPaper(paper, d.info->key, summarize(options, file->trials));
    out.sweepDir = sweepDir;
    out.file = QFileInfo(d.path).absoluteFilePath();
    out.fileSha256 = fileSha256(d.path);
    out.sweepOptions = file->options;
    out.sweepDataset = file->dataset;
    out.sweepArguments = file->arguments;
    out.cellsFinished = int(file->trials.size());
    out.cellsPlanned = int(planCells(options).size());
    return out;
}

QJsonObject reproduceOptionsJson(const ReproduceCliOptions& r, const QString& dataDir,
    const std::vector<PlannedDataset>& plan, int threads)
{
    QJsonArray datasets;
    for (const PlannedDataset& d : plan)
        datasets.append(d.info->key);
    const ExperimentOptions& e = plan.front().sweep.sweep.experiment;
    QJsonArray clusters;
    for (int c : e.clusterCounts)
        clusters.append(c);
    return QJsonObject {
        { u"paper"_s, r.paper },
        { u"datasets"_s, datasets },
        { u"trials"_s, e.trials },
        { u"clusters"_s, clusters },
        { u"subruns"_s, e.subruns },
        { u"max-iter"_s, e.base.driver.maxIter },
        { u"seed"_s, QString::number(e.seed) },
        { u"threads"_s, threads },
        { u"data_dir"_s, QDir(dataDir).absolutePath() },
    };
}

} // namespace facet::cli
