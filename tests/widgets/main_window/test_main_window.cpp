// SPDX-License-Identifier: GPL-3.0-or-later
// The main window driven like a user: real button clicks, then assertions on what the views show.

#include "child_process.h"
#include "controls/control_panel.h"
#include "data/mat_loader.h"
#include "jobs/solve_job.h"
#include "main_window/main_window.h"
#include "main_window/shortcuts_dialog.h"
#include "main_window_fixture.h"
#include "screenshot.h"
#include "test_data.h"
#include "views/basis_gallery.h"
#include "views/cluster_view.h"
#include "views/convergence_plot.h"

#include <QDir>
#include <QProgressBar>
#include <QPushButton>
#include <QScrollArea>
#include <QSettings>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QStatusBar>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QtTest>

#include <algorithm>
#include <map>
#include <memory>

using namespace facet;
using namespace facet::testing;

class TestMainWindow : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void runShowsBasisAndHistory_data();
    void runShowsBasisAndHistory();
    void cancelEndsTheRunAndKeepsTheGuiUsable();
    void failureKeepsTheLastResult();
    void closingMidRunJoinsTheWorker();
    void openingAFileAddsItToRecentFiles();
    void shortcutsDialogListsTheActions();
    void aFileThatFailsToLoadKeepsTheDataset();
    void helpAndVersionNeedNoDisplay();
    void fitsALaptopScreen();
    void exportsNeverReplaceTheOpenFile();
};

void TestMainWindow::initTestCase()
{
    // Keep the tests' settings apart from a user's.
    useTestSettings(QStringLiteral("widgets_main_window"));
}

void TestMainWindow::runShowsBasisAndHistory_data()
{
    QTest::addColumn<QString>("method");
    QTest::newRow("nmf") << QStringLiteral("nmf");
    QTest::newRow("cf") << QStringLiteral("cf");
}

void TestMainWindow::runShowsBasisAndHistory()
{
    QFETCH(QString, method);
    auto window = makeWindow();
    auto* exportFactors = window->findChild<QAction*>(QStringLiteral("exportFactorsAction"));
    auto* exportDataset = window->findChild<QAction*>(QStringLiteral("exportDatasetAction"));
    QVERIFY(exportFactors && exportDataset);
    QVERIFY(!exportDataset->isEnabled());
    QVERIFY(load(*window, QStringLiteral("builtin:swimmer")));
    QVERIFY(exportDataset->isEnabled());
    QVERIFY(!exportFactors->isEnabled());
    ControlPanel* controls = window->controlPanel();
    QVERIFY(controls->setMethod(method));
    controls->setRank(8);
    controls->setMaxIterations(40);
    QVERIFY(controls->runButton()->isEnabled());

    QSignalSpy finished(window.get(), &MainWindow::runFinished);
    QTest::mouseClick(controls->runButton(), Qt::LeftButton);
    QVERIFY(window->isRunning() || finished.count() == 1);
    QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, kRunTimeoutMs);

    const auto result = finished.at(0).at(0).value<RunResult>();
    const Factorization& f = result.factorization;
    QVERIFY(f.iterations >= 1 && f.iterations <= 40);
    QCOMPARE(int(f.history.size()), f.iterations);
    QCOMPARE(window->basisGallery()->imageCount(), 8);
    QCOMPARE(window->convergencePlot()->graphCount(), 1);
    QCOMPARE(window->convergencePlot()->pointCount(), int(f.history.size()));
    QCOMPARE(window->clusterView()->clusterCount(), result.clusters);
    // Every swimmer image, up to the cap of thumbnails per cluster.
    std::map<int, int> sizes;
    for (const int c : result.predicted)
        ++sizes[c];
    int shown = 0;
    for (const auto& [cluster, size] : sizes)
        shown += std::min(size, ClusterView::kMaxThumbnailsPerCluster);
    QCOMPARE(window->clusterView()->thumbnailCount(), shown);
    QVERIFY(!window->isRunning());
    QVERIFY(controls->runButton()->isEnabled());
    QVERIFY(!controls->cancelButton()->isEnabled());
    QVERIFY(!window->statusBar()->currentMessage().isEmpty());

    const QString mosaic
        = QDir::current().filePath(QStringLiteral("main_window_%1_basis.png").arg(method));
    QVERIFY(window->exportBasis(mosaic));
    QVERIFY(!QImage(mosaic).isNull());

    // File > Export factors: V with the predicted labels reads back (W only for the CF family);
    // Data > Export prepared dataset: the loaded set, as loaded.
    QVERIFY(exportFactors->isEnabled());
    QTemporaryDir dir;
    const QString factors = dir.filePath(QStringLiteral("factors.mat"));
    QVERIFY(window->exportFactors(factors));
    QVERIFY(window->statusBar()->currentMessage().contains(factors));
    MatLoadOptions read;
    read.labelVariable = QStringLiteral("labels");
    read.height = 1;
    read.width = 8;
    for (const QString& name : { QStringLiteral("V"), QStringLiteral("W") }) {
        read.dataVariable = name;
        const Result<Dataset> back = loadMat(factors, read);
        QCOMPARE(back.ok(), name == u"V" || method == u"cf");
        if (back) {
            const Matrix& expected = name == u"V" ? f.V : f.W;
            QVERIFY((back->X - expected.transpose()).cwiseAbs().maxCoeff() < 1e-12);
            QCOMPARE(back->classCount(), result.clusters);
        }
    }
    const QString prepared = dir.filePath(QStringLiteral("swimmer.mat"));
    QVERIFY(window->exportDataset(prepared));
    const Result<Dataset> data = loadMat(prepared);
    QVERIFY2(data, qPrintable(data ? QString() : data.error()));
    QVERIFY((data->X - window->dataset()->X).cwiseAbs().maxCoeff() < 1e-12);
    saveScreenshot(*window, QStringLiteral("main_window_%1.png").arg(method));
}

