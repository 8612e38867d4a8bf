// SPDX-License-Identifier: GPL-3.0-or-later
// How the main window opens datasets: the file and folder dialogs, the preprocessing dialog, and
// the answers of the loading worker.
#include "main_window/main_window.h"

#include "experiment/experiment_view.h"

#include "controls/control_panel.h"
#include "dataset/dataset_inspector.h"
#include "dataset/preprocess_dialog.h"
#include "jobs/solve_job.h"
#include "main_window/recent_files_menu.h"

#include <QDockWidget>
#include <QFileDialog>
#include <QFileInfo>
#include <QLabel>
#include <QProgressBar>
#include <QStatusBar>
#include <QTimer>
#include <QToolButton>

#include <algorithm>
#include <set>
#include <utility>

namespace facet {

namespace {

bool isBuiltin(const QString& spec)
{
    return spec.startsWith(QStringLiteral("builtin:"));
}

// Image folders and lists are decoded files whose size and faces the user chooses.
bool takesImageSteps(const QString& spec)
{
    const DatasetKind kind = datasetKind(spec);
    return kind == DatasetKind::ImageFolder || kind == DatasetKind::ImageList;
}

QString startFolder(const QStringList& recent)
{
    return recent.isEmpty() ? QString() : QFileInfo(recent.front()).absolutePath();
}

} // namespace

void MainWindow::openDatasetDialog()
{
    const QString path
        = QFileDialog::getOpenFileName(this, tr("Open dataset"), startFolder(m_recent->files()),
            tr("Datasets (*.mat *.csv *.tsv);;MATLAB data (*.mat);;Image lists (*.csv *.tsv);;All "
               "files (*)"));
    if (path.isEmpty())
        return;
    if (takesImageSteps(path))
        showPreprocessing(requestFor(path));
    else
        openDataset(path);
}

void MainWindow::openFolderDialog()
{
    const QString folder = QFileDialog::getExistingDirectory(
        this, tr("Open image folder (one subfolder per class)"), startFolder(m_recent->files()));
    if (!folder.isEmpty())
        showPreprocessing(requestFor(folder));
}

PreprocessDialog* MainWindow::showPreprocessing(const DatasetRequest& request)
{
    auto* dialog = new PreprocessDialog(request, this);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    connect(dialog, &QDialog::accepted, this, [this, dialog] {
        const DatasetRequest chosen = dialog->request();
        PreprocessDialog::rememberRequest(chosen);
        openDataset(chosen);
    });
    dialog->open();
    return dialog;
}

DatasetRequest MainWindow::requestFor(const QString& spec) const
{
    if (takesImageSteps(spec))
        return PreprocessDialog::lastUsedRequest(spec);
    DatasetRequest request;
    request.spec = spec;
    return request;
}

void MainWindow::openDataset(const QString& spec)
{
    openDataset(requestFor(spec));
}

void MainWindow::openDataset(const DatasetRequest& request)
{
    m_loadJob->open(request);
    statusBar()->showMessage(tr("Loading %1...").arg(request.spec));
    showLoadProgress(request.preprocess.detectFaces ? tr("Detecting faces...") : tr("Loading..."));
}

void MainWindow::showLoadProgress(const QString& busyText)
{
    m_loadProgress->setRange(0, 0);
    m_loadProgress->setFormat(busyText);
    m_loadProgress->setToolTip(busyText);
    m_loadProgress->show();
    m_cancelLoad->show();
}

void MainWindow::onLoadProgress(quint64, int done, int total)
{
    if (!m_loadJob->isLoading())
        return;
    m_loadProgress->setRange(0, std::max(1, total));
    m_loadProgress->setValue(done);
    const QString text = tr("Detecting faces: %1 of %2").arg(done).arg(total);
    m_loadProgress->setFormat(text);
    m_loadProgress->setToolTip(text);
}

void MainWindow::hideLoadProgress()
{
    m_loadProgress->hide();
    m_cancelLoad->hide();
}

void MainWindow::onDatasetCancelled(quint64)
{
    hideLoadProgress();
    m_inspector->revertChoices();
    m_pendingShownRunId = 0;
    statusBar()->showMessage(m_dataset
            ? tr("Loading cancelled; %1 stays loaded.").arg(m_dataset->name)
            : tr("Loading cancelled."));
    Q_EMIT datasetLoadCancelled();
}

void MainWindow::onDatasetLoaded(quint64, const OpenedDataset& opened)
{
    hideLoadProgress();
    adoptDataset(opened);
    // Loaded from its request (not a trial's subset): a session can open it again.
    rememberDataset({ m_request, m_dataset->name, m_datasetIdentity.sha256 });
    m_experiment->setDataset(m_dataset, m_request);
    m_rankSurvey->setDataset(m_dataset, m_datasetIdentity);
    if (!isBuiltin(m_dataset->source))
        m_recent->add(m_dataset->source);
    if (opened.noFace.isEmpty())
        statusBar()->showMessage(
            tr("Loaded %1. Press Run (Ctrl+R) to factorize.").arg(m_dataset->name));
    else
        statusBar()->showMessage(tr("Loaded %1: no face found in %n image(s); the Dataset panel "
                                    "lists them.",
            nullptr, int(opened.noFace.size()))
                                     .arg(m_dataset->name));
    if (const int shown = std::exchange(m_pendingShownRunId, 0); shown > 0)
        showRun(shown); // a session's run on screen at save time
    Q_EMIT datasetLoaded(m_dataset->name);
}

void MainWindow::openTrialRun(const TrialRun& run)
{
    // The experiment keeps its own dataset and results: only the explorer switches to the
    // trial's classes.
    adoptDataset({ run.request.spec.isEmpty() ? m_request : run.request, run.data, {}, {} });
    RunOptions options = run.options;
    m_controls->setMethod(QString::fromStdString(options.method));
    m_controls->setRank(options.params.rank);
    m_controls->setMaxIterations(options.driver.maxIter);
    m_controls->setTolerance(options.driver.tol);
    m_controls->setStationarityTolerance(options.driver.stationarityTol);
    submitRun(options, true, true);
    m_rerunTimer->stop(); // the panel's changes above are not a request for another run
    statusBar()->showMessage(tr("Running %1 exactly as the experiment did (its seed %2, one "
                                "inner thread).")
                                 .arg(run.title)
                                 .arg(options.driver.seed));
}

void MainWindow::adoptDataset(const OpenedDataset& opened)
{
    if (m_running) {
        // The run belongs to the previous dataset; its answers are stale now.
        m_solveJob->cancel();
        ++m_runId;
        m_running = false;
    }
    m_dataset = opened.data;
    m_request = opened.request;
    // Hashed on the loader's worker; an experiment's trial data (a class subset, small) here.
    m_datasetIdentity = datasetIdentity(
        *m_dataset, m_request, opened.sha256.isEmpty() ? dataSha256(m_dataset->X) : opened.sha256);
    m_normalizedData.reset(); // made again for the new data when a run needs it
    m_normalizedFrom = nullptr;
    clearResult();
    m_inspector->setDataset(opened);
    m_datasetDock->raise();
    m_controls->setDatasetSummary(describe(*m_dataset), m_dataset->notes.join(QLatin1Char('\n')));
    const std::set<int> classes(m_dataset->labels.begin(), m_dataset->labels.end());
    m_controls->setLabelsAvailable(m_dataset->hasLabels(), m_dataset->name, int(classes.size()));
    m_datasetStatus->setText(m_dataset->name);
    setWindowTitle(tr("%1 — Facet").arg(m_dataset->name));
    updateActions();
}

void MainWindow::onDatasetFailed(quint64, const DatasetRequest& request, const QString& message)
{
    hideLoadProgress();
    const QString& spec = request.spec;
    if (!isBuiltin(spec) && !QFileInfo::exists(spec))
        m_recent->remove(spec);
    m_inspector->revertChoices();
    // The loaders' messages begin with the file; the title names it only when they do not.
    const QString name = QFileInfo(spec).fileName().isEmpty() ? spec : QFileInfo(spec).fileName();
    showError(message.contains(name) ? tr("Could not open the dataset")
                                     : tr("Could not open %1").arg(spec),
        message);
    m_pendingShownRunId = 0; // a session's shown run needs the data that failed
    Q_EMIT datasetLoadFailed(message);
}

} // namespace facet
