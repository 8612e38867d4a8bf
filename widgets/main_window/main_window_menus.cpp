// SPDX-License-Identifier: GPL-3.0-or-later
// The main window's menus and actions (File, Edit, Data, Run, View, Help), and which of the
// actions the window's state enables.
#include "main_window/main_window.h"

#include "dataset/missing_pixels_group.h"
#include "dataset/preprocess_dialog.h"
#include "dataset/preprocess_form.h"

#include "controls/control_panel.h"
#include "controls/parameter_history.h"
#include "data/dataset_source.h"
#include "main_window/recent_files_menu.h"
#include "main_window/shortcuts_dialog.h"
#include "main_window/user_guide_dialog.h"

#include <QDockWidget>
#include <QFileDialog>
#include <QMenuBar>
#include <QMessageBox>
#include <QThread>
#include <QUndoStack>

namespace facet {

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
    // Missing pixels are a preprocessing step (made after the preparation): the same dialog,
    // opened on its Missing pixels group.
    m_missingAction = dataMenu->addAction(tr("&Missing pixels..."), this, [this] {
        if (PreprocessDialog* dialog = showPreprocessing(m_request))
            dialog->form()->missingGroup()->kindBox()->setFocus();
    });
    m_missingAction->setObjectName(QStringLiteral("missingPixelsAction"));
    m_missingAction->setStatusTip(tr("Hide pixels of every sample (at random, a block per image, "
                                     "or a mask file) and see how the factors fill them"));
    m_clearMissingAction = dataMenu->addAction(tr("&Clear missing pixels"), this, [this] {
        DatasetRequest request = m_request;
        request.preprocess.missing = {};
        openDataset(request);
    });
    m_clearMissingAction->setObjectName(QStringLiteral("clearMissingPixelsAction"));
    dataMenu->addSeparator();
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
    QAction* survey = run->addAction(tr("Ran&k survey..."), this, &MainWindow::showRankSurvey);
    survey->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_K));
    survey->setStatusTip(tr("Choose k: consensus, held-out error and scores per rank"));

    m_viewMenu = menuBar()->addMenu(tr("&View"));
    for (QDockWidget* dock : findChildren<QDockWidget*>())
        m_viewMenu->addAction(dock->toggleViewAction());
    m_viewMenu->addSeparator();
    QAction* demo = m_viewMenu->addAction(
        tr("2-D &overcomplete-basis demo"), this, &MainWindow::showOvercompleteDemo);
    demo->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_D));

    QMenu* help = menuBar()->addMenu(tr("&Help"));
    // F1 stays the shortcuts list's (QKeySequence::HelpContents, as it has been).
    QAction* guide = help->addAction(tr("&User guide"), this, [this] {
        if (!m_userGuide)
            m_userGuide = new UserGuideDialog(this);
        m_userGuide->show();
        m_userGuide->raise();
        m_userGuide->activateWindow();
    });
    guide->setObjectName(QStringLiteral("userGuideAction"));
    guide->setStatusTip(tr("What each view shows, what each method minimizes and how runs stop"));
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

void MainWindow::updateActions()
{
    const bool canRun = m_dataset && m_solveThread->isRunning();
    m_controls->setState(m_running, canRun);
    m_runAction->setEnabled(!m_running && canRun);
    m_cancelAction->setEnabled(m_running);
    m_exportAction->setEnabled(m_result.has_value());
    m_exportFactorsAction->setEnabled(m_result.has_value());
    m_continueAction->setEnabled(!m_running && canContinue());
    m_exportDatasetAction->setEnabled(m_dataset != nullptr);
    m_projectAction->setEnabled(m_result.has_value());
    m_preprocessAction->setEnabled(m_dataset != nullptr);
    m_missingAction->setEnabled(m_dataset != nullptr);
    m_clearMissingAction->setEnabled(
        m_dataset != nullptr && m_request.preprocess.missing.kind != MissingKind::None);
}

} // namespace facet
