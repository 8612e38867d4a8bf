// SPDX-License-Identifier: GPL-3.0-or-later
// How the main window is put together and restored: docks, menus, saved geometry and options.
#include "main_window.h"

#include "basis_gallery.h"
#include "cluster_view.h"
#include "control_panel.h"
#include "convergence_plot.h"
#include "data/dataset_source.h"
#include "dataset_inspector.h"
#include "experiment_view.h"
#include "overcomplete_demo.h"
#include "parameter_history.h"
#include "projection_view.h"
#include "recent_files_menu.h"
#include "reconstruction_view.h"
#include "representation_view.h"
#include "run_history_view.h"
#include "shortcuts_dialog.h"
#include "vertical_scroll_area.h"

#include <QDockWidget>
#include <QFileDialog>
#include <QMenuBar>
#include <QMessageBox>
#include <QSettings>
#include <QUndoStack>
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
}

void MainWindow::showExperiment()
{
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

void MainWindow::createMenus()
{
    QMenu* file = menuBar()->addMenu(tr("&File"));
    QAction* open = file->addAction(tr("&Open dataset..."), this, &MainWindow::openDatasetDialog);
    open->setShortcut(QKeySequence::Open);
    file->addAction(tr("Open image &folder..."), this, &MainWindow::openFolderDialog);
    QMenu* builtins = file->addMenu(tr("Open &built-in"));
    for (const QString& name : builtinDatasetNames()) {
        const QString label = name.left(1).toUpper() + name.mid(1);
        builtins->addAction(
            label, this, [this, name] { openDataset(QStringLiteral("builtin:") + name); });
    }
    m_recent = new RecentFilesMenu(tr("&Recent files"), this);
    file->addMenu(m_recent);
    connect(m_recent, &RecentFilesMenu::fileChosen, this,
        qOverload<const QString&>(&MainWindow::openDataset));
    file->addSeparator();
    m_exportAction
        = file->addAction(tr("&Export basis image..."), this, &MainWindow::exportBasisDialog);
    m_exportFactorsAction = file->addAction(
        tr("Export &factors (MATLAB)..."), this, &MainWindow::exportFactorsDialog);
    m_exportFactorsAction->setObjectName(QStringLiteral("exportFactorsAction"));
    m_exportFactorsAction->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_E));
    m_exportFactorsAction->setStatusTip(
        tr("U, V, W, the predicted labels and the run's options as a .mat file"));
    file->addSeparator();
    QAction* openSession
        = file->addAction(tr("Open &session..."), this, &MainWindow::openSessionDialog);
    openSession->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_O));
    QAction* save
        = file->addAction(tr("&Save session"), this, [this] { saveSessionDialog(false); });
    save->setShortcut(QKeySequence::Save);
    QAction* saveAs
        = file->addAction(tr("Save session &as..."), this, [this] { saveSessionDialog(true); });
    // The platform's Save As has no keys on some desktops (and offscreen): Ctrl+Shift+S there.
    saveAs->setShortcut(QKeySequence(QKeySequence::SaveAs).isEmpty()
            ? QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_S)
            : QKeySequence(QKeySequence::SaveAs));
    file->addSeparator();
    m_projectAction = file->addAction(tr("&Project an image onto the basis..."), this, [this] {
        const QString path = QFileDialog::getOpenFileName(this, tr("Project an image"), {},
            tr("Images (*.png *.jpg *.jpeg *.bmp *.pgm *.ppm *.gif *.tif *.tiff *.webp)"));
        if (!path.isEmpty())
            projectImage(path);
    });
    m_projectAction->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_P));
    file->addSeparator();
    QAction* quit = file->addAction(tr("&Quit"), this, &QWidget::close);
    quit->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_Q));
    quit->setMenuRole(QAction::QuitRole);

    QMenu* edit = menuBar()->addMenu(tr("&Edit"));
    m_history = new ParameterHistory(m_controls, this);
    QAction* undo = m_history->stack()->createUndoAction(this, tr("&Undo"));
    undo->setShortcut(QKeySequence::Undo);
    QAction* redo = m_history->stack()->createRedoAction(this, tr("&Redo"));
    redo->setShortcut(QKeySequence::Redo);
    edit->addAction(undo);
    edit->addAction(redo);

    QMenu* dataMenu = menuBar()->addMenu(tr("&Data"));
    m_preprocessAction = dataMenu->addAction(
        tr("&Preprocessing..."), this, [this] { showPreprocessing(m_request); });
    m_exportDatasetAction = dataMenu->addAction(
        tr("&Export prepared dataset (MATLAB)..."), this, &MainWindow::exportDatasetDialog);
    m_exportDatasetAction->setObjectName(QStringLiteral("exportDatasetAction"));
    m_exportDatasetAction->setStatusTip(
        tr("The images as loaded and prepared, as fea/gnd in a .mat file"));

    QMenu* run = menuBar()->addMenu(tr("&Run"));
    m_runAction = run->addAction(tr("&Run"), this, &MainWindow::startRun);
    m_runAction->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_R));
    m_cancelAction = run->addAction(tr("&Cancel"), this, &MainWindow::cancelRun);
    m_cancelAction->setShortcut(QKeySequence(Qt::Key_Escape));
    m_continueAction
        = run->addAction(tr("C&ontinue the shown run"), this, &MainWindow::continueRun);
    m_continueAction->setObjectName(QStringLiteral("continueAction"));
    m_continueAction->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_C));
    m_continueAction->setStatusTip(tr("Run the shown result's method on from its factors for "
                                      "Max iterations more"));
    m_autoRerunAction = run->addAction(tr("&Auto re-run on change"));
    m_autoRerunAction->setCheckable(true);
    m_autoRerunAction->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_R));
    connect(m_autoRerunAction, &QAction::toggled, m_controls, &ControlPanel::setAutoRerun);
    connect(m_controls, &ControlPanel::autoRerunToggled, m_autoRerunAction, &QAction::setChecked);
    run->addSeparator();
    QAction* experiment = run->addAction(tr("&Experiment..."), this, &MainWindow::showExperiment);
    experiment->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_E));

    m_viewMenu = menuBar()->addMenu(tr("&View"));
    for (QDockWidget* dock : findChildren<QDockWidget*>())
        m_viewMenu->addAction(dock->toggleViewAction());
    m_viewMenu->addSeparator();
    QAction* demo = m_viewMenu->addAction(
        tr("2-D &overcomplete-basis demo"), this, &MainWindow::showOvercompleteDemo);
    demo->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_D));

    QMenu* help = menuBar()->addMenu(tr("&Help"));
    QAction* shortcuts = help->addAction(tr("&Keyboard shortcuts"), this, [this] {
        if (!m_shortcutsDialog)
            m_shortcutsDialog = new ShortcutsDialog(collectShortcuts(*this), this);
        m_shortcutsDialog->show();
        m_shortcutsDialog->raise();
        m_shortcutsDialog->activateWindow();
    });
    shortcuts->setObjectName(QStringLiteral("shortcutsAction"));
    shortcuts->setShortcut(QKeySequence::HelpContents);
    help->addAction(tr("&About Facet"), this, [this] {
        QMessageBox::about(this, tr("About Facet"),
            tr("<b>Facet</b> %1 explores matrix factorizations (NMF, concept "
               "factorization and their relatives) of image sets.<br>"
               "Qt %2, Eigen %3.%4.%5.<br>"
               "License: GPL-3.0-or-later.")
                .arg(QStringLiteral(FACET_VERSION_STRING), QString::fromLatin1(qVersion()))
                .arg(EIGEN_WORLD_VERSION)
                .arg(EIGEN_MAJOR_VERSION)
                .arg(EIGEN_MINOR_VERSION));
    });
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
}

void MainWindow::writeSettings() const
{
    QSettings settings;
    settings.setValue(QStringLiteral("window/geometry"), saveGeometry());
    settings.setValue(QStringLiteral("window/state"), saveState(kWindowStateVersion));
    m_controls->saveSettings(settings);
}

} // namespace facet
