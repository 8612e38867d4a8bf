// SPDX-License-Identifier: GPL-3.0-or-later
// How the main window runs a factorization: the run submitted to the solve worker (or continued
// from the shown result's factors), the worker's progress, stages and answers, and the job's
// read-out in the status bar. A stale answer (of a superseded run) is recognised by its id.
#include "main_window/main_window.h"

#include "controls/control_panel.h"
#include "controls/method_parameters.h"
#include "data/dataset_source.h"
#include "data/mat_writer.h"
#include "jobs/solve_job.h"
#include "models/run_history_model.h"
#include "runs/run_params_text.h"
#include "runs/run_summary.h"
#include "session/session.h"
#include "util/params_json.h"
#include "views/basis_gallery.h"
#include "views/cluster_view.h"
#include "views/convergence_plot.h"

#include <QLabel>
#include <QStatusBar>
#include <QThread>
#include <QTimer>

#include <cmath>

namespace facet {

void MainWindow::startRun()
{
    if (m_running)
        return;
    submitRun();
}

void MainWindow::restartRun()
{
    m_rerunTimer->stop();
    const RunOptions next = m_controls->runOptions();
    if (const std::optional<RunOptions> warm = warmStartOptions(next)) {
        submitRun(*warm, false);
        statusBar()->showMessage(
            tr("Running %1 from the shown factors (warm start)...").arg(methodTitle(warm->method)));
        return;
    }
    submitRun(next, false);
}

namespace {

// The options with the continuous parameters and the start set aside: two runs whose stripped
// options agree differ at most in a value a warm start can follow.
QJsonObject withoutContinuousParameters(RunOptions o)
{
    o.params.lambda.reset();
    o.params.beta = 0;
    o.params.mu = 0;
    o.params.heatT.reset();
    o.params.sigma.reset();
    o.params.degree = 0;
    o.params.offset = 0;
    return runParamsToJson(o);
}

} // namespace

std::optional<RunOptions> MainWindow::warmStartOptions(const RunOptions& next)
{
    if (!canContinue() || next.method != m_resultOptions.method
        || next.params.rank != m_resultOptions.params.rank || runData(next.method) != m_resultData)
        return std::nullopt;
    RunOptions a = next, b = m_resultOptions;
    for (RunOptions* o : { &a, &b }) {
        o->driver.start.reset();
        o->driver.startHistory.clear();
        o->driver.startSource.clear();
        o->driver.replicates = 1; // a warm start runs one
    }
    if (withoutContinuousParameters(a) != withoutContinuousParameters(b)
        || runParamsToJson(a) == runParamsToJson(b))
        return std::nullopt; // something else changed, or nothing did: start afresh
    const Factorization& f = m_result->factorization;
    RunOptions warm = next;
    warm.driver.replicates = 1;
    warm.driver.start = std::make_shared<const std::vector<Matrix>>(
        std::vector<Matrix> { f.W.size() > 0 ? f.W : f.basis, f.V });
    warm.driver.startHistory.clear(); // a new objective: its iterations count from 1
    warm.driver.startSource = tr("warm start from the shown %1 run (k = %2, %3 iterations)")
                                  .arg(QString::fromStdString(methodLabel(m_resultOptions.method)))
                                  .arg(m_resultOptions.params.rank)
                                  .arg(f.iterations)
                                  .toStdString();
    return warm;
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
    return normalize ? normalizedData() : m_dataset;
}

std::shared_ptr<const Dataset> MainWindow::normalizedData()
{
    if (!m_dataset)
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
    m_runIdentity = m_datasetIdentity;
    m_runIdentity.sampleL2 = m_runData != m_dataset;
    // The clusters and scores stay the previous run's until this one ends: say so.
    if (m_result) {
        m_clusters->setNewerRunNote(
            tr("A newer run (%1, k = %2) is computing: these clusters and scores are the "
               "previous run's.")
                .arg(methodTitle(m_runOptions.method))
                .arg(m_runOptions.params.rank));
        m_gallery->setNewerRunNote(
            tr("A newer run (%1, k = %2) is computing: these are the previous run's bases.")
                .arg(methodTitle(m_runOptions.method))
                .arg(m_runOptions.params.rank));
    }
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
    m_clusters->setNewerRunNote({});
    m_gallery->setNewerRunNote({});
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
    // Named by what changed since the newest row of the same method, so the rows of a tuning
    // gesture tell themselves apart ("GNMF k=40 λ=31.6").
    QString change;
    if (const int count = m_runs->runCount();
        count > 0 && m_runs->run(count - 1).options.method == m_runOptions.method)
        change = runParamsChange(m_runOptions, m_runs->run(count - 1).options);
    RunRecord record
        = makeRunRecord(m_runOptions, result, *m_runData, defaultRunName(m_runOptions, change));
    record.dataset = m_runIdentity;
    m_shownRunId = m_runs->addRun(std::move(record));
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

void MainWindow::onFailed(quint64 runId, const QString& message)
{
    if (runId != m_runId || !m_running)
        return;
    m_running = false;
    m_clusters->setNewerRunNote({});
    m_gallery->setNewerRunNote({});
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

} // namespace facet
