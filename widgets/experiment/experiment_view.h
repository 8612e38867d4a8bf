// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "data/dataset_source.h"
#include "experiment/experiment_data.h"
#include "experiment/summary.h"
#include "experiment/trial_replay.h"

#include <QElapsedTimer>
#include <QFutureWatcher>
#include <QWidget>

#include <memory>
#include <vector>

class QLabel;
class QMenu;
class QProgressBar;
class QPushButton;
class QTabWidget;
class QTableView;
class QThread;

namespace facet {

class ExperimentChart;
class ExperimentForm;
class ExperimentJob;
class ExperimentTableModel;
class ExperimentTestsModel;

// The GUI's experiment (issue 6): the papers' protocols on the loaded, labelled dataset, run by
// an ExperimentJob on its own thread and pool. AC and NMI plots, the mean ± std table (with the
// trials that hit the iteration limit) and table.md's paired Wilcoxon tests fill in as cells
// finish; Cancel keeps the finished cells; Export writes what `facet-cli sweep` writes.
class ExperimentView : public QWidget {
    Q_OBJECT

public:
    explicit ExperimentView(QWidget* parent = nullptr);
    ~ExperimentView() override;

    // The explorer's dataset (null: none). A run on the previous dataset is cancelled.
    void setDataset(std::shared_ptr<const Dataset> data, const DatasetRequest& request);
    void start();
    void cancel();
    // Writes results.json, results.csv, table.md and the ac/nmi plots into `dir`.
    bool exportTo(const QString& dir, QString* error = nullptr);

    bool isRunning() const { return m_running; }
    bool canStart() const;
    // The cells finished in the current (or last) run, in completion order, and its options.
    const std::vector<TrialResult>& trials() const { return m_trials; }
    const ExperimentOptions& options() const { return m_options; }
    int cellsPlanned() const { return m_cellsPlanned; }

    ExperimentForm* form() const { return m_form; }
    ExperimentTableModel* model() const { return m_model; }
    QTableView* table() const { return m_table; }
    ExperimentTestsModel* testsModel() const { return m_testsModel; }
    QTableView* testsTable() const { return m_testsTable; }
    QTabWidget* resultTabs() const { return m_resultTabs; }
    ExperimentChart* chart(Metric metric) const;
    // The menu of trials a click on a table cell pops up (null before the first click); its
    // actions open the trial in the explorer.
    QMenu* trialMenu() const { return m_trialMenu; }
    // The finished trials behind a table cell, in trial order (none for the average row).
    std::vector<TrialResult> trialsAt(const QModelIndex& index) const;
    // Sets up the trial as a single run and emits trialRunRequested(); false (with the reason in
    // the status line) when it cannot.
    bool openTrial(const TrialResult& trial);

Q_SIGNALS:
    void experimentStarted();
    // The run ended: every cell done, or stopped by Cancel (the finished cells stay).
    void experimentFinished(int finishedCells, bool stopped);
    void experimentFailed(const QString& message);
    // "Open in explorer" on a trial: the main window shows and runs it.
    void trialRunRequested(const facet::TrialRun& run);

private:
    void submit();
    void exportDialog();
    void updateControls();
    void showStatus(const QString& text);
    void onTrialFinished(quint64 runId, const TrialResult& trial);
    void onFinished(quint64 runId, int finishedCells, bool stopped);
    void onFailed(quint64 runId, const QString& message);
    void onPrepared();
    void showTrialMenu(const QModelIndex& index);
    void showResults();

    std::shared_ptr<const Dataset> m_dataset;
    DatasetRequest m_request;
    std::shared_ptr<const Dataset> m_runDataset; // what the current or last run ran on
    DatasetRequest m_runRequest;
    std::shared_ptr<const ExperimentDataset> m_prepared; // of m_preparedFor
    const Dataset* m_preparedFor = nullptr;
    QFutureWatcher<std::shared_ptr<const ExperimentDataset>> m_prepareWatcher;
    ExperimentOptions m_options;
    std::vector<TrialResult> m_trials;
    int m_cellsPlanned = 0;
    quint64 m_runId = 0;
    bool m_running = false;
    QElapsedTimer m_clock;

    QThread* m_thread;
    ExperimentJob* m_job; // lives on m_thread
    ExperimentForm* m_form;
    ExperimentTableModel* m_model;
    QTableView* m_table;
    ExperimentTestsModel* m_testsModel;
    QTableView* m_testsTable;
    QTabWidget* m_resultTabs;
    ExperimentChart* m_acChart;
    ExperimentChart* m_nmiChart;
    QLabel* m_notice;
    QLabel* m_status;
    QProgressBar* m_progress;
    QPushButton* m_start;
    QPushButton* m_cancel;
    QPushButton* m_export;
    QMenu* m_trialMenu = nullptr;
};

} // namespace facet
