// SPDX-License-Identifier: GPL-3.0-or-later
#include "cli/reproduce_command.h"

#include "cli/sweep_command.h"
#include "cli/sweep_options.h"
#include "distributed/communicator.h"
#include "experiment/reproduction_report.h"
#include "experiment/sweep_json.h"
#include "reproduction_charts.h"
#include "util/atomic_write.h"

#include <QApplication>
#include <QCryptographicHash>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>

namespace facet::cli {

using namespace Qt::StringLiterals;

namespace {

struct PlannedDataset {
    const PaperDataset* info = nullptr;
    QString path; // the data file
    QString dir; // the sweep's folder
    CliOptions sweep; // the parsed sweep command
};

QString fileSha256(const QString& path)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return {};
    QCryptographicHash hash(QCryptographicHash::Sha256);
    hash.addData(&file);
    return QString::fromLatin1(hash.result().toHex());
}

QJsonObject optionsJson(const ReproduceCliOptions& r, const QString& dataDir,
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

// The sweep's finished results, compared with the paper.
Result<ReproducedDataset> collect(const PaperRecord& paper, const PlannedDataset& d)
{
    const Result<SweepFile> file = readSweepFile(QDir(d.dir).filePath(u"results.json"_s));
    if (!file)
        return Error { file.error() };
    const ExperimentOptions& options = d.sweep.sweep.experiment;
    ReproducedDataset out;
    out.comparison = compareWithPaper(paper, d.info->key, summarize(options, file->trials));
    out.sweepDir = d.info->key;
    out.file = QFileInfo(d.path).absoluteFilePath();
    out.fileSha256 = fileSha256(d.path);
    out.sweepOptions = file->options;
    out.sweepDataset = file->dataset;
    out.sweepArguments = file->arguments;
    out.cellsFinished = int(file->trials.size());
    out.cellsPlanned = int(planCells(options).size());
    return out;
}

QString footnoteOf(const ReproducedDataset& d)
{
    const QJsonObject& o = d.sweepOptions;
    const int subruns = o.value(u"subruns"_s).toInt();
    const QString selection = subruns <= 1 ? u"one run per trial"_s
        : o.value(u"select"_s).toString() == u"accuracy"
        ? u"best AC of %1 sub-runs (oracle)"_s.arg(subruns)
        : u"lowest objective of %1 sub-runs"_s.arg(subruns);
    return u"Facet %1: trials per c: %2, %3, algorithm %4, seed %5; %6, sha256 %7…"_s
        .arg(QStringLiteral(FACET_VERSION_STRING))
        .arg(o.value(u"trials"_s).toInt())
        .arg(selection, o.value(u"run"_s).toObject().value(u"algorithm"_s).toString(),
            o.value(u"seed"_s).toString(), d.file.section(u'/', -1), d.fileSha256.left(12));
}

Result<QStringList> writeOutputs(const QString& dir, const ReproductionReport& report)
{
    QStringList written;
    const QDir out(dir);
    const auto text = [&](const QString& name, const QString& content) -> Result<bool> {
        const QString path = out.filePath(name);
        if (const Result<bool> ok = writeBytesFile(path, content.toUtf8()); !ok)
            return ok;
        written << path;
        return true;
    };
    if (const Result<bool> ok = text(u"reproduction.md"_s, reproductionMarkdown(report)); !ok)
        return Error { ok.error() };
    if (const Result<bool> ok = text(u"reproduction.csv"_s, reproductionCsv(report)); !ok)
        return Error { ok.error() };
    const QString json = out.filePath(u"reproduction.json"_s);
    if (const Result<bool> ok = writeJsonFile(json, reproductionJson(report)); !ok)
        return Error { ok.error() };
    written << json;
    if (!qobject_cast<QApplication*>(QCoreApplication::instance()))
        return written; // an in-process caller without a QApplication: tables only
    for (const ReproducedDataset& d : report.datasets) {
        if (!d.comparison.paperHasCells)
            continue; // nothing of the paper's to draw; the sweep's own plots show Facet's side
        for (const auto& [metric, name] :
            { std::pair { Metric::Accuracy, u"ac"_s }, std::pair { Metric::Nmi, u"nmi"_s } }) {
            const plots::LineChart chart = plots::reproductionChart(d.comparison, metric,
                u"%1, %2 (%3)"_s.arg(
                    report.paper->key.toUpper(), d.comparison.paperName, d.comparison.table),
                footnoteOf(d));
            const Result<QStringList> files = plots::saveLineChart(chart,
                out.filePath(u"reproduction_%1_%2"_s.arg(d.comparison.dataset, name)), 860, 500);
            if (!files)
                return Error { files.error() };
            written += *files;
        }
    }
    return written;
}

} // namespace

int runReproduce(
    const CliOptions& options, QTextStream& out, QTextStream& err, std::stop_token stop)
{
    const ReproduceCliOptions& r = options.reproduce;
    const auto fail = [&](const QString& message) {
        err << "facet-cli: " << message << Qt::endl;
        return kExitFailure;
    };
    const QString dataDir = reproduceDataDir(r);
    const Result<std::vector<PaperRecord>> papers = loadPaperRecords();
    if (!papers)
        return fail(papers.error());
    if (r.list) {
        out << reproduceListText(*papers, dataDir);
        out.flush();
        return kExitOk;
    }
    const auto found = std::find_if(
        papers->begin(), papers->end(), [&](const PaperRecord& p) { return p.key == r.paper; });
    if (found == papers->end())
        return fail(u"unknown paper '%1'"_s.arg(r.paper));
    const PaperRecord& paper = *found;

    // Every data file and every sweep command first: nothing runs when one is wrong.
    std::vector<PlannedDataset> plan;
    for (const PaperDataset& d : paper.datasets) {
        if (!d.available || (!r.datasets.isEmpty() && !r.datasets.contains(d.key)))
            continue;
        PlannedDataset p;
        p.info = &d;
        p.path = QDir(dataDir).filePath(d.file);
        if (!QFileInfo(p.path).isFile())
            return fail(
                u"reproduce %1: the %2 data, %3, is not in %4; set FACET_DATA_DIR or give "
                "--data-dir"_s.arg(paper.key, d.paperName, d.file, QDir(dataDir).absolutePath()));
        p.dir = QDir(r.outDir).filePath(d.key);
        QStringList args = reproduceSweepArguments(paper, r, p.path);
        const bool resume = QFileInfo::exists(QDir(p.dir).filePath(u"results.json"_s));
        args << (resume ? u"--resume"_s : u"--out"_s) << p.dir;
        args << u"--threads"_s << QString::number(options.threads);
        Result<CliOptions> sweep = parseSweepArguments(args);
        if (!sweep)
            return fail(u"reproduce %1, %2: %3"_s.arg(paper.key, d.key, sweep.error()));
        p.sweep = std::move(*sweep);
        plan.push_back(std::move(p));
    }
    if (plan.empty())
        return fail(u"reproduce %1: no data set to run"_s.arg(paper.key));
    if (!QDir().mkpath(r.outDir))
        return fail(u"cannot create the folder %1"_s.arg(r.outDir));
    if (const QString problem = outputPathProblem(QDir(r.outDir).filePath(u"reproduction.json"_s));
        !problem.isEmpty())
        return fail(problem);

    for (const PlannedDataset& d : plan) {
        out << "== " << paper.key << " on " << d.info->paperName << ": facet-cli "
            << d.sweep.sweep.arguments.join(u' ') << " --out " << d.dir << Qt::endl;
        SingleProcessCommunicator alone; // reproduce runs in one process
        const int code = runSweep(d.sweep, out, err, stop, alone);
        if (code == kExitInterrupted) {
            err << "facet-cli: reproduce stopped; the same command continues it" << Qt::endl;
            return code;
        }
        if (code != kExitOk)
            return code;
    }

    ReproductionReport report;
    report.paper = &paper;
    report.arguments = r.arguments;
    report.options = optionsJson(r, dataDir, plan, options.threads);
    report.departures = reproduceDepartures(paper, r);
    for (const PlannedDataset& d : plan) {
        Result<ReproducedDataset> collected = collect(paper, d);
        if (!collected)
            return fail(collected.error());
        report.datasets.push_back(std::move(*collected));
    }
    const Result<QStringList> written = writeOutputs(r.outDir, report);
    if (!written)
        return fail(written.error());
    for (const ReproducedDataset& d : report.datasets) {
        const DatasetComparison& c = d.comparison;
        out << paper.key << ", " << c.paperName
            << (c.paperHasCells ? ": average, paper vs Facet (Δ):\n"
                                : ": average in Facet (the paper's table is lost):\n");
        for (const MethodComparison& m : c.methods) {
            out << "  " << m.paperName.leftJustified(10);
            for (const int mi : { 0, 1 }) {
                const Compared& a = m.average[std::size_t(mi)];
                out << (mi == 0 ? " AC " : "   NMI ");
                if (c.paperHasCells)
                    out << meanStdText(a.paperMean, std::nullopt, 2) << " vs "
                        << meanStdText(a.facetMean, std::nullopt, 2) << " ("
                        << differenceText(a.difference()) << ")";
                else
                    out << meanStdText(a.facetMean, std::nullopt, 2);
            }
            out << '\n';
        }
        for (const ClaimComparison& k : c.claims)
            if (k.claim.kind == u"gain")
                out << "  stated: " << k.claim.method << " over "
                    << (k.claim.over.isEmpty() ? u"the second best"_s : k.claim.over) << ", "
                    << k.claim.metric.toUpper() << " " << differenceText(k.claim.points)
                    << "; Facet: " << k.facetMethod << " over " << k.facetOver << " "
                    << differenceText(k.facetGain) << '\n';
    }
    out << "-> " << written->join(u", "_s) << '\n';
    out.flush();
    return kExitOk;
}

} // namespace facet::cli
