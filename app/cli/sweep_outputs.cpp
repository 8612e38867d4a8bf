// SPDX-License-Identifier: GPL-3.0-or-later
#include "cli/sweep_outputs.h"

#include "experiment/sweep_table.h"
#include "sweep_charts.h"
#include "util/atomic_write.h"

#include <QApplication>
#include <QDir>

#include <algorithm>

namespace facet::cli {

using namespace Qt::StringLiterals;

namespace {

Result<bool> writeText(const QString& path, const QString& text)
{
    return writeBytesFile(path, text.toUtf8());
}

} // namespace

QString SweepState::resultsPath() const
{
    return QDir(dir).filePath(u"results.json"_s);
}

Result<bool> writeSweepResults(const SweepState& state)
{
    return writeJsonFile(state.resultsPath(),
        sweepFileToJson(state.file, state.options, state.classNames, state.cellsPlanned));
}

Result<QStringList> writeSweepOutputs(const SweepState& state)
{
    const QDir dir(state.dir);
    QStringList written;
    if (const Result<bool> ok = writeSweepResults(state); !ok)
        return Error { ok.error() };
    written << state.resultsPath();

    const QString csv = dir.filePath(u"results.csv"_s);
    if (const Result<bool> ok
        = writeText(csv, resultsCsv(state.file.trials, state.options, state.classNames));
        !ok)
        return Error { ok.error() };
    written << csv;

    const SweepSummary summary = summarize(state.options, state.file.trials);
    TableContext context { state.datasetName, state.samples, int(state.classNames.size()),
        state.cellsPlanned, int(state.file.trials.size()), selectionLabel(state.options) };
    const QString table = dir.filePath(u"table.md"_s);
    if (const Result<bool> ok = writeText(table,
            markdownTable(summary, state.options, state.file.trials, context, state.compare));
        !ok)
        return Error { ok.error() };
    written << table;
    const QString summaryCsvPath = dir.filePath(u"summary.csv"_s);
    if (const Result<bool> ok = writeText(summaryCsvPath, summaryCsv(summary, state.options)); !ok)
        return Error { ok.error() };
    written << summaryCsvPath;
    const QString summaryJsonPath = dir.filePath(u"summary.json"_s);
    if (const Result<bool> ok
        = writeJsonFile(summaryJsonPath, summaryJson(summary, state.options, context));
        !ok)
        return Error { ok.error() };
    written << summaryJsonPath;

    if (!qobject_cast<QApplication*>(QCoreApplication::instance()))
        return written; // no QApplication (an in-process caller): tables only
    for (const auto& [metric, name] :
        { std::pair { Metric::Accuracy, u"ac"_s }, std::pair { Metric::Nmi, u"nmi"_s } }) {
        const plots::LineChart chart
            = plots::sweepChart(summary, state.options, metric, state.datasetName);
        const Result<QStringList> files = plots::saveLineChart(chart, dir.filePath(name));
        if (!files)
            return Error { files.error() };
        written += *files;
    }
    return written;
}

QStringList sweepAverageLines(const SweepState& state)
{
    const SweepSummary summary = summarize(state.options, state.file.trials);
    QStringList lines;
    const std::vector<int> bestAc = summary.best(Metric::Accuracy, -1);
    qsizetype width = 0;
    for (const SeriesKey& key : summary.series)
        width = std::max(width, seriesLabel(key, state.options).size());
    for (std::size_t k = 0; k < summary.series.size(); ++k) {
        const MetricStats& avg = summary.average[k];
        const bool best = std::find(bestAc.begin(), bestAc.end(), int(k)) != bestAc.end();
        lines << u"  %1  AC %2%  NMI %3%%4"_s.arg(
            seriesLabel(summary.series[k], state.options).leftJustified(width),
            QString::number(100 * avg.ac.mean, 'f', 1), QString::number(100 * avg.nmi.mean, 'f', 1),
            best ? u"  (best AC)"_s : QString());
    }
    return lines;
}

} // namespace facet::cli
