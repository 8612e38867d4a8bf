// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "data/dataset.h"
#include "data/dataset_identity.h"
#include "experiment/run.h"
#include "experiment/trial_replay.h"
#include "jobs/dataset_open_job.h"
#include "session/session.h"

#include <QElapsedTimer>
#include <QList>
#include <QMainWindow>

#include <memory>
#include <optional>

class QDockWidget;
class QLabel;
class QProgressBar;
class QThread;
class QTimer;
class QToolButton;

namespace facet {

class BasisGallery;
class ClusterView;
class ControlPanel;
class ConvergencePlot;
class DatasetInspector;
class ShortcutsDialog;
class ExperimentView;
class ParameterHistory;
class OvercompleteDemo;
class ProjectionView;
class ReconstructionView;
class RepresentationView;
class RunHistoryModel;
class RankSurveyView;
class RunHistoryView;
class PreprocessDialog;
class RecentFilesMenu;
class SolveJob;

// The explorer: a dataset, a factorization of it and the three views of the result (basis images,
// convergence, clusters). Loading and solving run on workers, so the event loop never waits on
// them; a result from a run that was superseded or abandoned is recognised by its id and dropped.
class MainWindow : public QMainWindow {
    Q_OBJECT

public:
    explicit MainWindow(QWidget* parent = nullptr);
    ~MainWindow() override;

    // A .mat path, image folder, image list or builtin:NAME, with the preprocessing last used
    // for folders and lists; the answer is datasetLoaded() or datasetLoadFailed().
    void openDataset(const QString& spec);
    void openDataset(const DatasetRequest& request);
    DatasetRequest requestFor(const QString& spec) const;
    // The request that made the current dataset (empty spec before the first load).
    const DatasetRequest& datasetRequest() const { return m_request; }
    // What the current dataset is (name, source, preparation, sha256 of X); every run records
    // it. Empty before the first load.
    const DatasetIdentity& openDatasetIdentity() const { return m_datasetIdentity; }
    // Opens the preprocessing dialog (window-modal, not blocking); Load opens its request.
    PreprocessDialog* showPreprocessing(const DatasetRequest& request);
    // Starts a run with the panel's options unless one is running.
    void startRun();
    // Starts a run with the panel's options; a running one is cancelled and its answers dropped.
    void restartRun();
    void cancelRun();
    // Runs the shown result's method again from its factors (a warm start, METHODS.md 0) for the
    // panel's Max iterations more: nmf, gnmf, semignmf, cnmf from U and V, cf, lccf, lcf, ccf
    // from W and V.
    void continueRun();
    // Whether continueRun() can start: a result of one of those methods, with its factors.
    bool canContinue() const;
    // Auto re-run's start (issue 35): when `next` differs from the shown result's options only in
    // a continuous parameter (lambda, beta, mu, the heat width, the kernel's degree, offset or
    // width) on the same data, method and rank, the same options starting from the shown
    // factors (one replicate, counted from 1, named in the Runs table); otherwise none, and the
    // run starts afresh from its seed.
    std::optional<RunOptions> warmStartOptions(const RunOptions& next);
    // Shows a trial of the experiment view as the explorer's dataset and runs it with the cell's
    // exact options (and one inner thread, so the numbers are the cell's).
    void openTrialRun(const TrialRun& run);
    // Writes the current basis as a PNG mosaic; false (with the error shown) when it cannot.
    bool exportBasis(const QString& path);
    // Writes the current result's factors, labels and options as a MAT file (writeFactorsMat).
    bool exportFactors(const QString& path);
    // Writes the loaded dataset, prepared as loaded, as fea/gnd (writeDatasetMat).
    bool exportDataset(const QString& path);

    bool isRunning() const { return m_running; }
    bool isLoading() const;
    bool isWorkerRunning() const;
    std::shared_ptr<const Dataset> dataset() const { return m_dataset; }
    const std::optional<RunResult>& lastResult() const { return m_result; }
    // The options of the last run submitted to the worker (finished, failed or still running).
    const RunOptions& lastSubmittedOptions() const { return m_runOptions; }

    // Tests and --screenshot turn the modal error dialogs off; errors still reach the status bar.
    void setErrorDialogsEnabled(bool enabled) { m_errorDialogs = enabled; }
    bool errorDialogsEnabled() const { return m_errorDialogs; }

    ControlPanel* controlPanel() const { return m_controls; }
    BasisGallery* basisGallery() const { return m_gallery; }
    ConvergencePlot* convergencePlot() const { return m_plot; }
    ClusterView* clusterView() const { return m_clusters; }
    DatasetInspector* datasetInspector() const { return m_inspector; }
    ExperimentView* experimentView() const { return m_experiment; }
    ParameterHistory* parameterHistory() const { return m_history; }
    ProjectionView* projectionView() const { return m_projection; }
    RepresentationView* representationView() const { return m_representation; }
    ReconstructionView* reconstructionView() const { return m_reconstruction; }
    RunHistoryModel* runHistory() const { return m_runs; }
    RunHistoryView* runHistoryView() const { return m_runsView; }

