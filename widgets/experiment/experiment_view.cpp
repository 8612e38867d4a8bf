// SPDX-License-Identifier: GPL-3.0-or-later
// The experiment view's layout and its run: the data prepared off the GUI thread, the job's cells
// as they finish, Cancel, and the status line. Export is in experiment_view_export.cpp, opening
// a table cell's trials in the explorer in experiment_view_trials.cpp.
#include "experiment/experiment_view.h"

#include "common/vertical_scroll_area.h"
#include "experiment/experiment_chart.h"
#include "experiment/experiment_form.h"
#include "experiment/experiment_job.h"
#include "experiment/experiment_table_model.h"
#include "experiment/experiment_tests_model.h"
#include "util/thread_handoff.h"

#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QProgressBar>
#include <QPushButton>
#include <QSplitter>
#include <QTabWidget>
#include <QTableView>
#include <QThread>
#include <QVBoxLayout>

#include <algorithm>

namespace facet {

using namespace Qt::StringLiterals;

namespace {

QString duration(double seconds)
{
    const int s = int(seconds + 0.5);
    if (s < 60)
        return QObject::tr("%1 s").arg(s);
    if (s < 3600)
        return QObject::tr("%1 min %2 s").arg(s / 60).arg(s % 60);
    return QObject::tr("%1 h %2 min").arg(s / 3600).arg(s % 3600 / 60);
}

} // namespace

ExperimentView::ExperimentView(QWidget* parent)
    : QWidget(parent)
    , m_thread(new QThread(this))
    , m_job(new ExperimentJob)
    , m_form(new ExperimentForm)
    , m_model(new ExperimentTableModel(this))
    , m_table(new QTableView)
    , m_testsModel(new ExperimentTestsModel(this))
    , m_testsTable(new QTableView)
    , m_resultTabs(new QTabWidget)
    , m_acChart(new ExperimentChart(Metric::Accuracy))
    , m_nmiChart(new ExperimentChart(Metric::Nmi))
    , m_notice(new QLabel)
    , m_status(new QLabel)
    , m_progress(new QProgressBar)
    , m_start(new QPushButton(tr("Start")))
    , m_cancel(new QPushButton(tr("Cancel")))
    , m_export(new QPushButton(tr("Export...")))
{
    setObjectName(u"experimentView"_s);
    m_job->moveToThread(m_thread);
    connect(m_thread, &QThread::finished, m_job, &QObject::deleteLater);
    connect(m_job, &ExperimentJob::trialFinished, this, &ExperimentView::onTrialFinished);
    connect(m_job, &ExperimentJob::finished, this, &ExperimentView::onFinished);
    connect(m_job, &ExperimentJob::failed, this, &ExperimentView::onFailed);
    m_thread->start();
    connect(&m_prepareWatcher, &QFutureWatcherBase::finished, this, &ExperimentView::onPrepared);

    m_start->setObjectName(u"experimentStart"_s);
    m_cancel->setObjectName(u"experimentCancel"_s);
    m_export->setObjectName(u"experimentExport"_s);
    m_export->setToolTip(tr("Write results.json, results.csv, table.md, summary.csv, "
                            "summary.json and the AC/NMI plots, "
                            "as facet-cli sweep does"));
    connect(m_start, &QPushButton::clicked, this, &ExperimentView::start);
    connect(m_cancel, &QPushButton::clicked, this, &ExperimentView::cancel);
    connect(m_export, &QPushButton::clicked, this, &ExperimentView::exportDialog);
    connect(m_form, &ExperimentForm::changed, this, &ExperimentView::updateControls);

    m_notice->setWordWrap(true);
    m_notice->setObjectName(u"experimentNotice"_s);
    m_status->setWordWrap(true);
    m_status->setObjectName(u"experimentStatus"_s);
    m_status->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_progress->setObjectName(u"experimentProgress"_s);
    m_progress->setRange(0, 1);
    m_progress->setValue(0);

    auto* buttons = new QHBoxLayout;
    buttons->addWidget(m_start);
    buttons->addWidget(m_cancel);
    buttons->addWidget(m_export);
    auto* settings = new QWidget;
    auto* settingsLayout = new QVBoxLayout(settings);
    settingsLayout->addWidget(m_notice);
    settingsLayout->addWidget(m_form);
    settingsLayout->addLayout(buttons);
    settingsLayout->addWidget(m_progress);
    settingsLayout->addWidget(m_status);
    settingsLayout->addStretch(1);

    m_table->setObjectName(u"experimentTable"_s);
    m_table->setModel(m_model);
    m_table->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    m_table->setSelectionBehavior(QAbstractItemView::SelectItems);
    m_table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_table->setToolTip(tr("Click a cell to open one of its trials in the explorer"));
    connect(m_table, &QTableView::clicked, this, &ExperimentView::showTrialMenu);
    m_testsTable->setObjectName(u"experimentTestsTable"_s);
    m_testsTable->setModel(m_testsModel);
    m_testsTable->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    m_testsTable->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_testsTable->setToolTip(
        tr("Paired Wilcoxon signed-rank tests, as in table.md: each series against the best by "
           "average, over the trials both finished (same classes and starts). A cell: mean "
           "difference in percentage points, two-sided p; * and bold: p < 0.05"));
    m_resultTabs->setObjectName(u"experimentResultTabs"_s);
    m_resultTabs->addTab(m_table, tr("Mean ± std (%)"));
    m_resultTabs->addTab(m_testsTable, tr("Paired tests (Wilcoxon)"));
    auto* charts = new QSplitter(Qt::Horizontal);
    charts->addWidget(m_acChart);
    charts->addWidget(m_nmiChart);
    auto* results = new QSplitter(Qt::Vertical);
    results->addWidget(charts);
    results->addWidget(m_resultTabs);
    results->setStretchFactor(0, 3);
    results->setStretchFactor(1, 2);
    auto* split = new QSplitter(Qt::Horizontal);
    split->addWidget(new VerticalScrollArea(settings));
    split->addWidget(results);
    split->setStretchFactor(1, 1);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(split);
    setDataset(nullptr, {});
}

ExperimentView::~ExperimentView()
{
    ++m_runId;
    m_job->cancel();
    // Running cells stop at their next iteration, so this is short.
    stopJobThread(*m_thread);
}

ExperimentChart* ExperimentView::chart(Metric metric) const
{
    return metric == Metric::Accuracy ? m_acChart : m_nmiChart;
}

void ExperimentView::setDataset(
    std::shared_ptr<const Dataset> dataset, const DatasetRequest& request)
{
    if (m_running) {
        cancel();
        showStatus(tr("Stopped: a new dataset was loaded."));
    }
    m_dataset = std::move(dataset);
    m_request = request;
    m_form->setDatasetSource(
        m_dataset ? request.spec : QString(), m_dataset ? m_dataset->name : QString());
    if (!m_dataset) {
        m_notice->setText(tr("Load a labelled dataset to run an experiment."));
    } else if (!m_dataset->hasLabels()) {
        m_notice->setText(tr("<b>%1 has no labels.</b> An experiment scores each clustering "
                             "against the true classes (AC, NMI), so it needs a labelled dataset, "
                             "e.g. File > Open built-in > Gaussians.")
                              .arg(m_dataset->name.toHtmlEscaped()));
    } else {
        m_notice->setText(tr("<b>%1</b>: %2 samples in %3 classes.")
                              .arg(m_dataset->name.toHtmlEscaped())
                              .arg(m_dataset->samples())
                              .arg(m_dataset->classCount()));
        m_form->setClassCount(m_dataset->classCount());
    }
    updateControls();
}

bool ExperimentView::canStart() const
{
    return !m_running && m_dataset && m_dataset->hasLabels();
}

void ExperimentView::updateControls()
{
    const bool labelled = m_dataset && m_dataset->hasLabels();
    m_form->setEnabled(labelled && !m_running);
    m_start->setEnabled(canStart());
    m_cancel->setEnabled(m_running);
    m_export->setEnabled(!m_running && !m_trials.empty());
}

void ExperimentView::showStatus(const QString& text)
{
    m_status->setText(text);
}

void ExperimentView::start()
{
    if (!canStart())
        return;
    QString error;
    const std::optional<ExperimentOptions> options = m_form->options(&error);
    if (!options) {
        showStatus(tr("<span style='color:#b00'>%1</span>").arg(error.toHtmlEscaped()));
        return;
    }
    // The sweep's cells run without weights (facet-cli sweep has no --mask): on data with
    // missing pixels they would fit the zeros that stand in for them.
    if (m_dataset && m_dataset->hasMask()) {
        showStatus(tr("<span style='color:#b00'>%1</span>")
                       .arg(tr("The experiment's protocols run on complete data, and this "
                               "dataset has missing pixels (%1). Set Missing pixels to None in "
                               "Data > Preprocessing to run it.")
                                .arg(m_dataset->maskSources.join(u", "))
                                .toHtmlEscaped()));
        return;
    }
    m_options = *options;
    m_trials.clear();
    m_cellsPlanned = int(planCells(m_options).size());
    m_runDataset = m_dataset;
    m_runRequest = m_request;
    m_model->setExperiment(m_options);
    showResults();
    m_progress->setRange(0, m_cellsPlanned);
    m_progress->setValue(0);
    ++m_runId;
    m_running = true;
    updateControls();
    Q_EMIT experimentStarted();
    if (m_prepared && m_preparedFor == m_runDataset.get()) {
        submit();
        return;
    }
    // Normalizing a copy of X can take a while on a large set: off the GUI thread.
    showStatus(tr("Preparing the data..."));
    m_prepareWatcher.setFuture(runOnPool(QThreadPool::globalInstance(),
        [data = m_runDataset]() -> std::shared_ptr<const ExperimentDataset> {
            try {
                return std::make_shared<ExperimentDataset>(
                    Dataset(*data), SampleNormalization::Auto);
            } catch (...) {
                return nullptr;
            }
        }));
}

void ExperimentView::onPrepared()
{
    const std::shared_ptr<const ExperimentDataset> prepared = m_prepareWatcher.result();
    if (!m_running || !m_runDataset)
        return;
    if (!prepared) {
        onFailed(m_runId, tr("cannot prepare the data for the experiment"));
        return;
    }
    m_prepared = prepared;
    m_preparedFor = m_runDataset.get();
    submit();
}

void ExperimentView::submit()
{
    ExperimentRequest request;
    request.runId = m_runId;
    request.data = m_prepared;
    request.options = m_options;
    request.threads = m_form->threads();
    m_clock.start();
    showStatus(tr("Running %n cell(s)...", nullptr, m_cellsPlanned));
    m_job->submit(std::move(request));
}

void ExperimentView::cancel()
{
    if (!m_running)
        return;
    if (m_prepareWatcher.isRunning()) {
        // Nothing was submitted yet: the run ends here.
        m_running = false;
        ++m_runId;
        showStatus(tr("Cancelled."));
        updateControls();
        Q_EMIT experimentFinished(0, true);
        return;
    }
    m_job->cancel();
    m_cancel->setEnabled(false);
    showStatus(tr("Cancelling: the running cells stop at their next iteration..."));
}

void ExperimentView::onTrialFinished(quint64 runId, const TrialResult& trial)
{
    if (runId != m_runId)
        return;
    m_trials.push_back(trial);
    m_model->setTrials(m_trials);
    showResults();
    const int done = int(m_trials.size());
    m_progress->setValue(done);
    const double elapsed = m_clock.elapsed() / 1000.0;
    const double remaining = elapsed / done * (m_cellsPlanned - done);
    showStatus(tr("%1 of %2 cells, %3 elapsed, about %4 left")
                   .arg(done)
                   .arg(m_cellsPlanned)
                   .arg(duration(elapsed), duration(remaining)));
}

void ExperimentView::showResults()
{
    m_acChart->setSummary(m_model->summary(), m_options, m_runDataset->name);
    m_nmiChart->setSummary(m_model->summary(), m_options, m_runDataset->name);
    m_testsModel->setResults(m_options, m_model->summary(), m_trials);
}

void ExperimentView::onFinished(quint64 runId, int finishedCells, bool stopped)
{
    if (runId != m_runId)
        return;
    m_running = false;
    const QString time = duration(m_clock.elapsed() / 1000.0);
    if (stopped)
        showStatus(tr("Cancelled after %1: %2 of %3 cells finished (kept).")
                       .arg(time)
                       .arg(m_trials.size())
                       .arg(m_cellsPlanned));
    else
        showStatus(tr("Done: %1 cells in %2.").arg(m_cellsPlanned).arg(time));
    const auto limited = std::count_if(m_trials.begin(), m_trials.end(),
        [](const TrialResult& t) { return t.stopReason == StopReason::MaxIterations; });
    if (limited > 0)
        showStatus(m_status->text() + u" "_s
            + tr("%n of them stopped at the iteration limit (see the table).", nullptr,
                int(limited)));
    updateControls();
    Q_EMIT experimentFinished(finishedCells, stopped);
}

void ExperimentView::onFailed(quint64 runId, const QString& message)
{
    if (runId != m_runId)
        return;
    m_running = false;
    showStatus(tr("<span style='color:#b00'>Failed: %1</span>").arg(message.toHtmlEscaped()));
    updateControls();
    Q_EMIT experimentFailed(message);
}

} // namespace facet
