// SPDX-License-Identifier: GPL-3.0-or-later
// The run history and sessions in the main window: every run is kept, a kept run shows again in
// the views, Re-run repeats it exactly, and a session saved and opened in a new window brings
// the dataset and the runs back; a damaged session changes nothing.

#include "controls/control_panel.h"
#include "controls/parameter_panel.h"
#include "data/noise.h"
#include "main_window/main_window.h"
#include "main_window_fixture.h"
#include "models/run_history_model.h"
#include "runs/run_history_view.h"
#include "views/basis_gallery.h"
#include "views/convergence_plot.h"

#include <QCheckBox>
#include <QComboBox>
#include <QFile>
#include <QItemSelectionModel>
#include <QMenu>
#include <QMenuBar>
#include <QProgressBar>
#include <QPushButton>
#include <QSettings>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QStatusBar>
#include <QTableView>
#include <QTemporaryDir>
#include <QToolButton>
#include <QtTest>

#include <algorithm>
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
    void continueTheShownRun();
    void runsKnowTheirDataset();
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

    // The first run again in the views, and its parameters in Controls (issue 37: Controls kept
    // the last ones typed, rank 6 beside a k = 12 run).
    QVERIFY(window->showRun(runs->run(0).id));
    QCOMPARE(window->basisGallery()->imageCount(), 12);
    QCOMPARE(window->lastResult()->factorization.history, first);
    QCOMPARE(controls->runOptions().params.rank, 12);
    QCOMPARE(controls->runOptions().driver.seed, 1u);

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
    QCOMPARE(controls->rank(), 6);
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
    double setupSeconds = -1, clusterSeconds = -1;
    {
        auto window = makeWindow();
        QVERIFY(load(*window, QStringLiteral("builtin:swimmer")));
        window->controlPanel()->setMethod(QStringLiteral("cf"));
        window->controlPanel()->setRank(9);
        window->controlPanel()->setMaxIterations(40);
        QVERIFY(run(*window, 7));
        history = window->lastResult()->factorization.history;
        W = window->lastResult()->factorization.W;
        setupSeconds = window->lastResult()->setupSeconds;
        clusterSeconds = window->lastResult()->clusterSeconds;
        QVERIFY(window->saveSession(path));
        QCOMPARE(window->sessionPath(), path);
    }
    auto window = makeWindow();
    QSignalSpy loaded(window.get(), &MainWindow::datasetLoaded);
    QVERIFY(window->openSession(path));
    QVERIFY(loaded.wait(kRunTimeoutMs) || loaded.count() == 1);
    QCOMPARE(window->dataset()->name, QStringLiteral("Swimmer"));
    QCOMPARE(window->runHistory()->runCount(), 1);
    // The run on screen at save time is on screen again once the data has loaded (issue 37).
    QVERIFY(window->lastResult());
    QCOMPARE(window->lastResult()->factorization.history, history);
    QCOMPARE(window->basisGallery()->imageCount(), 9);
    QCOMPARE(window->controlPanel()->rank(), 9);
    QVERIFY(window->showRun(window->runHistory()->run(0).id));
    QCOMPARE(window->lastResult()->factorization.history, history);
    QCOMPARE(window->basisGallery()->imageCount(), 9);
    // CF's W comes back with the session, so an export of the shown run holds it.
    QCOMPARE(W.cols(), 9);
    QVERIFY(window->lastResult()->factorization.W == W);
    // So do the run's set-up and clustering times (a report of the shown run splits them).
    QVERIFY(clusterSeconds > 0);
    QCOMPARE(window->lastResult()->setupSeconds, setupSeconds);
    QCOMPARE(window->lastResult()->clusterSeconds, clusterSeconds);

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