    // Sessions (File menu): the dataset's request and every run of the history, as JSON written
    // atomically. Both return false with the error shown when they fail; nothing is lost.
    bool saveSession(const QString& path);
    bool openSession(const QString& path);
    const QString& sessionPath() const { return m_sessionPath; }
    // Shows a run of the history in the views (its factors, curve and clusters), when it was made
    // on data of the current dataset's shape; false with the reason in the status bar otherwise.
    bool showRun(int id);
    // Opens the dataset run `id` was made on (a session remembers every dataset its runs used,
    // by request and sha256) and shows the run once it has loaded; false with the reason shown
    // when the run's data is unknown or the session does not know where it came from.
    bool openRunDataset(int id);
    // Projects an image file onto the current basis and shows the Projection panel.
    void projectImage(const QString& path);
    // The permanent status-bar read-out of the running job (iteration, speed, ETA).
    QLabel* jobStatusLabel() const { return m_jobStatus; }
    // Auto re-run waits this long after the last option change before it restarts the run.
    static constexpr int kAutoRerunDelayMs = 250;
    // Shows and raises the Experiment dock (Run > Experiment...).
    void showExperiment();
    // Shows and raises the Rank survey dock (Run > Rank survey...), on the Controls' options.
    void showRankSurvey();
    RankSurveyView* rankSurveyView() const { return m_rankSurvey; }
    // Shows the 2-D overcomplete-basis demo (View menu), made on first use; null before.
    void showOvercompleteDemo();
    OvercompleteDemo* overcompleteDemo() const { return m_demo; }

Q_SIGNALS:
    void datasetLoaded(const QString& name);
    void datasetLoadFailed(const QString& message);
    // The load was cancelled (the status bar's Cancel); the dataset loaded before it stays.
    void datasetLoadCancelled();
    void runStarted(quint64 runId);
    void runFinished(const facet::RunResult& result);
    // Cancel came during the run's set-up (RunResult::cancelledDuring names `stage`): no factors,
    // and the views keep the last good result.
    void runCancelledInSetup(const QString& stage);
    void runFailed(const QString& message);

protected:
    void closeEvent(QCloseEvent* event) override;
    void showEvent(QShowEvent* event) override;
    void dragEnterEvent(QDragEnterEvent* event) override;
    void dropEvent(QDropEvent* event) override;

private:
    void createMenus();
    void createDocks();
    void readSettings();
    void writeSettings() const;
    void stopWorker();
    void updateActions();
    void showError(const QString& title, const QString& message);
    void openDatasetDialog();
    void openFolderDialog();
    void exportBasisDialog();
    // The request that makes the current result's data (m_request and the run's normalization).
    DatasetRequest resultRequest() const;
    void exportFactorsDialog();
    void exportDatasetDialog();
    // A save dialog starting in the folder of the last export, with `.suffix` added if missing.
    QString exportPath(const QString& title, const QString& suggestion, const QString& filter,
        const QString& suffix);
    void clearResult();
    void submitRun();
    // asLoaded: the dataset exactly as it is (an experiment trial, already prepared); otherwise
    // the panel's sample normalization applies.
    void submitRun(const RunOptions& options, bool singleInnerThread, bool asLoaded = false);
    // The data a run of `method` sees under the panel's sample normalization.
    std::shared_ptr<const Dataset> runData(const std::string& method);
    // m_dataset with each sample at unit L2 norm, made once per dataset.
    std::shared_ptr<const Dataset> normalizedData();
    void adoptDataset(const OpenedDataset& opened);
    void showResult(const RunResult& result, const RunOptions& options,
        const std::shared_ptr<const Dataset>& runData);
    // main_window_session.cpp
    void connectRunHistory();
    // Adds or refreshes the entry of dataset.sha256.
    void rememberDataset(const SessionDataset& dataset);
    // Why run `row` cannot be shown on the open data, in the status bar; with dialogs on, offers
    // to open the run's dataset when the window knows where it came from.
    void refuseRun(const RunRecord& run);
    void saveSessionDialog(bool askPath);
    void openSessionDialog();
    void rerun(const RunOptions& options);
    // Controls show `options` (method, rank, limits, seed, the method's weights and p), without
    // starting an auto re-run: the shown or repeated run's parameters, not the last ones typed.
    void showOptionsInControls(const RunOptions& options);
    void onOptionsChanged();
    // A report's iteration counted from the run's own start (a continued run's reports count on
    // from the run it continues).
    int newIterations(int iteration) const;
    void updateJobStatus(int iteration);