void TestMainWindow::cancelEndsTheRunAndKeepsTheGuiUsable()
{
    auto window = makeWindow();
    QVERIFY(load(*window, QStringLiteral("builtin:swimmer")));
    ControlPanel* controls = window->controlPanel();
    // CF (mu-ex) measures no stationarity and its accepted objective never rises, so with
    // tolerance 0 only Cancel can end this run (NMF's hals-ex also stops at a stationary point).
    controls->setMethod(QStringLiteral("cf"));
    controls->setRank(8);
    controls->setMaxIterations(10000000);
    controls->setTolerance(0);

    QSignalSpy finished(window.get(), &MainWindow::runFinished);
    QTest::mouseClick(controls->runButton(), Qt::LeftButton);
    QVERIFY(window->isRunning());
    QVERIFY(controls->cancelButton()->isEnabled());
    QTRY_VERIFY_WITH_TIMEOUT(window->convergencePlot()->pointCount() > 0, kRunTimeoutMs);
    QTest::mouseClick(controls->cancelButton(), Qt::LeftButton);
    QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, kRunTimeoutMs);

    const auto result = finished.at(0).at(0).value<RunResult>();
    QCOMPARE(result.factorization.stopReason, StopReason::Cancelled);
    QCOMPARE(window->basisGallery()->imageCount(), 8);
    QCOMPARE(window->convergencePlot()->pointCount(), int(result.factorization.history.size()));
    QVERIFY(window->statusBar()->currentMessage().contains(QStringLiteral("cancelled")));
    QVERIFY(controls->runButton()->isEnabled());
    QVERIFY(!controls->cancelButton()->isEnabled());

    // Usable again: a short run goes through.
    controls->setMaxIterations(5);
    controls->setTolerance(1e-5);
    QTest::mouseClick(controls->runButton(), Qt::LeftButton);
    QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 2, kRunTimeoutMs);
    QCOMPARE(finished.at(1).at(0).value<RunResult>().factorization.iterations, 5);
    saveScreenshot(*window, QStringLiteral("main_window_after_cancel.png"));
}