// Issue 37: a run records the data it factorized, not only its shape. Swimmer and Swimmer with
// noise have one shape; a run of one is refused over the other, the refusal names the run's
// data, and Open Run's Dataset (also after a session round trip) loads the right one and shows
// the run. The table and the tooltip name the data.
void TestMainWindowSession::runsKnowTheirDataset()
{
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("two.facet.json"));
    {
        auto window = makeWindow();
        DatasetRequest noisy = window->requestFor(QStringLiteral("builtin:swimmer"));
        noisy.preprocess.noise = *parseNoise(QStringLiteral("gaussian:0.05"), 3);
        QVERIFY(load(*window, QStringLiteral("builtin:swimmer")));
        const DatasetIdentity clean = window->openDatasetIdentity();
        QCOMPARE(clean.sha256, dataSha256(window->dataset()->X));
        window->controlPanel()->setMethod(QStringLiteral("nmf"));
        window->controlPanel()->setRank(5);
        window->controlPanel()->setMaxIterations(20);
        QVERIFY(run(*window, 1));
        const RunRecord& first = window->runHistory()->run(0);
        QCOMPARE(first.dataset.sha256, clean.sha256);
        QCOMPARE(first.dataset.name, QStringLiteral("Swimmer"));
        QVERIFY(!first.dataset.sampleL2);
        QCOMPARE(window->runHistory()->index(0, RunHistoryModel::DatasetColumn).data().toString(),
            QStringLiteral("Swimmer"));

        QVERIFY(load(*window, noisy));
        QCOMPARE(window->dataset()->samples(), 256); // the same shape
        QVERIFY(window->openDatasetIdentity().sha256 != clean.sha256);
        QVERIFY(!window->showRun(window->runHistory()->run(0).id));
        const QString refusal = window->statusBar()->currentMessage();
        QVERIFY2(refusal.contains(QStringLiteral("was made on Swimmer (builtin:swimmer, scaled "
                                                 "to [0, 1]; sha256 %1")
                                      .arg(clean.sha256.left(12))),
            qPrintable(refusal));
        QVERIFY2(refusal.contains(QStringLiteral("noise gaussian:0.05")), qPrintable(refusal));
        // A CF run on the noisy set records that it saw each sample at unit norm.
        window->controlPanel()->setMethod(QStringLiteral("cf"));
        QVERIFY(run(*window, 2));
        QVERIFY(window->runHistory()->run(1).dataset.sampleL2);
        QVERIFY(window->saveSession(path));
    }
    auto window = makeWindow();
    QSignalSpy loaded(window.get(), &MainWindow::datasetLoaded);
    QVERIFY(window->openSession(path));
    QVERIFY(loaded.wait(kLoadTimeoutMs) || loaded.count() == 1);
    QVERIFY(window->lastResult()); // the noisy set's CF run, shown at save time
    const int firstId = window->runHistory()->run(0).id;
    QVERIFY(!window->showRun(firstId));
    // Open Run's Dataset, from the table's selection as a user would.
    RunHistoryView* view = window->runHistoryView();
    view->table()->selectRow(0);
    QVERIFY(view->openDatasetAction()->isEnabled());
    view->openDatasetAction()->trigger();
    QVERIFY(loaded.wait(kLoadTimeoutMs) || loaded.count() == 2);
    QCOMPARE(window->openDatasetIdentity().sha256, window->runHistory()->run(0).dataset.sha256);
    QCOMPARE(window->controlPanel()->rank(), 5); // the run is shown
    QCOMPARE(window->lastResult()->factorization.history, window->runHistory()->run(0).history);
}

