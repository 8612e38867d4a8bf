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
    if (!m_dataset || !run.hasFactors() || run.V.rows() != m_dataset->samples()
        || run.basis.rows() != m_dataset->features()) {
        statusBar()->showMessage(
            tr("%1 was made on other data (%2 samples of %3 values); load that dataset to see it.")
                .arg(run.name)
                .arg(run.V.rows())
                .arg(run.basis.rows()));
        return false;
    }
    const bool normalized
        = run.options.method.empty() ? false : runData(run.options.method) != m_dataset;
    showResult(resultOf(run), run.options, normalized ? runData(run.options.method) : m_dataset);
    m_shownRunId = id;
    if (!run.options.method.empty())
        showOptionsInControls(run.options);
    statusBar()->showMessage(tr("Showing %1 from the run history.").arg(run.name));
    updateActions();
    return true;
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
