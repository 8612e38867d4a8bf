// SPDX-License-Identifier: GPL-3.0-or-later
#include "cli/reproduce_sensitivity.h"

#include "cli/reproduce_command.h"
#include "cli/reproduce_plan.h"
#include "cli/sweep_command.h"
#include "experiment/sensitivity.h"
#include "util/atomic_write.h"

#include <QDir>

namespace facet::cli {

using namespace Qt::StringLiterals;

int runReproduceSensitivity(const PaperRecord& paper, const CliOptions& options, QTextStream& out,
    QTextStream& err, std::stop_token stop)
{
    const ReproduceCliOptions& r = options.reproduce;
    const auto fail = [&](const QString& message) {
        err << "facet-cli: " << message << Qt::endl;
        return kExitFailure;
    };
    SensitivityReport report;
    report.paper = &paper;
    report.arguments = r.arguments;
    report.departures = reproduceDepartures(paper, r);
    report.plan = planSensitivity(reproducePreset(paper, r),
        r.fixedIterations.empty() ? kDefaultFixedIterations : r.fixedIterations);

    // Every row's sweeps first: a data file missing or a row's command refused stops it here.
    std::vector<std::vector<PlannedDataset>> plans;
    for (const SensitivityRow& row : report.plan.rows) {
        Result<std::vector<PlannedDataset>> plan = planReproduction(
            paper, r, row.preset, QDir(r.outDir).filePath(row.id), options.threads);
        if (!plan)
            return fail(u"%1 (row %2)"_s.arg(plan.error(), rowLabel(row)));
        plans.push_back(std::move(*plan));
    }
    if (!QDir().mkpath(r.outDir))
        return fail(u"cannot create the folder %1"_s.arg(r.outDir));
    if (const QString problem = outputPathProblem(QDir(r.outDir).filePath(u"sensitivity.json"_s));
        !problem.isEmpty())
        return fail(problem);

    const std::size_t count = report.plan.rows.size();
    for (std::size_t i = 0; i < count; ++i) {
        out << "=== row " << i + 1 << " of " << count << ": " << rowLabel(report.plan.rows[i])
            << Qt::endl;
        if (const int code = runPlannedSweeps(paper, plans[i], out, err, stop); code != kExitOk) {
            if (code == kExitInterrupted)
                err << "facet-cli: reproduce --sensitivity stopped; the same command continues "
                       "it"
                    << Qt::endl;
            return code;
        }
    }

    for (std::size_t i = 0; i < count; ++i) {
        SensitivityRow& row = report.plan.rows[i];
        for (const PlannedDataset& d : plans[i]) {
            Result<ReproducedDataset> collected
                = collectReproduced(paper, d, row.id + u'/' + d.info->key);
            if (!collected)
                return fail(collected.error());
            row.datasets.push_back(std::move(*collected));
        }
    }
    report.options = reproduceOptionsJson(r, reproduceDataDir(r), plans.front(), options.threads);
    report.gaps = sensitivityGaps(report.plan.rows);

    const QDir dir(r.outDir);
    QStringList written;
    for (const auto& [name, content] :
        { std::pair { u"sensitivity.md"_s, sensitivityMarkdown(report) },
            std::pair { u"sensitivity.csv"_s, sensitivityCsv(report) } }) {
        if (const Result<bool> ok = writeBytesFile(dir.filePath(name), content.toUtf8()); !ok)
            return fail(ok.error());
        written << dir.filePath(name);
    }
    if (const Result<bool> ok
        = writeJsonFile(dir.filePath(u"sensitivity.json"_s), sensitivityJson(report));
        !ok)
        return fail(ok.error());
    written << dir.filePath(u"sensitivity.json"_s);

    out << paper.key << ": " << count << " rows, " << report.gaps.size() << " gaps over "
        << kGapPoints << " points\n";
    for (const SensitivityGap& gap : report.gaps)
        out << "  " << gapStatement(gap, report.plan.rows) << '\n';
    out << "-> " << written.join(u", "_s) << '\n';
    out.flush();
    return kExitOk;
}

} // namespace facet::cli
