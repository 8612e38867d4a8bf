// SPDX-License-Identifier: GPL-3.0-or-later
// Closing the main window while work is under way (RELIABILITY.md): mid-load, mid-solve at random
// moments, mid-experiment and while an experiment is still preparing its data. Each close must
// join the workers, destroy the window cleanly and leave no queued answer pointing at it (the
// asan and tsan presets run this file).
#include "controls/control_panel.h"
#include "experiment/experiment_form.h"
#include "experiment/experiment_view.h"
#include "main_window/main_window.h"
#include "main_window_fixture.h"
#include "views/convergence_plot.h"

#include <QDir>
#include <QPushButton>
#include <QSignalSpy>
#include <QtTest>

#include <memory>
#include <random>

using namespace facet;
using namespace facet::testing;

namespace {

constexpr int kCloseTimeoutMs = 120000;
constexpr QSize kWindowSize { 1200, 800 };

void startLongRun(MainWindow& window)
{
    ControlPanel* controls = window.controlPanel();
    controls->setMethod(QStringLiteral("cf"));
    controls->setRank(6);
    controls->setMaxIterations(10000000);
    controls->setTolerance(0);
    QTest::mouseClick(controls->runButton(), Qt::LeftButton);
}

// Closes and destroys the window, then runs the event loop so any answer a worker queued before
// it stopped is delivered now: it must find nobody rather than a deleted window.
void closeAndDestroy(std::unique_ptr<MainWindow>& window)
{
    QVERIFY(window->close());
    QVERIFY(!window->isWorkerRunning());
    QVERIFY(!window->isRunning());
    window.reset();
    QTest::qWait(50);
}

void startExperiment(MainWindow& window, int trials)
{
    window.showExperiment();
    ExperimentView* view = window.experimentView();
    view->form()->setCheckedMethods(
        { QStringLiteral("nmf"), QStringLiteral("cf"), QStringLiteral("lccf") });
    view->form()->setClusterCounts(QStringLiteral("2-3"));
    view->form()->setTrials(trials);
    QTest::mouseClick(
        view->findChild<QPushButton*>(QStringLiteral("experimentStart")), Qt::LeftButton);
}

} // namespace

class TestCloseMidRun : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void closeWhileLoading()
    {
        auto window = makeWindow(kWindowSize);
        window->openDataset(QStringLiteral("builtin:gaussians"));
        closeAndDestroy(window);
    }

    // Ten runs, each closed after a seeded random wait (0-300 ms, so before, around and after
    // the first progress batch).
    void closeMidSolveAtRandomMoments()
    {
        std::mt19937 random(8);
        for (int i = 0; i < 10; ++i) {
            auto window = makeWindow(kWindowSize);
            QVERIFY(load(*window, QStringLiteral("builtin:swimmer"), kCloseTimeoutMs));
            startLongRun(*window);
            QVERIFY(window->isRunning());
            QTest::qWait(int(random() % 300));
            if (i == 0) {
                QTRY_VERIFY_WITH_TIMEOUT(
                    window->convergencePlot()->pointCount() > 0, kCloseTimeoutMs);
                QVERIFY(window->grab().save(
                    QDir::current().filePath(QStringLiteral("close_midrun_solving.png"))));
            }
            closeAndDestroy(window);
        }
    }

    void closeMidExperiment()
    {
        auto window = makeWindow(kWindowSize);
        QVERIFY(load(*window, QStringLiteral("builtin:gaussians"), kCloseTimeoutMs));
        startExperiment(*window, 2000);
        ExperimentView* view = window->experimentView();
        QVERIFY(view->isRunning());
        // Closed with cells finished and cells still running.
        QTest::qWait(150);
        QVERIFY(view->isRunning());
        QVERIFY(view->grab().save(
            QDir::current().filePath(QStringLiteral("close_midrun_experiment.png"))));
        closeAndDestroy(window);
    }

    // Closed at once: the experiment is still preparing its data on the thread pool.
    void closeWhileExperimentPrepares()
    {
        for (int i = 0; i < 5; ++i) {
            auto window = makeWindow(kWindowSize);
            QVERIFY(load(*window, QStringLiteral("builtin:gaussians"), kCloseTimeoutMs));
            startExperiment(*window, 5);
            closeAndDestroy(window);
        }
    }
};

#include "facet_test.h"
FACET_TEST_MAIN(TestCloseMidRun)
#include "test_close_midrun.moc"