void TestMainWindow::failureKeepsTheLastResult()
{
    auto window = makeWindow();
    QVERIFY(load(*window, QStringLiteral("builtin:swimmer")));
    ControlPanel* controls = window->controlPanel();
    controls->setMethod(QStringLiteral("nmf"));
    controls->setRank(6);
    controls->setMaxIterations(20);
    controls->setTolerance(1e-5);
    QSignalSpy finished(window.get(), &MainWindow::runFinished);
    QSignalSpy failed(window.get(), &MainWindow::runFailed);
    QTest::mouseClick(controls->runButton(), Qt::LeftButton);
    QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, kRunTimeoutMs);
    const int goodPoints = window->convergencePlot()->pointCount();

    // Swimmer has 256 samples: rank 300 breaks the rank rule and the solver says so.
    controls->setRank(300);
    QTest::mouseClick(controls->runButton(), Qt::LeftButton);
    QTRY_COMPARE_WITH_TIMEOUT(failed.count(), 1, kRunTimeoutMs);
    const QString message = failed.at(0).at(0).toString();
    QVERIFY(!message.isEmpty());
    QVERIFY2(window->statusBar()->currentMessage().contains(message),
        qPrintable(window->statusBar()->currentMessage()));
    QCOMPARE(finished.count(), 1);
    QVERIFY(window->lastResult().has_value());
    QCOMPARE(int(window->lastResult()->factorization.V.cols()), 6);
    QCOMPARE(window->basisGallery()->imageCount(), 6);
    QCOMPARE(window->convergencePlot()->pointCount(), goodPoints);
    QVERIFY(controls->runButton()->isEnabled());
    saveScreenshot(*window, QStringLiteral("main_window_failure.png"));
}

void TestMainWindow::closingMidRunJoinsTheWorker()
{
    auto window = makeWindow();
    QVERIFY(load(*window, QStringLiteral("builtin:swimmer")));
    ControlPanel* controls = window->controlPanel();
    // CF (mu-ex): with tolerance 0 it is still running at close (NMF's hals-ex may have stopped
    // at a stationary point).
    controls->setMethod(QStringLiteral("cf"));
    controls->setRank(8);
    controls->setMaxIterations(10000000);
    controls->setTolerance(0);
    QTest::mouseClick(controls->runButton(), Qt::LeftButton);
    QTRY_VERIFY_WITH_TIMEOUT(window->convergencePlot()->pointCount() > 0, kRunTimeoutMs);

    QVERIFY(window->close());
    QVERIFY(!window->isWorkerRunning());
    QVERIFY(!window->isRunning());
    window.reset();
    // Answers the worker queued before it stopped must find nobody, not a dangling window.
    QTest::qWait(100);
}

// Help > Keyboard shortcuts (F1) lists the shortcuts as the actions have them: the menus' and
// the runs table's, none bound twice.
void TestMainWindow::shortcutsDialogListsTheActions()
{
    auto window = makeWindow();
    auto* action = window->findChild<QAction*>(QStringLiteral("shortcutsAction"));
    QVERIFY(action);
    QCOMPARE(action->shortcut(), QKeySequence(QKeySequence::HelpContents));
    action->trigger();
    auto* dialog = window->findChild<ShortcutsDialog*>(QStringLiteral("shortcutsDialog"));
    QVERIFY(dialog);
    QVERIFY(QTest::qWaitForWindowExposed(dialog));
    const QTableWidget* table = dialog->table();
    QStringList rows;
    for (int r = 0; r < table->rowCount(); ++r)
        rows << QStringLiteral("%1|%2|%3")
                    .arg(table->item(r, 0)->text(), table->item(r, 1)->text(),
                        table->item(r, 2)->text());
    const auto keys = [](QKeySequence k) { return k.toString(QKeySequence::NativeText); };
    for (const QString& expected : {
             QStringLiteral("File|Open dataset...|%1").arg(keys(QKeySequence::Open)),
             QStringLiteral("File|Export factors (MATLAB)...|%1").arg(keys(Qt::CTRL | Qt::Key_E)),
             QStringLiteral("File|Save session as...|%1")
                 .arg(keys(QKeySequence(QKeySequence::SaveAs).isEmpty()
                         ? QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_S)
                         : QKeySequence(QKeySequence::SaveAs))),
             QStringLiteral("Edit|Undo|%1").arg(keys(QKeySequence::Undo)),
             QStringLiteral("Run|Continue the shown run|%1")
                 .arg(keys(Qt::CTRL | Qt::SHIFT | Qt::Key_C)),
             QStringLiteral("Help|Keyboard shortcuts|%1").arg(keys(QKeySequence::HelpContents)),
             QStringLiteral("Runs|Delete|%1").arg(keys(QKeySequence::Delete)),
             QStringLiteral("Runs|Rename|F2"),
         })
        QVERIFY2(rows.contains(expected),
            qPrintable(expected + QStringLiteral("\nnot in\n") + rows.join(u'\n')));
    // No key sequence does two things.
    QStringList bound;
    for (int r = 0; r < table->rowCount(); ++r)
        bound << table->item(r, 2)->text();
    QCOMPARE(QSet<QString>(bound.begin(), bound.end()).size(), bound.size());
    // Triggered again, the same dialog comes forward.
    action->trigger();
    QCOMPARE(window->findChildren<ShortcutsDialog*>().size(), 1);
    saveScreenshot(*dialog, QStringLiteral("shortcuts_dialog.png"));
}