    void onDatasetLoaded(quint64 requestId, const OpenedDataset& opened);
    void onDatasetFailed(quint64 requestId, const DatasetRequest& request, const QString& message);
    void onDatasetCancelled(quint64 requestId);
    // The status bar's load progress ("Detecting faces: 120 of 400") and its Cancel, shown while
    // a dataset loads.
    void showLoadProgress(const QString& busyText);
    void onLoadProgress(quint64 requestId, int done, int total);
    void hideLoadProgress();
    void onProgress(quint64 runId, const QList<IterationReport>& reports);
    void onStage(quint64 runId, const QString& stage);
    void onStageProgress(quint64 runId, double fraction);
    // The progress bar's word for the running stage: "k-means", "PCA" or "setting up".
    QString stageBarText() const;
    void onFinished(quint64 runId, const RunResult& result);
    void onFailed(quint64 runId, const QString& message);
    // The convergence plot back on the last good result (after a run that left no factors).
    void showLastGoodHistory();

    std::shared_ptr<const Dataset> m_dataset;
    DatasetRequest m_request; // of m_dataset
    DatasetIdentity m_datasetIdentity; // of m_dataset
    DatasetIdentity m_runIdentity; // of m_runData, the run in progress
    // Every dataset loaded in this window or named by an opened session, one per sha256: what
    // Open Run's Dataset opens and what a saved session keeps.
    std::vector<SessionDataset> m_knownDatasets;
    std::optional<RunResult> m_result; // the last good result, of m_resultData
    std::shared_ptr<const Dataset> m_resultData; // what the result's run saw
    std::shared_ptr<const Dataset> m_runData; // what the run in progress sees
    std::shared_ptr<const Dataset> m_normalizedData; // m_dataset with unit-norm samples
    const Dataset* m_normalizedFrom = nullptr;
    RunOptions m_resultOptions;
    QString m_stage; // the set-up step the running job is in (SolveJob::stageStarted), or empty
    double m_stageFraction
        = -1; // how far that step has come (SolveJob::stageProgress); -1: unknown
    RunOptions m_runOptions; // of the run in progress, or the last one submitted
    quint64 m_runId = 0; // id of the run whose answers are wanted; others are stale
    bool m_running = false;
    bool m_errorDialogs = true;
    bool m_dockSizesPending = true; // default dock sizes, until shown or restored from settings
    QElapsedTimer m_runClock;

    QThread* m_solveThread = nullptr;
    SolveJob* m_solveJob = nullptr; // lives on m_solveThread; deleted when it finishes
    DatasetOpenJob* m_loadJob = nullptr;

    ControlPanel* m_controls = nullptr;
    BasisGallery* m_gallery = nullptr;
    ConvergencePlot* m_plot = nullptr;
    ClusterView* m_clusters = nullptr;
    DatasetInspector* m_inspector = nullptr;
    ExperimentView* m_experiment = nullptr;
    RankSurveyView* m_rankSurvey = nullptr;
    ProjectionView* m_projection = nullptr;
    RepresentationView* m_representation = nullptr;
    ReconstructionView* m_reconstruction = nullptr;
    QDockWidget* m_reconstructionDock = nullptr;
    RunHistoryModel* m_runs = nullptr;
    RunHistoryView* m_runsView = nullptr;
    QDockWidget* m_runsDock = nullptr;
    OvercompleteDemo* m_demo = nullptr;
    QDockWidget* m_demoDock = nullptr;
    ShortcutsDialog* m_shortcutsDialog = nullptr; // Help > Keyboard shortcuts, made on first use
    QWidget* m_userGuide = nullptr; // Help > User guide, made on first use
    QString m_sessionPath;
    int m_shownRunId = 0; // the history's id of the run the views show (0: none kept)
    int m_pendingShownRunId = 0; // a session's shown run, shown once its dataset has loaded
    QDockWidget* m_projectionDock = nullptr;
    QAction* m_projectAction = nullptr;
    QDockWidget* m_experimentDock = nullptr;
    QDockWidget* m_rankSurveyDock = nullptr;
    QDockWidget* m_datasetDock = nullptr;
    QDockWidget* m_clustersDock = nullptr;
    RecentFilesMenu* m_recent = nullptr;
    QLabel* m_datasetStatus = nullptr;
    QLabel* m_jobStatus = nullptr;
    QProgressBar* m_loadProgress = nullptr;
    QToolButton* m_cancelLoad = nullptr;
    ParameterHistory* m_history = nullptr;
    QTimer* m_rerunTimer = nullptr;
    QAction* m_autoRerunAction = nullptr;
    QAction* m_runAction = nullptr;
    QAction* m_cancelAction = nullptr;
    QAction* m_exportAction = nullptr;
    QAction* m_exportFactorsAction = nullptr;
    QAction* m_continueAction = nullptr;
    QAction* m_exportDatasetAction = nullptr;
    QAction* m_preprocessAction = nullptr;
    QAction* m_missingAction = nullptr;
    QAction* m_clearMissingAction = nullptr;
    QMenu* m_viewMenu = nullptr;
};

} // namespace facet
