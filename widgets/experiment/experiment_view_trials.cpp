// SPDX-License-Identifier: GPL-3.0-or-later
// The experiment view's way back to the explorer: a click on a table cell lists the cell's
// finished trials, and opening one hands its exact run (dataset classes, options, seed) to the
// main window.
#include "experiment/experiment_view.h"

#include "experiment/experiment_table_model.h"

#include <QMenu>
#include <QTableView>

#include <algorithm>

namespace facet {

using namespace Qt::StringLiterals;

std::vector<TrialResult> ExperimentView::trialsAt(const QModelIndex& index) const
{
    const SweepSummary& summary = m_model->summary();
    if (!index.isValid() || index.row() >= int(summary.clusters.size()))
        return {};
    const int series = m_model->seriesOf(index.column());
    if (series < 0 || series >= int(summary.series.size()))
        return {};
    const SeriesKey& key = summary.series[std::size_t(series)];
    const int c = summary.clusters[std::size_t(index.row())];
    std::vector<TrialResult> found;
    for (const TrialResult& t : m_trials)
        if (t.cell.method == key.method && t.cell.clusters == c
            && t.cell.parameterIndex == key.parameterIndex)
            found.push_back(t);
    std::sort(found.begin(), found.end(),
        [](const TrialResult& a, const TrialResult& b) { return a.cell.trial < b.cell.trial; });
    return found;
}

void ExperimentView::showTrialMenu(const QModelIndex& index)
{
    const std::vector<TrialResult> trials = trialsAt(index);
    if (trials.empty())
        return;
    delete m_trialMenu;
    m_trialMenu = new QMenu(this);
    m_trialMenu->setObjectName(u"experimentTrialMenu"_s);
    m_trialMenu->setToolTipsVisible(true);
    QAction* title = m_trialMenu->addAction(tr("Open in the explorer:"));
    title->setEnabled(false);
    for (const TrialResult& t : trials) {
        QAction* open = m_trialMenu->addAction(tr("Trial %1: AC %2%, NMI %3%")
                                                   .arg(t.cell.trial + 1)
                                                   .arg(100 * t.ac, 0, 'f', 1)
                                                   .arg(100 * t.nmi, 0, 'f', 1));
        open->setToolTip(tr("Seed %1; classes %2").arg(t.seed).arg([&] {
            QStringList names;
            for (int c : t.classes)
                names << QString::number(c + 1);
            return names.join(u", "_s);
        }()));
        connect(open, &QAction::triggered, this, [this, t] { openTrial(t); });
    }
    m_trialMenu->popup(m_table->viewport()->mapToGlobal(m_table->visualRect(index).center()));
}

bool ExperimentView::openTrial(const TrialResult& trial)
{
    if (!m_runDataset) {
        showStatus(tr("The experiment's dataset is no longer loaded."));
        return false;
    }
    try {
        // The cells ran on this preparation; it is rebuilt (cheaply, on this thread) only when
        // the explorer has moved on to another dataset since.
        std::shared_ptr<const ExperimentDataset> prepared = m_prepared;
        if (!prepared || m_preparedFor != m_runDataset.get())
            prepared = std::make_shared<const ExperimentDataset>(
                *m_runDataset, SampleNormalization::Auto);
        TrialRun run = makeTrialRun(*prepared, m_options, trial);
        run.request = m_runRequest;
        showStatus(tr("Opened %1 in the explorer.").arg(run.title.toHtmlEscaped()));
        Q_EMIT trialRunRequested(run);
        return true;
    } catch (const std::exception& error) {
        showStatus(tr("Cannot open the trial: %1")
                       .arg(QString::fromStdString(error.what()).toHtmlEscaped()));
        return false;
    }
}

} // namespace facet