// Run > Continue the shown run: 20 NMF iterations, then 20 more from their factors, give the
// objectives of one 40-iteration run (the rules commute with the final normalization's scaling).
// The continued run is kept; after a session round trip its factors' source is named but not
// held, so Re-run refuses it instead of repeating something else.
void TestMainWindowSession::continueTheShownRun()
{
    auto window = makeWindow();
    QVERIFY(load(*window, QStringLiteral("builtin:swimmer")));
    auto* action = window->findChild<QAction*>(QStringLiteral("continueAction"));
    QVERIFY(action && !action->isEnabled());
    ControlPanel* controls = window->controlPanel();
    QVERIFY(controls->setMethod(QStringLiteral("nmf")));
    // The mu rules commute with the normalization of the factors a run is continued from; an
    // extrapolated run (NMF's default, hals-ex) continues from them with a fresh direction.
    auto* algorithm = window->findChild<QComboBox*>(QStringLiteral("algorithmCombo"));
    QVERIFY(algorithm);
    algorithm->setCurrentIndex(algorithm->findData(QStringLiteral("mu")));
    controls->setRank(8);
    controls->setTolerance(0);
    controls->setMaxIterations(40);
    QVERIFY(run(*window, 3));
    const std::vector<double> whole = window->lastResult()->factorization.history;
    controls->setMaxIterations(20);
    QVERIFY(run(*window, 3));
    QVERIFY(action->isEnabled());

    const std::vector<double> before = window->lastResult()->factorization.history;
    QSignalSpy finished(window.get(), &MainWindow::runFinished);
    action->trigger();
    // The curve goes on from the run it continues: its 20 iterations are drawn at the start.
    QCOMPARE(window->convergencePlot()->pointCount(), 20);
    QVERIFY(finished.wait(kRunTimeoutMs) || finished.count() == 1);
    // The continued run counts on: iterations 21..40 of the uninterrupted run, after the 20 it
    // continues; the progress bar counts the new ones against Max iterations.
    const Factorization& f = window->lastResult()->factorization;
    const std::vector<double>& continued = f.history;
    QCOMPARE(f.iterations, 40);
    QCOMPARE(int(continued.size()), 40);
    QVERIFY(std::equal(before.begin(), before.end(), continued.begin()));
    for (std::size_t t = 20; t < 40; ++t)
        QVERIFY2(std::abs(continued[t] - whole[t]) <= 1e-9 * whole[t],
            qPrintable(QStringLiteral("%1: %2 vs %3").arg(t).arg(continued[t]).arg(whole[t])));
    QVERIFY(f.segmentStarts.empty()); // NMF's factors end where its objective did
    QCOMPARE(window->convergencePlot()->pointCount(), 40);
    QCOMPARE(controls->progressBar()->value(), 20);
    QCOMPARE(controls->progressBar()->maximum(), 20);
    RunHistoryModel* runs = window->runHistory();
    QCOMPARE(runs->runCount(), 3);
    QVERIFY(runs->run(2).name.contains(QStringLiteral("continued")));
    window->resize(1400, 900);
    QCoreApplication::processEvents(); // the plot's queued replot
    QVERIFY(window->grab().save(QStringLiteral("main_window_continued.png")));
    for (QMenu* menu : window->menuBar()->findChildren<QMenu*>())
        if (menu->title() == QStringLiteral("&Run") || menu->title() == QStringLiteral("&File")) {
            menu->adjustSize();
            QVERIFY(menu->grab().save(
                QStringLiteral("main_window_menu_%1.png").arg(menu->title().mid(1).toLower())));
        }
    QVERIFY(runs->run(2).options.driver.start);

    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("continued.facet.json"));
    QVERIFY(window->saveSession(path));
    auto reopened = makeWindow();
    QSignalSpy loaded(reopened.get(), &MainWindow::datasetLoaded);
    QVERIFY(reopened->openSession(path));
    QVERIFY(loaded.wait(kRunTimeoutMs) || loaded.count() == 1);
    const RunRecord& record = reopened->runHistory()->run(2);
    QVERIFY(!record.options.driver.start);
    QVERIFY(!record.options.driver.startSource.empty());
    reopened->runHistoryView()->table()->selectRow(2);
    QTest::mouseClick(reopened->runHistoryView()->rerunButton(), Qt::LeftButton);
    QVERIFY(!reopened->isRunning());
    QVERIFY2(reopened->statusBar()->currentMessage().startsWith(QStringLiteral("Cannot re-run")),
        qPrintable(reopened->statusBar()->currentMessage()));

    // LCCF's saved factors are normalized, which changes its graph term: the continued part is a
    // new segment, a dashed line in the plot.
    QVERIFY(controls->setMethod(QStringLiteral("lccf")));
    controls->setMaxIterations(15);
    QVERIFY(run(*window, 5));
    QVERIFY(action->isEnabled());
    QSignalSpy graphFinished(window.get(), &MainWindow::runFinished);
    action->trigger();
    QVERIFY(graphFinished.wait(kRunTimeoutMs) || graphFinished.count() == 1);
    QCOMPARE(window->lastResult()->factorization.iterations, 30);
    QCOMPARE(window->lastResult()->factorization.segmentStarts, std::vector<int> { 15 });
    QCOMPARE(window->convergencePlot()->segmentMarkerCount(), 1);
    QCoreApplication::processEvents();
    QVERIFY(window->grab().save(QStringLiteral("main_window_continued_lccf.png")));

    // CNMF keeps Z (V = A Z); it continues from V's fit, with the same samples labelled.
    QVERIFY(load(*window, QStringLiteral("builtin:gaussians")));
    QVERIFY(controls->setMethod(QStringLiteral("cnmf")));
    controls->setRank(2);
    controls->setMaxIterations(10);
    controls->parameterPanel()->setLabeledFraction(0.3);
    QVERIFY(run(*window, 4));
    const std::vector<double> labelledBefore = window->lastResult()->factorization.history;
    QVERIFY(std::count_if(window->lastResult()->knownLabels.begin(),
                window->lastResult()->knownLabels.end(), [](int l) { return l >= 0; })
        > 0);
    QVERIFY(action->isEnabled());
    QSignalSpy continuedFinished(window.get(), &MainWindow::runFinished);
    action->trigger();
    QVERIFY(continuedFinished.wait(kRunTimeoutMs) || continuedFinished.count() == 1);
    QCOMPARE(window->lastResult()->factorization.iterations, 20);
    QVERIFY(std::equal(labelledBefore.begin(), labelledBefore.end(),
        window->lastResult()->factorization.history.begin()));
    QVERIFY(window->lastResult()->factorization.segmentStarts.empty());

    // NCW runs on the weighted data; the shown factors are mapped back, and Continue maps them
    // into the weighted problem again: 10 + 10 without a new segment.
    controls->parameterPanel()->setLabeledFraction(0);
    QVERIFY(controls->setMethod(QStringLiteral("cf")));
    auto* ncw = controls->parameterPanel()->findChild<QCheckBox*>(QStringLiteral("ncwCheck"));
    QVERIFY(ncw && ncw->isEnabled());
    ncw->setChecked(true);
    QVERIFY(run(*window, 4));
    QVERIFY(window->lastSubmittedOptions().params.ncw);
    const std::vector<double> weightedBefore = window->lastResult()->factorization.history;
    QVERIFY(action->isEnabled());
    QSignalSpy weightedFinished(window.get(), &MainWindow::runFinished);
    action->trigger();
    QVERIFY(weightedFinished.wait(kRunTimeoutMs) || weightedFinished.count() == 1);
    QVERIFY(window->lastSubmittedOptions().params.ncw);
    QCOMPARE(window->lastResult()->factorization.iterations, 20);
    QVERIFY(std::equal(weightedBefore.begin(), weightedBefore.end(),
        window->lastResult()->factorization.history.begin()));
    QVERIFY(window->lastResult()->factorization.segmentStarts.empty());
    ncw->setChecked(false);

    // Methods whose factors are not (U, V) or (W, V) cannot be continued.
    QVERIFY(controls->setMethod(QStringLiteral("kmeans")));
    QVERIFY(run(*window, 3));
    QVERIFY(!action->isEnabled());
}

#include "facet_test.h"
FACET_TEST_MAIN(TestMainWindowSession)
#include "test_main_window_session.moc"
