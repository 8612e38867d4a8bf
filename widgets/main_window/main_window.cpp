// SPDX-License-Identifier: GPL-3.0-or-later
// The main window itself: its parts and how they are wired together, closing, dropped files, and
// a result shown in the views. The rest of it is in main_window_*.cpp: setup (docks, settings),
// menus (and which actions are enabled), data (opening datasets), run (the solve worker),
// export, and session (the run history and session files).
#include "main_window/main_window.h"

#include "controls/control_panel.h"
#include "controls/parameter_history.h"
#include "dataset/dataset_inspector.h"
#include "experiment/experiment_view.h"
#include "jobs/solve_job.h"
#include "main_window/eliding_status_bar.h"
#include "models/run_history_model.h"
#include "runs/run_history_view.h"
#include "runs/run_summary.h"
#include "survey/rank_survey_view.h"
#include "views/basis_gallery.h"
#include "views/cluster_view.h"
#include "views/convergence_plot.h"
#include "views/projection_view.h"
#include "views/reconstruction_view.h"
#include "views/representation_view.h"

#include <QCloseEvent>
#include <QDockWidget>
#include <QDragEnterEvent>
#include <QDropEvent>
#include <QFileInfo>
#include <QLabel>
#include <QMessageBox>
#include <QMimeData>
#include <QProgressBar>
#include <QStatusBar>
#include <QThread>
#include <QTimer>
#include <QToolButton>

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
    , m_rankSurvey(new RankSurveyView)
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
    connect(m_loadJob, &DatasetOpenJob::cancelled, this, &MainWindow::onDatasetCancelled);
    connect(m_loadJob, &DatasetOpenJob::progress, this, &MainWindow::onLoadProgress);
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
    connect(m_rankSurvey, &RankSurveyView::statusMessage, this,
        [this](const QString& message) { statusBar()->showMessage(message); });
    connect(m_controls, &ControlPanel::optionsChanged, this,
        [this] { m_rankSurvey->setRunOptions(m_controls->runOptions()); });
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
    setStatusBar(new ElidingStatusBar);
    m_jobStatus->setObjectName(QStringLiteral("jobStatus"));
    m_loadProgress = new QProgressBar;
    m_loadProgress->setObjectName(QStringLiteral("loadProgress"));
    m_loadProgress->setMaximumWidth(260);
    m_loadProgress->setMinimumWidth(200);
    m_cancelLoad = new QToolButton;
    m_cancelLoad->setObjectName(QStringLiteral("cancelLoadButton"));
    m_cancelLoad->setText(tr("Cancel"));
    m_cancelLoad->setToolTip(tr("Stop loading after the current image; the dataset loaded "
                                "before stays"));
    connect(m_cancelLoad, &QToolButton::clicked, m_loadJob, &DatasetOpenJob::cancel);
    statusBar()->addPermanentWidget(m_loadProgress);
    statusBar()->addPermanentWidget(m_cancelLoad);
    statusBar()->addPermanentWidget(m_jobStatus);
    statusBar()->addPermanentWidget(m_datasetStatus);
    hideLoadProgress();
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
    m_rankSurvey->cancel();
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

void MainWindow::showError(const QString& title, const QString& message)
{
    statusBar()->showMessage(tr("%1: %2").arg(title, message));
    if (m_errorDialogs)
        QMessageBox::warning(this, title, message);
}

} // namespace facet
