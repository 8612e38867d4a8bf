// SPDX-License-Identifier: GPL-3.0-or-later
// The main window's run history and sessions: every finished run goes into the history; a run
// can be shown again, re-run or compared; File > Save/Open session writes and reads them all.
#include "main_window/main_window.h"

#include "controls/control_panel.h"
#include "controls/parameter_panel.h"
#include "models/run_history_model.h"
#include "runs/run_history_view.h"
#include "session/session.h"
#include "util/params_json.h"
#include "views/convergence_plot.h"

#include <QDockWidget>
#include <QFileDialog>
#include <QFileInfo>
#include <QMessageBox>
#include <QPushButton>
#include <QStatusBar>
#include <QTimer>

#include <algorithm>
#include <limits>

namespace facet {

namespace {

// A kept run as the views take it. The clustering is the one the run had; nothing is re-run.
RunResult resultOf(const RunRecord& run)
{
    RunResult r;
    Factorization& f = r.factorization;
    f.method = run.options.method;
    f.basis = run.basis;
    f.V = run.V;
    f.W = run.W;
    f.history = run.history;
    f.segmentStarts = run.segmentStarts;
    f.times = run.times;
    f.iterations = run.summary.iterations;
    f.stopReason = run.summary.stopReason;
    f.returnedObjective = run.summary.returnedObjective;
    // The record keeps the set-up and the clustering apart; the rest was the solve.
    r.setupSeconds = run.summary.setupSeconds;
    r.clusterSeconds = run.summary.clusterSeconds;
    f.solveSeconds = std::max(
        0.0, run.summary.seconds - run.summary.setupSeconds - run.summary.clusterSeconds);
    r.predicted = run.predicted;
    r.clusters = run.predicted.empty()
        ? 0
        : *std::max_element(run.predicted.begin(), run.predicted.end()) + 1;
    r.ac = run.summary.ac;
    r.nmi = run.summary.nmi;
    r.graphAc = run.summary.graphAc;
    r.graphNmi = run.summary.graphNmi;
    r.reconstructionError = run.summary.reconstructionError;
    r.sparseness = run.summary.sparseness;
    return r;
}

} // namespace

void MainWindow::connectRunHistory()
{
    connect(m_runsView, &RunHistoryView::runActivated, this, &MainWindow::showRun);
    connect(m_runsView, &RunHistoryView::openDatasetRequested, this, &MainWindow::openRunDataset);
    connect(m_runsView, &RunHistoryView::rerunRequested, this, &MainWindow::rerun);
    connect(m_runsView, &RunHistoryView::overlayRequested, this, [this](const QList<int>& ids) {
        for (int id : ids)
            if (const int row = m_runs->rowOfId(id); row >= 0) {
                const RunRecord& run = m_runs->run(row);
                m_plot->addRun(run.name, resultOf(run).factorization);
            }
        statusBar()->showMessage(
            tr("%n run(s) overlaid on the convergence plot; its context menu removes them.",
                nullptr, int(ids.size())));
    });
    connect(m_runsView, &RunHistoryView::statusMessage, this,
        [this](const QString& message) { statusBar()->showMessage(message); });
}

bool MainWindow::showRun(int id)
{
    const int row = m_runs->rowOfId(id);
    if (row < 0 || m_running)
        return false;
    const RunRecord& run = m_runs->run(row);
    const bool shapeFits = m_dataset && run.hasFactors() && run.V.rows() == m_dataset->samples()
        && run.basis.rows() == m_dataset->features();
    // A run that knows its data is shown on that data only (two sets of one shape are not the
    // same data); one from an older session, on data of its shape.
    const bool sameData = !run.dataset.known() || run.dataset.sameData(m_datasetIdentity);
    if (!shapeFits || !sameData) {
        refuseRun(run);
        return false;
    }
    std::shared_ptr<const Dataset> shownData = m_dataset;
    if (run.dataset.known())
        shownData = run.dataset.sampleL2 ? normalizedData() : m_dataset;
    else if (!run.options.method.empty())
        shownData = runData(run.options.method);
    showResult(resultOf(run), run.options, shownData);
    m_shownRunId = id;
    if (!run.options.method.empty())
        showOptionsInControls(run.options);
    statusBar()->showMessage(tr("Showing %1 from the run history.").arg(run.name));
    updateActions();
    return true;
}

void MainWindow::refuseRun(const RunRecord& run)
{
    if (!run.hasFactors()) {
        statusBar()->showMessage(tr("%1 kept no factors (it came from a facet-cli report); "
                                    "Re-run it to see it.")
                                     .arg(run.name));
        return;
    }
    if (!run.dataset.known()) {
        statusBar()->showMessage(
            tr("%1 was made on other data (%2 samples of %3 values); load that dataset to see it.")
                .arg(run.name)
                .arg(run.V.rows())
                .arg(run.basis.rows()));
        return;
    }
    const auto known = std::find_if(m_knownDatasets.begin(), m_knownDatasets.end(),
        [&](const SessionDataset& d) { return d.sha256 == run.dataset.sha256; });
    const QString open = m_dataset
        ? tr(" The open dataset is %1.").arg(describeIdentity(m_datasetIdentity))
        : QString();
    const QString message
        = tr("%1 was made on %2.%3").arg(run.name, describeIdentity(run.dataset), open);
    if (known == m_knownDatasets.end()) {
        statusBar()->showMessage(message + tr(" Load that dataset to see it."));
        return;
    }
    statusBar()->showMessage(message + tr(" Open Run's Dataset (Runs table menu) opens it."));
    if (!m_errorDialogs)
        return;
    const int id = run.id;
    QMessageBox ask(
        QMessageBox::Question, tr("Open the run's dataset?"), message, QMessageBox::NoButton, this);
    ask.setInformativeText(
        tr("Open %1 (%2) and show the run?").arg(known->name, known->request.spec));
    QPushButton* openButton = ask.addButton(tr("Open Dataset"), QMessageBox::AcceptRole);
    ask.addButton(QMessageBox::Cancel);
    ask.setDefaultButton(openButton);
    ask.exec();
    if (ask.clickedButton() == openButton)
        openRunDataset(id);
}

bool MainWindow::openRunDataset(int id)
{
    const int row = m_runs->rowOfId(id);
    if (row < 0)
        return false;
    const RunRecord& run = m_runs->run(row);
    if (!run.dataset.known()) {
        showError(tr("The run's dataset is unknown"),
            tr("%1 comes from a session written before runs recorded their data; open its "
               "dataset yourself (%2 samples of %3 values).")
                .arg(run.name)
                .arg(run.V.rows())
                .arg(run.basis.rows()));
        return false;
    }
    if (m_dataset && run.dataset.sameData(m_datasetIdentity))
        return showRun(id);
    const auto known = std::find_if(m_knownDatasets.begin(), m_knownDatasets.end(),
        [&](const SessionDataset& d) { return d.sha256 == run.dataset.sha256; });
    if (known == m_knownDatasets.end()) {
        showError(tr("The run's dataset is not known here"),
            tr("%1 was made on %2, and this session does not say where that data is (it was "
               "not loaded in this window, or its path leaves the session's folder). Open it "
               "yourself; the run shows on data whose SHA-256 is %3.")
                .arg(run.name, describeIdentity(run.dataset), run.dataset.sha256));
        return false;
    }
    m_pendingShownRunId = id; // shown once loaded, if the file still holds the same data
    openDataset(known->request);
    return true;
}

void MainWindow::rememberDataset(const SessionDataset& dataset)
{
    if (dataset.sha256.isEmpty())
        return;
    const auto same = std::find_if(m_knownDatasets.begin(), m_knownDatasets.end(),
        [&](const SessionDataset& d) { return d.sha256 == dataset.sha256; });
    if (same != m_knownDatasets.end())
        *same = dataset;
    else
        m_knownDatasets.push_back(dataset);
}

void MainWindow::rerun(const RunOptions& options)
{
    if (!m_dataset) {
        statusBar()->showMessage(tr("Load a dataset first."));
        return;
    }
    if (!canRepeat(options)) {
        showError(tr("Cannot re-run"),
            tr("This run started from %1, which the session file does not hold, so its options "
               "alone cannot repeat it. Show it and use Run > Continue the shown run instead.")
                .arg(QString::fromStdString(options.driver.startSource)));
        return;
    }
    showOptionsInControls(options);
    // The exact options (seed included), not the panel's: the run repeats the kept one.
    submitRun(options, false);
    m_rerunTimer->stop();
}

void MainWindow::showOptionsInControls(const RunOptions& options)
{
    m_controls->setMethod(QString::fromStdString(options.method));
    m_controls->setRank(options.params.rank);
    m_controls->setMaxIterations(options.driver.maxIter);
    m_controls->setTolerance(options.driver.tol);
    m_controls->setStationarityTolerance(options.driver.stationarityTol);
    if (options.driver.seed <= std::uint64_t(std::numeric_limits<int>::max()))
        m_controls->setSeed(int(options.driver.seed));
    ParameterPanel* params = m_controls->parameterPanel();
    if (options.params.lambda)
        params->setLambda(*options.params.lambda);
    params->setBeta(options.params.beta);
    params->setMu(options.params.mu);
    params->setNeighbours(options.params.p);
    m_rerunTimer->stop(); // the panel's changes above are not a request for another run
}

bool MainWindow::saveSession(const QString& path)
{
    Session session;
    if (m_dataset)
        session.dataset = m_request;
    session.runs = m_runs->runs();
    // Every dataset a run used (and the open one), so each run can find its data again.
    for (const SessionDataset& known : m_knownDatasets) {
        const bool used = (m_dataset && known.sha256 == m_datasetIdentity.sha256)
            || std::any_of(session.runs.begin(), session.runs.end(),
                [&](const RunRecord& run) { return run.dataset.sha256 == known.sha256; });
        if (used)
            session.datasets.push_back(known);
    }
    if (m_result && m_runs->rowOfId(m_shownRunId) >= 0)
        session.shownRunId = m_shownRunId;
    const Result<bool> saved = facet::saveSession(session, path);
    if (!saved) {
        showError(tr("Could not save the session"), saved.error());
        return false;
    }
    m_sessionPath = path;
    statusBar()->showMessage(
        tr("Saved %n run(s) to %1.", nullptr, int(session.runs.size())).arg(path));
    return true;
}

bool MainWindow::openSession(const QString& path)
{
    Result<Session> loaded = loadSession(path);
    if (!loaded) {
        // The history and the dataset stay as they were.
        showError(tr("Could not open the session"), loaded.error());
        return false;
    }
    m_sessionPath = path;
    for (const SessionDataset& known : loaded->datasets)
        rememberDataset(known);
    m_runs->setRuns(std::move(loaded->runs));
    // The run on screen at save time comes back once its data has loaded (or now, on the data
    // already open, when the session names none).
    m_pendingShownRunId = loaded->dataset ? loaded->shownRunId : 0;
    if (!loaded->dataset && loaded->shownRunId > 0)
        showRun(loaded->shownRunId);
    if (loaded->dataset)
        openDataset(*loaded->dataset);
    if (!loaded->datasetProblem.isEmpty())
        showError(tr("The session's dataset was not opened"), loaded->datasetProblem);
    else
        statusBar()->showMessage(tr("Opened %1: %n run(s).", nullptr, m_runs->runCount())
                                     .arg(QFileInfo(path).fileName()));
    m_runsDock->show();
    m_runsDock->raise();
    return true;
}

void MainWindow::saveSessionDialog(bool askPath)
{
    QString path = m_sessionPath;
    if (askPath || path.isEmpty()) {
        path = QFileDialog::getSaveFileName(this, tr("Save session"),
            path.isEmpty() ? tr("session.facet.json") : path, tr("Facet sessions (*.json)"));
        if (path.isEmpty())
            return;
        if (!path.endsWith(QStringLiteral(".json"), Qt::CaseInsensitive))
            path += QStringLiteral(".json");
    }
    saveSession(path);
}

void MainWindow::openSessionDialog()
{
    const QString path = QFileDialog::getOpenFileName(this, tr("Open session"),
        m_sessionPath.isEmpty() ? QString() : QFileInfo(m_sessionPath).absolutePath(),
        tr("Facet sessions (*.json);;All files (*)"));
    if (!path.isEmpty())
        openSession(path);
}

} // namespace facet
