// SPDX-License-Identifier: GPL-3.0-or-later
#include "main_window.h"

#include "basis_gallery.h"
#include "cluster_view.h"
#include "control_panel.h"
#include "convergence_plot.h"
#include "data/dataset_source.h"
#include "data/image_render.h"
#include "data/mat_writer.h"
#include "dataset_inspector.h"
#include "experiment/run_report.h"
#include "experiment_view.h"
#include "jobs/solve_job.h"
#include "method_parameters.h"
#include "models/run_history_model.h"
#include "parameter_history.h"
#include "projection_view.h"
#include "recent_files_menu.h"
#include "reconstruction_view.h"
#include "representation_view.h"
#include "run_history_view.h"
#include "run_summary.h"
#include "session/session.h"
#include "util/atomic_write.h"

#include <QCloseEvent>
#include <QDir>
#include <QDockWidget>
#include <QDragEnterEvent>
#include <QDropEvent>
#include <QFileDialog>
#include <QFileInfo>
#include <QLabel>
#include <QMessageBox>
#include <QMimeData>
#include <QSettings>
#include <QStatusBar>
#include <QThread>
#include <QTimer>

#include <cmath>

namespace facet {

namespace {

// The first local file among the dragged URLs whose suffix is one of `suffixes`, or empty.
QString droppedFile(const QMimeData* mime, const QStringList& suffixes)
{
    if (!mime || !mime->hasUrls())
        return {};
    for (const QUrl& url : mime->urls())
        if (url.isLocalFile()
            && suffixes.contains(QFileInfo(url.toLocalFile()).suffix(), Qt::CaseInsensitive))
            return url.toLocalFile();
    return {};
}

QString droppedMatFile(const QMimeData* mime)
{
    return droppedFile(mime, { QStringLiteral("mat") });
}

// Images a new sample can come from (what image_decode.h reads).
QString droppedImageFile(const QMimeData* mime)
{
    return droppedFile(mime,
        { QStringLiteral("png"), QStringLiteral("jpg"), QStringLiteral("jpeg"),
            QStringLiteral("bmp"), QStringLiteral("pgm"), QStringLiteral("ppm"),
            QStringLiteral("gif"), QStringLiteral("tif"), QStringLiteral("tiff"),
            QStringLiteral("webp") });
}

} // namespace

MainWindow::MainWindow(QWidget* parent)
    : QMainWindow(parent)
    , m_solveThread(new QThread(this))
    , m_solveJob(new SolveJob)
    , m_loadJob(new DatasetOpenJob(this))
    , m_controls(new ControlPanel)
    , m_gallery(new BasisGallery)
    , m_plot(new ConvergencePlot)
    , m_clusters(new ClusterView)
    , m_inspector(new DatasetInspector)
    , m_experiment(new ExperimentView)
    , m_projection(new ProjectionView)
    , m_representation(new RepresentationView)
    , m_reconstruction(new ReconstructionView)
    , m_runs(new RunHistoryModel(this))
    , m_runsView(new RunHistoryView(m_runs))
    , m_datasetStatus(new QLabel)
    , m_jobStatus(new QLabel)
    , m_rerunTimer(new QTimer(this))
{
    setObjectName(QStringLiteral("mainWindow"));
    setWindowTitle(tr("Facet"));
    setAcceptDrops(true);

    m_solveThread->setObjectName(QStringLiteral("facet-solve"));
    m_solveJob->moveToThread(m_solveThread);
    connect(m_solveThread, &QThread::finished, m_solveJob, &QObject::deleteLater);
    connect(m_solveJob, &SolveJob::progress, this, &MainWindow::onProgress);
    connect(m_solveJob, &SolveJob::stageStarted, this, &MainWindow::onStage);
    connect(m_solveJob, &SolveJob::stageProgress, this, &MainWindow::onStageProgress);
    connect(m_solveJob, &SolveJob::finished, this, &MainWindow::onFinished);
    connect(m_solveJob, &SolveJob::failed, this, &MainWindow::onFailed);
    m_solveThread->start();

    connect(m_loadJob, &DatasetOpenJob::opened, this, &MainWindow::onDatasetLoaded);
    connect(m_loadJob, &DatasetOpenJob::failed, this, &MainWindow::onDatasetFailed);
    connect(m_inspector, &DatasetInspector::pixelOrderRequested, this, [this](PixelOrder order) {
        DatasetRequest request = m_request;
        request.mat.pixelOrder = order;
        openDataset(request);
    });
    connect(
        m_inspector, &DatasetInspector::noFacePolicyRequested, this, [this](NoFacePolicy policy) {
            DatasetRequest request = m_request;
            request.preprocess.noFace = policy;
            openDataset(request);
        });
    connect(m_controls, &ControlPanel::runRequested, this, &MainWindow::startRun);
    connect(m_controls, &ControlPanel::cancelRequested, this, &MainWindow::cancelRun);
    m_rerunTimer->setSingleShot(true);
    m_rerunTimer->setInterval(kAutoRerunDelayMs);
    connect(m_rerunTimer, &QTimer::timeout, this, &MainWindow::restartRun);
    connect(m_controls, &ControlPanel::optionsChanged, this, &MainWindow::onOptionsChanged);
    connect(m_experiment, &ExperimentView::trialRunRequested, this, &MainWindow::openTrialRun);
    connectRunHistory();
    // A sample picked in the clusters or the representation is shown reconstructed.
    const auto showSample = [this](int sample) {
        m_reconstruction->setSample(sample);
        m_reconstructionDock->show();
        m_reconstructionDock->raise();
    };
    connect(m_clusters, &ClusterView::sampleActivated, this, showSample);
    connect(m_representation, &RepresentationView::sampleActivated, this, showSample);
    connect(m_projection, &ProjectionView::failed, this,
        [this](const QString& message) { showError(tr("Could not project the image"), message); });

    setCentralWidget(m_gallery);
    createDocks();
    createMenus();
    m_jobStatus->setObjectName(QStringLiteral("jobStatus"));
    statusBar()->addPermanentWidget(m_jobStatus);
    statusBar()->addPermanentWidget(m_datasetStatus);
    statusBar()->showMessage(tr("Open a dataset (File menu, or drop a .mat file here)."));
    readSettings();
    // Undo starts from the options the user left last time, not from the built-in defaults.
    m_history->reset();
    updateActions();
}

MainWindow::~MainWindow()
{
    stopWorker();
}

bool MainWindow::isLoading() const
{
    return m_loadJob->isLoading();
}

bool MainWindow::isWorkerRunning() const
{
    return m_solveThread->isRunning();
}

void MainWindow::stopWorker()
{
    if (!m_solveThread->isRunning())
        return;
    // Answers still queued for this window are stale from here on.
    ++m_runId;
    m_running = false;
    m_solveJob->cancel();
    // The driver checks the stop token between iterations, so this returns after one iteration
    // (and the clustering of the factors it stopped with).
    stopJobThread(*m_solveThread);
}

void MainWindow::closeEvent(QCloseEvent* event)
{
    writeSettings();
    // A running experiment stops at close too, not only when the window is destroyed; its
    // finished cells stay in the view (and in an export) as after Cancel.
    m_experiment->cancel();
    stopWorker();
    updateActions();
    event->accept();
}

void MainWindow::dragEnterEvent(QDragEnterEvent* event)
{
    // A .mat file opens as the dataset; an image, once there is a basis, is projected onto it.
    if (!droppedMatFile(event->mimeData()).isEmpty()
        || (m_result && !droppedImageFile(event->mimeData()).isEmpty()))
        event->acceptProposedAction();
}

void MainWindow::dropEvent(QDropEvent* event)
{
    if (const QString mat = droppedMatFile(event->mimeData()); !mat.isEmpty()) {
        event->acceptProposedAction();
        openDataset(mat);
    } else if (const QString image = droppedImageFile(event->mimeData());
               !image.isEmpty() && m_result) {
        event->acceptProposedAction();
        projectImage(image);
    }
}

void MainWindow::projectImage(const QString& path)
{
    m_projectionDock->show();
    m_projectionDock->raise();
    m_projection->projectFile(path);
}

void MainWindow::clearResult()
{
    m_result.reset();
    m_resultData.reset();
    m_gallery->clear();
    m_plot->clear();
    m_clusters->clear();
    m_projection->clear();
    m_representation->clear();
    m_reconstruction->clear();
    m_controls->setResultSummary(tr("No run yet."));
    m_controls->resetProgress();
}

void MainWindow::startRun()
{
    if (m_running)
        return;
    submitRun();
}

void MainWindow::restartRun()
{
    m_rerunTimer->stop();
    submitRun();
}

void MainWindow::onOptionsChanged()
{
    if (m_controls->autoRerun() && m_dataset && m_solveThread->isRunning())
        m_rerunTimer->start(); // restarts the wait: a drag re-runs once it pauses
}

void MainWindow::submitRun()
{
    submitRun(m_controls->runOptions(), false);
}

std::shared_ptr<const Dataset> MainWindow::runData(const std::string& method)
{
    const SampleNormalization mode = m_controls->sampleNormalization();
    const MethodInfo* info = findMethod(method);
    const bool normalize = mode == SampleNormalization::L2
        || (mode == SampleNormalization::Auto && info && info->cfFamily);
    if (!normalize)
        return m_dataset;
    if (m_normalizedFrom != m_dataset.get() || !m_normalizedData) {
        // The routine facet-cli run uses, so the GUI and the CLI see the same bits. O(mn), done
        // once per dataset.
        auto normalized = std::make_shared<Dataset>(*m_dataset);
        prepareDataset(*normalized, PrepareOptions { false, true });
        m_normalizedData = std::move(normalized);
        m_normalizedFrom = m_dataset.get();
    }
    return m_normalizedData;
}

void MainWindow::submitRun(const RunOptions& options, bool singleInnerThread, bool asLoaded)
{
    // After close the worker thread is gone (and its job deleted); nothing can run any more.
    if (!m_solveThread->isRunning())
        return;
    if (!m_dataset) {
        statusBar()->showMessage(tr("Load a dataset first."));
        return;
    }
    m_runOptions = options;
    // k-means finds one cluster per class of a labelled set, whatever the rank says (facet-cli
    // run does the same); its run records that k, so the titles, the run's name and the runs
    // table say how many centroids the gallery shows.
    if (m_runOptions.method == "kmeans")
        m_runOptions.params.rank = runClusters(m_runOptions, m_dataset->labels);
    m_running = true;
    m_stage.clear();
    const quint64 runId = ++m_runId;
    m_runClock.start();
    // A continued run's curve goes on from the one it continues.
    m_plot->beginRun(
        tr("%1, k = %2").arg(methodTitle(m_runOptions.method)).arg(m_runOptions.params.rank),
        m_runOptions.driver.startHistory,
        stopsByIterationLimit(QString::fromStdString(m_runOptions.method)));
    if (stopsByIterationLimit(QString::fromStdString(m_runOptions.method)))
        m_controls->setProgress(0, m_runOptions.driver.maxIter);
    else
        m_controls->setBusy(); // no iteration reports to count
    updateJobStatus(0);
    statusBar()->showMessage(tr("Running %1 with k = %2...")
                                 .arg(methodTitle(m_runOptions.method))
                                 .arg(m_runOptions.params.rank));
    updateActions();
    m_runData = asLoaded ? m_dataset : runData(m_runOptions.method);
    m_solveJob->submit({ runId, m_runData, m_runOptions, singleInnerThread });
    Q_EMIT runStarted(runId);
}

bool MainWindow::canContinue() const
{
    if (!m_result || !m_resultData)
        return false;
    const std::vector<QString> names = warmStartFactors(m_resultOptions.method);
    const Factorization& f = m_result->factorization;
    return warmStartContinues(m_resultOptions.method) && f.V.rows() == m_resultData->samples()
        && (names[0] == u"U" ? f.basis.size() > 0 : f.W.size() > 0);
}

void MainWindow::continueRun()
{
    if (m_running || !canContinue())
        return;
    // The same samples as the run's: the Samples setting may have changed since.
    if (runData(m_resultOptions.method) != m_resultData) {
        showError(tr("Cannot continue the run"),
            tr("The Samples setting has changed since this run; set it back to continue it."));
        return;
    }
    const Factorization& f = m_result->factorization;
    const bool cfFamily = f.W.size() > 0;
    RunOptions options = m_resultOptions;
    options.driver.maxIter = m_controls->runOptions().driver.maxIter;
    options.driver.replicates = 1; // the given factors replace the start (runAndCluster)
    options.driver.start = std::make_shared<const std::vector<Matrix>>(
        std::vector<Matrix> { cfFamily ? f.W : f.basis, f.V });
    options.driver.startHistory = f.history; // it counts on from this run's iterations
    options.driver.startSource = tr("the factors of a %1 run (k = %2) after %3 iterations")
                                     .arg(QString::fromStdString(options.method))
                                     .arg(options.params.rank)
                                     .arg(f.iterations)
                                     .toStdString();
    submitRun(options, false);
    statusBar()->showMessage(tr("Continuing %1 from its factors for up to %2 more iterations...")
                                 .arg(methodTitle(options.method))
                                 .arg(options.driver.maxIter));
}

int MainWindow::newIterations(int iteration) const
{
    return iteration - int(m_runOptions.driver.startHistory.size());
}

void MainWindow::cancelRun()
{
    if (!m_running)
        return;
    m_solveJob->cancel();
    statusBar()->showMessage(tr("Cancelling..."));
}

void MainWindow::onProgress(quint64 runId, const QList<IterationReport>& reports)
{
    if (runId != m_runId || !m_running || reports.isEmpty())
        return;
    m_plot->appendReports(reports);
    m_controls->setProgress(newIterations(reports.back().iteration), m_runOptions.driver.maxIter);
    updateJobStatus(newIterations(reports.back().iteration));
}

void MainWindow::onStage(quint64 runId, const QString& stage)
{
    if (runId != m_runId || !m_running)
        return;
    m_stage = stage;
    m_stageFraction = -1;
    if (!stage.isEmpty()) {
        m_controls->setMessage(stageBarText()); // the step's name is in the status bar
    } else {
        m_runClock.start(); // the ETA counts the iterations, not the set-up before them
        if (stopsByIterationLimit(QString::fromStdString(m_runOptions.method)))
            m_controls->setProgress(0, m_runOptions.driver.maxIter);
        else
            m_controls->setBusy();
    }
    updateJobStatus(0);
}

void MainWindow::onStageProgress(quint64 runId, double fraction)
{
    if (runId != m_runId || !m_running || m_stage.isEmpty())
        return;
    m_stageFraction = fraction;
    m_controls->setStageProgress(stageBarText(), fraction);
    updateJobStatus(0);
}

QString MainWindow::stageBarText() const
{
    // The baselines' stage is their whole run; the others' is the set-up before the iterations.
    if (m_runOptions.method == "kmeans")
        return tr("k-means");
    if (m_runOptions.method == "pca")
        return tr("PCA");
    return tr("setting up");
}

void MainWindow::updateJobStatus(int iteration)
{
    if (!m_running) {
        m_jobStatus->clear();
        return;
    }
    const QString job
        = tr("%1, k = %2").arg(methodTitle(m_runOptions.method)).arg(m_runOptions.params.rank);
    const int limit = m_runOptions.driver.maxIter;
    if (iteration <= 0 && !m_stage.isEmpty()) {
        m_jobStatus->setText(m_stageFraction >= 0
                ? tr("%1: %2, %3 %...").arg(job, m_stage).arg(int(100 * m_stageFraction))
                : tr("%1: %2...").arg(job, m_stage));
        return;
    }
    if (iteration <= 0) {
        m_jobStatus->setText(stopsByIterationLimit(QString::fromStdString(m_runOptions.method))
                ? tr("%1: starting").arg(job)
                : tr("%1: running").arg(job));
        return;
    }
    // Time per iteration so far, and the rest at that pace if the run goes to its limit (it may
    // converge earlier: the ETA is an upper bound).
    const double secondsPerIteration = m_runClock.elapsed() / 1000.0 / iteration;
    const int remaining = int(std::lround(secondsPerIteration * std::max(0, limit - iteration)));
    m_jobStatus->setText(tr("%1: iteration %2 / %3, %4 ms/it, ETA %5:%6")
                             .arg(job)
                             .arg(iteration)
                             .arg(limit)
                             .arg(secondsPerIteration * 1000.0, 0, 'f', 1)
                             .arg(remaining / 60)
                             .arg(remaining % 60, 2, 10, QLatin1Char('0')));
}

void MainWindow::onFinished(quint64 runId, const RunResult& result)
{
    if (runId != m_runId || !m_running)
        return;
    m_running = false;
    if (!result.cancelledDuring.empty()) {
        const QString stage = QString::fromStdString(result.cancelledDuring);
        showLastGoodHistory();
        m_controls->setMessage(tr("cancelled in set-up"));
        updateJobStatus(0);
        statusBar()->showMessage(m_result
                ? tr("Cancelled during %1, before the first iteration; the last result is kept.")
                      .arg(stage)
                : tr("Cancelled during %1, before the first iteration.").arg(stage));
        updateActions();
        Q_EMIT runCancelledInSetup(stage);
        return;
    }
    showResult(result, m_runOptions, m_runData);
    m_runs->addRun(makeRunRecord(m_runOptions, result, *m_runData, {}));
    if (stopsByIterationLimit(QString::fromStdString(m_runOptions.method)))
        m_controls->setProgress(
            newIterations(result.factorization.iterations), m_runOptions.driver.maxIter);
    else if (m_runOptions.method == "pca")
        m_controls->setDone(tr("done: one solve"));
    else if (result.factorization.stopReason == StopReason::Cancelled) // k-means, between rounds
        m_controls->setDone(tr("cancelled: round %1").arg(result.factorization.iterations));
    else
        m_controls->setDone(result.factorization.iterations == 1
                ? tr("done: 1 round")
                : tr("done: %1 rounds").arg(result.factorization.iterations));
    updateJobStatus(0);
    statusBar()->showMessage(runStatusLine(result, m_runOptions));
    updateActions();
    Q_EMIT runFinished(result);
}

void MainWindow::showResult(const RunResult& result, const RunOptions& options,
    const std::shared_ptr<const Dataset>& runData)
{
    m_result = result;
    m_resultData = runData;
    m_resultOptions = options;
    const Factorization& f = result.factorization;
    m_gallery->setFactors(f.basis, f.V, m_dataset, m_dataset->height, m_dataset->width);
    m_plot->showHistory(
        f, tr("%1, k = %2").arg(methodTitle(options.method)).arg(options.params.rank));
    m_clusters->setResult(*m_dataset, result);
    m_representation->setResult(*m_dataset, result);
    m_reconstruction->setResult(*runData, result); // the data the factors approximate
    // New images are prepared as the run's data was.
    m_projection->setContext(
        runData, resultRequest(), std::make_shared<const RunResult>(result), options);
    m_clustersDock->raise(); // the dataset panel shares its place; the new result comes first
    m_controls->setResultSummary(runSummaryHtml(result, options));
}

void MainWindow::onFailed(quint64 runId, const QString& message)
{
    if (runId != m_runId || !m_running)
        return;
    m_running = false;
    showLastGoodHistory(); // the live plot showed the failed run
    m_controls->resetProgress();
    updateJobStatus(0);
    updateActions();
    showError(tr("The run failed"), message);
    Q_EMIT runFailed(message);
}

void MainWindow::showLastGoodHistory()
{
    if (m_result)
        m_plot->showHistory(m_result->factorization,
            tr("%1, k = %2 (last good run)")
                .arg(methodTitle(m_resultOptions.method))
                .arg(m_resultOptions.params.rank));
    else
        m_plot->clear();
}

void MainWindow::showError(const QString& title, const QString& message)
{
    statusBar()->showMessage(tr("%1: %2").arg(title, message));
    if (m_errorDialogs)
        QMessageBox::warning(this, title, message);
}

void MainWindow::exportBasisDialog()
{
    if (!m_result)
        return;
    const QString suggestion
        = tr("%1_%2_k%3_basis.png")
              .arg(m_resultData->name, QString::fromStdString(m_resultOptions.method))
              .arg(m_resultOptions.params.rank);
    const QString path = exportPath(
        tr("Export basis image"), suggestion, tr("PNG images (*.png)"), QStringLiteral("png"));
    if (!path.isEmpty())
        exportBasis(path);
}

bool MainWindow::exportBasis(const QString& path)
{
    if (!m_result || !m_resultData) {
        showError(tr("Nothing to export"), tr("Run a factorization first."));
        return false;
    }
    const Matrix& basis = m_result->factorization.basis;
    const int columns = std::max(1, int(std::ceil(std::sqrt(double(basis.cols())))));
    QImage mosaic;
    try {
        mosaic = imageMosaic(basis, m_resultData->height, m_resultData->width, columns, 4, 2,
            m_gallery->exportScaling());
    } catch (const std::exception& error) {
        showError(tr("Could not export the basis"), QString::fromStdString(error.what()));
        return false;
    }
    if (mosaic.isNull() || !mosaic.save(path, "PNG")) {
        showError(tr("Could not export the basis"), tr("Writing %1 failed.").arg(path));
        return false;
    }
    statusBar()->showMessage(tr("Saved the basis images to %1.").arg(path));
    return true;
}

DatasetRequest MainWindow::resultRequest() const
{
    // The samples were scaled to unit norm when the set was loaded that way, or when the run
    // took the normalized copy (runData: the CF family under Auto, or L2 for every method).
    DatasetRequest request = m_request;
    request.prepare.l2Normalize = m_request.prepare.l2Normalize || m_resultData != m_dataset;
    return request;
}

QString MainWindow::exportPath(
    const QString& title, const QString& suggestion, const QString& filter, const QString& suffix)
{
    QSettings settings;
    const QString folder = settings.value(QStringLiteral("export/folder")).toString();
    QString path = QFileDialog::getSaveFileName(
        this, title, folder.isEmpty() ? suggestion : QDir(folder).filePath(suggestion), filter);
    if (path.isEmpty())
        return path;
    if (!path.endsWith(u'.' + suffix, Qt::CaseInsensitive))
        path += u'.' + suffix;
    settings.setValue(QStringLiteral("export/folder"), QFileInfo(path).absolutePath());
    return path;
}

void MainWindow::exportFactorsDialog()
{
    if (!m_result || !m_resultData)
        return;
    const QString path = exportPath(tr("Export factors"),
        tr("%1_%2_k%3_factors.mat")
            .arg(m_resultData->name, QString::fromStdString(m_resultOptions.method))
            .arg(m_resultOptions.params.rank),
        tr("MATLAB files (*.mat)"), QStringLiteral("mat"));
    if (!path.isEmpty())
        exportFactors(path);
}

bool MainWindow::exportFactors(const QString& path)
{
    if (!m_result || !m_resultData) {
        showError(tr("Nothing to export"), tr("Run a factorization first."));
        return false;
    }
    if (const QString problem = overwritesDatasetProblem(path, m_request.spec);
        !problem.isEmpty()) {
        showError(tr("Could not export the factors"), problem);
        return false;
    }
    QJsonObject report = runReport(*m_resultData, resultRequest(), m_resultOptions, *m_result, {});
    // The explorer does not time loading per run; only the run's own phases are recorded.
    QJsonObject timings = report.value(QStringLiteral("timings")).toObject();
    timings.remove(QStringLiteral("load_s"));
    timings.remove(QStringLiteral("prepare_s"));
    report.insert(QStringLiteral("timings"), timings);
    if (const Result<bool> written = writeFactorsMat(path, *m_resultData, *m_result, report);
        !written) {
        showError(tr("Could not export the factors"), written.error());
        return false;
    }
    statusBar()->showMessage(tr("Saved the factors to %1.").arg(path));
    return true;
}

void MainWindow::exportDatasetDialog()
{
    if (!m_dataset)
        return;
    const QString path
        = exportPath(tr("Export prepared dataset"), tr("%1_prepared.mat").arg(m_dataset->name),
            tr("MATLAB files (*.mat)"), QStringLiteral("mat"));
    if (!path.isEmpty())
        exportDataset(path);
}

bool MainWindow::exportDataset(const QString& path)
{
    if (!m_dataset) {
        showError(tr("Nothing to export"), tr("Open a dataset first."));
        return false;
    }
    if (const QString problem = overwritesDatasetProblem(path, m_request.spec);
        !problem.isEmpty()) {
        showError(tr("Could not export the dataset"), problem);
        return false;
    }
    if (const Result<bool> written = writeDatasetMat(path, *m_dataset); !written) {
        showError(tr("Could not export the dataset"), written.error());
        return false;
    }
    statusBar()->showMessage(tr("Saved %1 (%2 samples) to %3.")
                                 .arg(m_dataset->name)
                                 .arg(m_dataset->samples())
                                 .arg(path));
    return true;
}

void MainWindow::updateActions()
{
    const bool canRun = m_dataset && m_solveThread->isRunning();
    m_controls->setState(m_running, canRun);
    m_runAction->setEnabled(!m_running && canRun);
    m_cancelAction->setEnabled(m_running);
    m_exportAction->setEnabled(m_result.has_value());
    m_exportFactorsAction->setEnabled(m_result.has_value());
    m_continueAction->setEnabled(!m_running && canContinue());
    m_exportDatasetAction->setEnabled(m_dataset != nullptr);
    m_projectAction->setEnabled(m_result.has_value());
    m_preprocessAction->setEnabled(m_dataset != nullptr);
}

} // namespace facet
