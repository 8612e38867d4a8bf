// SPDX-License-Identifier: GPL-3.0-or-later
// How the main window is put together and restored: docks, saved geometry and options. Its menus
// are in main_window_menus.cpp.
#include "main_window/main_window.h"
#include "survey/rank_survey_view.h"

#include "common/vertical_scroll_area.h"
#include "controls/control_panel.h"
#include "controls/method_parameters.h"
#include "dataset/dataset_inspector.h"
#include "demo/overcomplete_demo.h"
#include "experiment/experiment_form.h"
#include "experiment/experiment_view.h"
#include "runs/run_history_view.h"
#include "views/basis_gallery.h"
#include "views/cluster_view.h"
#include "views/convergence_plot.h"
#include "views/projection_view.h"
#include "views/reconstruction_view.h"
#include "views/representation_view.h"

#include <QDockWidget>
#include <QSettings>
#include <QVBoxLayout>

namespace facet {

namespace {
// Bumped when the dock layout changes so an old saved state is not applied to new docks.
constexpr int kWindowStateVersion = 6;
} // namespace

void MainWindow::createDocks()
{
    const auto addDock = [this](QWidget* widget, const QString& title, const QString& name,
                             Qt::DockWidgetArea area) {
        auto* dock = new QDockWidget(title, this);
        dock->setObjectName(name); // saveState() finds docks by name
        dock->setWidget(widget);
        addDockWidget(area, dock);
        return dock;
    };
    // Scrolls rather than clips when a method's parameters do not fit the window's height.
    // Run, Cancel and the progress stay in view under it: in a 700 px high window they were
    // below the fold.
    auto* controlsScroll = new VerticalScrollArea(m_controls);
    controlsScroll->setObjectName(QStringLiteral("controlsScroll"));
    auto* controlsDock = new QWidget;
    auto* controlsLayout = new QVBoxLayout(controlsDock);
    controlsLayout->setContentsMargins(0, 0, 0, 0);
    controlsLayout->setSpacing(2);
    controlsLayout->addWidget(controlsScroll, 1);
    QWidget* runBar = m_controls->takeRunBar();
    runBar->setContentsMargins(9, 0, 9, 4); // the panel's own margins
    controlsLayout->addWidget(runBar);
    addDock(controlsDock, tr("Controls"), QStringLiteral("controlsDock"), Qt::LeftDockWidgetArea);
    QDockWidget* convergence = addDock(
        m_plot, tr("Convergence"), QStringLiteral("convergenceDock"), Qt::RightDockWidgetArea);
    m_clustersDock = addDock(
        m_clusters, tr("Clusters"), QStringLiteral("clustersDock"), Qt::RightDockWidgetArea);
    splitDockWidget(convergence, m_clustersDock, Qt::Vertical);
    // Before a run the clusters are empty and the data is what there is to look at; each new
    // dataset raises this tab, each new result the clusters'.
    m_datasetDock = addDock(
        m_inspector, tr("Dataset"), QStringLiteral("datasetDock"), Qt::RightDockWidgetArea);
    tabifyDockWidget(m_clustersDock, m_datasetDock);
    m_projectionDock = addDock(
        m_projection, tr("Projection"), QStringLiteral("projectionDock"), Qt::RightDockWidgetArea);
    tabifyDockWidget(m_clustersDock, m_projectionDock);
    QDockWidget* representation = addDock(m_representation, tr("Representation"),
        QStringLiteral("representationDock"), Qt::RightDockWidgetArea);
    tabifyDockWidget(m_clustersDock, representation);
    m_reconstructionDock = addDock(m_reconstruction, tr("Reconstruction"),
        QStringLiteral("reconstructionDock"), Qt::RightDockWidgetArea);
    tabifyDockWidget(m_clustersDock, m_reconstructionDock);
    m_datasetDock->raise();
    // The history sits under the gallery: a table is wide and short.
    m_runsDock
        = addDock(m_runsView, tr("Runs"), QStringLiteral("runsDock"), Qt::BottomDockWidgetArea);
    // Experiments are occasional and want room: a floating window, hidden until asked for.
    m_experimentDock = addDock(
        m_experiment, tr("Experiment"), QStringLiteral("experimentDock"), Qt::BottomDockWidgetArea);
    m_experimentDock->setFloating(true);
    m_experimentDock->resize(1200, 760);
    m_experimentDock->hide();
    m_rankSurveyDock = addDock(m_rankSurvey, tr("Rank survey"), QStringLiteral("rankSurveyDock"),
        Qt::BottomDockWidgetArea);
    m_rankSurveyDock->setFloating(true);
    m_rankSurveyDock->resize(900, 640);
    m_rankSurveyDock->hide();
}

void MainWindow::showRankSurvey()
{
    m_rankSurvey->setRunOptions(m_controls->runOptions());
    m_rankSurveyDock->show();
    m_rankSurveyDock->raise();
    m_rankSurveyDock->activateWindow();
}

void MainWindow::showExperiment()
{
    // The experiment's cells stop where the explorer's runs do, unless its form set its own
    // limit (CF_OGL's field counts outer iterations, which are not the other methods' limit).
    if (!iterationsAreOuterIterations(m_controls->method()))
        m_experiment->form()->setDefaultMaxIterations(m_controls->maxIterations());
    m_experimentDock->show();
    m_experimentDock->raise();
    m_experimentDock->activateWindow();
}

void MainWindow::showOvercompleteDemo()
{
    if (!m_demo) {
        // Made on first use: it starts its two runs at once, which nobody asked for before.
        m_demo = new OvercompleteDemo;
        m_demoDock = new QDockWidget(tr("2-D overcomplete-basis demo"), this);
        m_demoDock->setObjectName(QStringLiteral("demoDock"));
        m_demoDock->setWidget(m_demo);
        addDockWidget(Qt::BottomDockWidgetArea, m_demoDock);
        m_demoDock->setFloating(true);
        m_demoDock->resize(1200, 700);
        // Hiding it leaves its runs alone: they take milliseconds on 150 points.
    }
    m_demoDock->show();
    m_demoDock->raise();
    m_demoDock->activateWindow();
}

void MainWindow::showEvent(QShowEvent* event)
{
    QMainWindow::showEvent(event);
    if (!m_dockSizesPending)
        return;
    m_dockSizesPending = false;
    // Dock sizes only stick once the window has its size, hence here and not in createDocks().
    const auto dock
        = [this](const char* name) { return findChild<QDockWidget*>(QString::fromLatin1(name)); };
    resizeDocks({ dock("controlsDock"), dock("convergenceDock") }, { 350, 520 }, Qt::Horizontal);
    resizeDocks({ dock("convergenceDock"), dock("clustersDock") }, { 320, 560 }, Qt::Vertical);
    resizeDocks({ dock("runsDock") }, { 170 }, Qt::Vertical);
}

void MainWindow::readSettings()
{
    QSettings settings;
    if (!restoreGeometry(settings.value(QStringLiteral("window/geometry")).toByteArray()))
        resize(1400, 900);
    if (restoreState(
            settings.value(QStringLiteral("window/state")).toByteArray(), kWindowStateVersion))
        m_dockSizesPending = false;
    m_controls->restoreSettings(settings);
    m_experiment->form()->restoreSettings(settings);
}

void MainWindow::writeSettings() const
{
    QSettings settings;
    settings.setValue(QStringLiteral("window/geometry"), saveGeometry());
    settings.setValue(QStringLiteral("window/state"), saveState(kWindowStateVersion));
    m_controls->saveSettings(settings);
    m_experiment->form()->saveSettings(settings);
}

} // namespace facet