void TestMainWindow::openingAFileAddsItToRecentFiles()
{
    const QString path = facetDataFile(QStringLiteral("ORL_32x32.mat"));
    FACET_REQUIRE_DATA(path);
    auto window = makeWindow();
    QSignalSpy loaded(window.get(), &MainWindow::datasetLoaded);
    window->openDataset(path);
    QVERIFY(loaded.wait(kLoadTimeoutMs));
    QCOMPARE(window->dataset()->samples(), 400);
    QCOMPARE(window->dataset()->classCount(), 40);
    const QStringList recent = QSettings().value(QStringLiteral("recentFiles")).toStringList();
    QCOMPARE(recent.value(0), QFileInfo(path).absoluteFilePath());
}

void TestMainWindow::aFileThatFailsToLoadKeepsTheDataset()
{
    auto window = makeWindow();
    QVERIFY(load(*window, QStringLiteral("builtin:swimmer")));
    QSignalSpy failed(window.get(), &MainWindow::datasetLoadFailed);
    window->openDataset(QDir::current().filePath(QStringLiteral("no_such_file.mat")));
    QVERIFY(failed.wait(kLoadTimeoutMs));
    QVERIFY2(window->statusBar()->currentMessage().contains(QStringLiteral("no_such_file.mat")),
        qPrintable(window->statusBar()->currentMessage()));
    QCOMPARE(window->dataset()->samples(), 256);
    QVERIFY(window->controlPanel()->runButton()->isEnabled());
}

