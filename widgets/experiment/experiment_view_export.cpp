// SPDX-License-Identifier: GPL-3.0-or-later
// The experiment view's Export: the finished cells written as facet-cli sweep writes them
// (results.json, results.csv, table.md, summary.csv, summary.json and the AC/NMI plots), with
// the command line that lets `facet-cli sweep --resume` finish a stopped experiment.
#include "experiment/experiment_view.h"

#include "data/dataset_request_json.h"
#include "experiment/export_folder_dialog.h"
#include "experiment/sweep_arguments.h"
#include "experiment/sweep_json.h"
#include "experiment/sweep_table.h"
#include "sweep_charts.h"
#include "util/atomic_write.h"

#include <QDir>
#include <QFileInfo>
#include <QMessageBox>

namespace facet {

using namespace Qt::StringLiterals;

namespace {

bool writeText(const QString& path, const QString& text, QString* error)
{
    const Result<bool> written = writeBytesFile(path, text.toUtf8());
    if (!written && error)
        *error = written.error();
    return bool(written);
}

} // namespace

void ExperimentView::exportDialog()
{
    ExportFolderDialog dialog(this, tr("Export experiment to folder"));
    if (dialog.exec() != QDialog::Accepted || dialog.folder().isEmpty())
        return;
    const QString dir = dialog.folder();
    QString error;
    if (exportTo(dir, &error))
        showStatus(tr("Exported to %1.").arg(QDir::toNativeSeparators(dir).toHtmlEscaped()));
    else
        QMessageBox::warning(this, tr("Export failed"), error);
}

bool ExperimentView::exportTo(const QString& path, QString* error)
{
    if (m_trials.empty() || !m_runDataset) {
        if (error)
            *error = tr("No finished cell to export.");
        return false;
    }
    const QDir dir(path);
    if (!dir.exists() && !QDir().mkpath(path)) {
        // mkpath says no more; name the part of the path that is in the way, if one is.
        QString blocker = QDir::cleanPath(path);
        while (!blocker.isEmpty() && !QFileInfo::exists(blocker) && blocker != u"/"_s)
            blocker = QFileInfo(blocker).path();
        if (error)
            *error = QFileInfo(blocker).isDir()
                ? tr("Cannot create the folder %1: %2 is not writable.")
                      .arg(QDir::toNativeSeparators(path), QDir::toNativeSeparators(blocker))
                : tr("Cannot create the folder %1: %2 is a file, not a folder.")
                      .arg(QDir::toNativeSeparators(path), QDir::toNativeSeparators(blocker));
        return false;
    }
    const Dataset& runData = *m_runDataset;
    SweepFile file;
    file.options = experimentOptionsToJson(m_options, SampleNormalization::Auto);
    file.dataset = sweepDatasetToJson(datasetRequestToJson(m_runRequest), runData);
    file.complete = int(m_trials.size()) == m_cellsPlanned;
    // The equivalent command line, so `facet-cli sweep --resume` can finish a GUI experiment.
    file.arguments = sweepArguments(m_options, m_runRequest);
    file.trials = m_trials;
    sortTrials(file.trials, m_options);
    const Result<bool> json = writeJsonFile(dir.filePath(u"results.json"_s),
        sweepFileToJson(file, m_options, runData.classNames, m_cellsPlanned));
    if (!json) {
        if (error)
            *error = json.error();
        return false;
    }
    if (!writeText(dir.filePath(u"results.csv"_s),
            resultsCsv(file.trials, m_options, runData.classNames), error))
        return false;
    const SweepSummary summary = summarize(m_options, file.trials);
    const TableContext context { runData.name, int(runData.samples()), runData.classCount(),
        m_cellsPlanned, int(file.trials.size()), selectionLabel(m_options) };
    if (!writeText(dir.filePath(u"table.md"_s),
            markdownTable(summary, m_options, file.trials, context), error))
        return false;
    if (!writeText(dir.filePath(u"summary.csv"_s), summaryCsv(summary, m_options), error))
        return false;
    if (const Result<bool> written
        = writeJsonFile(dir.filePath(u"summary.json"_s), summaryJson(summary, m_options, context));
        !written) {
        if (error)
            *error = written.error();
        return false;
    }
    for (const auto& [metric, name] :
        { std::pair { Metric::Accuracy, u"ac"_s }, std::pair { Metric::Nmi, u"nmi"_s } }) {
        const Result<QStringList> files = plots::saveLineChart(
            plots::sweepChart(summary, m_options, metric, runData.name), dir.filePath(name));
        if (!files) {
            if (error)
                *error = files.error();
            return false;
        }
    }
    return true;
}

} // namespace facet
