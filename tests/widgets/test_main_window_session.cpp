// SPDX-License-Identifier: GPL-3.0-or-later
// The run history and sessions in the main window: every run is kept, a kept run shows again in
// the views, Re-run repeats it exactly, and a session saved and opened in a new window brings
// the dataset and the runs back; a damaged session changes nothing.

#include "basis_gallery.h"
#include "control_panel.h"
#include "convergence_plot.h"
#include "main_window.h"
#include "main_window_fixture.h"
#include "models/run_history_model.h"
#include "run_history_view.h"

#include <QFile>
#include <QItemSelectionModel>
#include <QPushButton>
#include <QSettings>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTableView>
#include <QTemporaryDir>
#include <QToolButton>
#include <QtTest>

#include <memory>

using namespace facet;
using namespace facet::testing;

namespace {

bool run(MainWindow& window, int seed)
{
    QSignalSpy finished(&window, &MainWindow::runFinished);
    window.controlPanel()->setSeed(seed);
    QTest::mouseClick(window.controlPanel()->runButton(), Qt::LeftButton);
    return finished.wait(kRunTimeoutMs) || finished.count() == 1;
}

} // namespace

class TestMainWindowSession : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void historyKeepsShowsAndRerunsRuns();
    void sessionRoundTripAndDamagedFile();
};

void TestMainWindowSession::initTestCase()
{
    useTestSettings(QStringLiteral("widgets_main_window_session"));
}

void TestMainWindowSession::historyKeepsShowsAndRerunsRuns()
{
    auto window = makeWindow();
    QVERIFY(load(*window, QStringLiteral("builtin:swimmer")));
    ControlPanel* controls = window->controlPanel();
    QVERIFY(controls->setMethod(QStringLiteral("nmf")));
    controls->setRank(12);
    controls->setMaxIterations(60);
    QVERIFY(run(*window, 1));
    const std::vector<double> first = window->lastResult()->factorization.history;
    controls->setRank(6);
    QVERIFY(run(*window, 2));
    RunHistoryModel* runs = window->runHistory();
    QCOMPARE(runs->runCount(), 2);
    QCOMPARE(runs->run(0).options.driver.seed, 1u);
    QCOMPARE(runs->run(1).options.params.rank, 6);

    // The first run again in the views.
    QVERIFY(window->showRun(runs->run(0).id));
    QCOMPARE(window->basisGallery()->imageCount(), 12);
    QCOMPARE(window->lastResult()->factorization.history, first);

    // Re-run through the history's own button repeats it exactly.
    RunHistoryView* view = window->runHistoryView();
    view->table()->selectRow(0);
    QVERIFY(view->rerunButton()->isEnabled());
    QSignalSpy finished(window.get(), &MainWindow::runFinished);
    QTest::mouseClick(view->rerunButton(), Qt::LeftButton);
    QVERIFY(finished.wait(kRunTimeoutMs) || finished.count() == 1);
    QCOMPARE(window->lastSubmittedOptions().driver.seed, 1u);
    QCOMPARE(window->lastResult()->factorization.history, first);
    QCOMPARE(runs->runCount(), 3);

    // Show (the button) puts a kept run back into the views; Overlay adds curves with a legend.
    view->table()->selectRow(1);
    QTest::mouseClick(view->showButton(), Qt::LeftButton);
    QCOMPARE(window->basisGallery()->imageCount(), 6);
    view->table()->selectAll();
    QTest::mouseClick(view->overlayButton(), Qt::LeftButton);
    QCOMPARE(window->convergencePlot()->overlayNames().size(), 2); // two names, three runs
    QVERIFY(window->convergencePlot()->legendNames().contains(runs->run(1).name));
    QCoreApplication::processEvents(); // the plot's queued replot
    QVERIFY(window->grab().save(QStringLiteral("main_window_runs.png")));
}

void TestMainWindowSession::sessionRoundTripAndDamagedFile()
{
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("work.facet.json"));
    std::vector<double> history;
    Matrix W;
    {
        auto window = makeWindow();
        QVERIFY(load(*window, QStringLiteral("builtin:swimmer")));
        window->controlPanel()->setMethod(QStringLiteral("cf"));
        window->controlPanel()->setRank(9);
        window->controlPanel()->setMaxIterations(40);
        QVERIFY(run(*window, 7));
        history = window->lastResult()->factorization.history;
        W = window->lastResult()->factorization.W;
        QVERIFY(window->saveSession(path));
        QCOMPARE(window->sessionPath(), path);
    }
    auto window = makeWindow();
    QSignalSpy loaded(window.get(), &MainWindow::datasetLoaded);
    QVERIFY(window->openSession(path));
    QVERIFY(loaded.wait(kRunTimeoutMs) || loaded.count() == 1);
    QCOMPARE(window->dataset()->name, QStringLiteral("Swimmer"));
    QCOMPARE(window->runHistory()->runCount(), 1);
    QVERIFY(window->showRun(window->runHistory()->run(0).id));
    QCOMPARE(window->lastResult()->factorization.history, history);
    QCOMPARE(window->basisGallery()->imageCount(), 9);
    // CF's W comes back with the session, so an export of the shown run holds it.
    QCOMPARE(W.cols(), 9);
    QVERIFY(window->lastResult()->factorization.W == W);

    // A damaged file: a clear error, the history and the dataset unchanged, the file untouched.
    const QString damaged = dir.filePath(QStringLiteral("damaged.json"));
    QFile file(damaged);
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.write("{\"format\": \"facet-session\", \"version\": 1, \"runs\": [");
    file.close();
    QVERIFY(!window->openSession(damaged));
    QCOMPARE(window->runHistory()->runCount(), 1);
    QCOMPARE(window->sessionPath(), path);
    QCOMPARE(window->dataset()->name, QStringLiteral("Swimmer"));
}

QTEST_MAIN(TestMainWindowSession)
#include "test_main_window_session.moc"
