// SPDX-License-Identifier: GPL-3.0-or-later
#include "cli/reproduce_command.h"

#include "cli/reproduce_plan.h"
#include "cli/reproduce_sensitivity.h"
#include "cli/sweep_command.h"
#include "experiment/reproduction_report.h"
#include "reproduction_charts.h"
#include "util/atomic_write.h"

#include <QApplication>
#include <QDir>

namespace facet::cli {

using namespace Qt::StringLiterals;

namespace {

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

    if (r.sensitivity)
        return runReproduceSensitivity(paper, options, out, err, stop);

    // Every data file and every sweep command first: nothing runs when one is wrong.
    const Result<std::vector<PlannedDataset>> plan
        = planReproduction(paper, r, reproducePreset(paper, r), r.outDir, options.threads);
    if (!plan)
        return fail(plan.error());
    if (!QDir().mkpath(r.outDir))
        return fail(u"cannot create the folder %1"_s.arg(r.outDir));
    if (const QString problem = outputPathProblem(QDir(r.outDir).filePath(u"reproduction.json"_s));
        !problem.isEmpty())
        return fail(problem);
    if (const int code = runPlannedSweeps(paper, *plan, out, err, stop); code != kExitOk) {
        if (code == kExitInterrupted)
            err << "facet-cli: reproduce stopped; the same command continues it" << Qt::endl;
        return code;
    }

    ReproductionReport report;
    report.paper = &paper;
    report.arguments = r.arguments;
    report.options = reproduceOptionsJson(r, dataDir, *plan, options.threads);
    report.departures = reproduceDepartures(paper, r);
    for (const PlannedDataset& d : *plan) {
        Result<ReproducedDataset> collected = collectReproduced(paper, d, d.info->key);
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