// A 1366 x 768 laptop screen: the window, after a run with every view filled, could not be
// narrower than 1551 px (the representation's splitter asked for 660, the gallery's tools for
// 540, the confusion plot for 478), and at 700 px of height Run and the progress bar were
// below the controls' fold. Now it fits in 1280 x 700 with Run in view.
void TestMainWindow::fitsALaptopScreen()
{
    auto window = makeWindow();
    QVERIFY(load(*window, QStringLiteral("gen:400x1024"))); // 32 x 32 tiles, 10 classes
    ControlPanel* controls = window->controlPanel();
    QVERIFY(controls->setMethod(QStringLiteral("cf-ogl"))); // the longest parameter list
    controls->setRank(10);
    controls->setMaxIterations(3);
    QSignalSpy finished(window.get(), &MainWindow::runFinished);
    QTest::mouseClick(controls->runButton(), Qt::LeftButton);
    QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, kRunTimeoutMs);
    window->resize(1280, 700);
    QCoreApplication::processEvents();
    QCoreApplication::processEvents();
    const QSize minimum = window->minimumSizeHint().expandedTo(window->minimumSize());
    QVERIFY2(minimum.width() <= 1280,
        qPrintable(QStringLiteral("minimum width %1").arg(minimum.width())));
    QVERIFY2(window->width() <= 1280, qPrintable(QString::number(window->width())));
    for (QWidget* widget : { static_cast<QWidget*>(controls->runButton()),
             static_cast<QWidget*>(controls->progressBar()) }) {
        QVERIFY(widget->isVisible());
        const QRect inWindow(widget->mapTo(window.get(), QPoint(0, 0)), widget->size());
        QVERIFY2(window->rect().contains(inWindow),
            qPrintable(QStringLiteral("%1 at %2,%3 in a %4 x %5 window")
                           .arg(widget->objectName())
                           .arg(inWindow.x())
                           .arg(inWindow.y())
                           .arg(window->width())
                           .arg(window->height())));
        // Not scrolled out of the controls' viewport either.
        const auto* scroll = window->findChild<QScrollArea*>(QStringLiteral("controlsScroll"));
        QVERIFY(scroll);
        QVERIFY(!scroll->widget()->isAncestorOf(widget));
    }
    // The panel scrolls instead of pressing its rows below their natural height (CF_OGL's
    // rows overlapped, a spin box's digits cut in half).
    QVERIFY2(controls->height() >= controls->sizeHint().height(),
        qPrintable(
            QStringLiteral("%1 of %2").arg(controls->height()).arg(controls->sizeHint().height())));
    window->grab().save(QStringLiteral("main_window_1280x700.png"));
}

// `facet --help` and `facet --version` print and exit 0 on a machine without a display (issue
// 37), where a QApplication cannot start: the platform is left to Qt's default (xcb) with no
// display to connect to.
void TestMainWindow::helpAndVersionNeedNoDisplay()
{
    const QStringList noDisplay { QStringLiteral("DISPLAY="), QStringLiteral("WAYLAND_DISPLAY="),
        QStringLiteral("QT_QPA_PLATFORM=") };
    ChildProcess version;
    version.setEnvironment(noDisplay);
    QVERIFY(version.start(QStringLiteral(FACET_GUI_PATH), { QStringLiteral("--version") }));
    QVERIFY(version.waitForFinished(60000));
    QVERIFY2(version.exitCode() == 0, qPrintable(version.err()));
    QVERIFY2(version.out().contains(QStringLiteral("Facet 0.1.0")), qPrintable(version.out()));
    ChildProcess help;
    help.setEnvironment(noDisplay);
    QVERIFY(help.start(QStringLiteral(FACET_GUI_PATH), { QStringLiteral("--help") }));
    QVERIFY(help.waitForFinished(60000));
    QVERIFY2(help.exitCode() == 0, qPrintable(help.err()));
    QVERIFY2(help.out().contains(QStringLiteral("--screenshot")), qPrintable(help.out()));
}

#include "facet_test.h"
FACET_TEST_MAIN(TestMainWindow)
#include "test_main_window.moc"

// Data > Export prepared dataset (and File > Export factors) onto the file the dataset was
// opened from would replace the source with what was made from it: refused, the file kept.
void TestMainWindow::exportsNeverReplaceTheOpenFile()
{
    auto window = makeWindow();
    QVERIFY(load(*window, QStringLiteral("builtin:swimmer")));
    QTemporaryDir dir;
    const QString source = dir.filePath(QStringLiteral("swimmer.mat"));
    QVERIFY(window->exportDataset(source));
    QVERIFY(load(*window, source));
    QFile file(source);
    QVERIFY(file.open(QIODevice::ReadOnly));
    const QByteArray before = file.readAll();
    file.close();
    QVERIFY(!window->exportDataset(source));
    QVERIFY2(window->statusBar()->currentMessage().contains(QStringLiteral("is the input")),
        qPrintable(window->statusBar()->currentMessage()));
    QVERIFY(file.open(QIODevice::ReadOnly));
    QCOMPARE(file.readAll(), before);
    file.close();
    QVERIFY(window->exportDataset(dir.filePath(QStringLiteral("copy.mat"))));
}
