// SPDX-License-Identifier: GPL-3.0-or-later
// Live tuning (issue 35): when auto re-run follows a change of a continuous parameter on the same
// data, method and rank, the new run starts from the shown run's factors and the Runs table says
// so; any other change starts afresh from the seed. While a newer run computes, the clusters and
// scores still shown say they are the previous run's.

#include "controls/control_panel.h"
#include "controls/log_slider.h"
#include "controls/parameter_panel.h"
#include "main_window/main_window.h"
#include "main_window_fixture.h"
#include "models/run_history_model.h"
#include "screenshot.h"
#include "views/basis_gallery.h"
#include "views/cluster_view.h"

#include <QCheckBox>
#include <QPushButton>
#include <QSignalSpy>
#include <QSlider>
#include <QtTest>

using namespace facet;
using namespace facet::testing;

class TestLiveTuning : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void initTestCase() { useTestSettings(QStringLiteral("widgets_live_tuning")); }
    void autoRerunWarmStartsAfterAContinuousChange();
};

void TestLiveTuning::autoRerunWarmStartsAfterAContinuousChange()
{
    auto window = makeWindow();
    QVERIFY(load(*window, QStringLiteral("builtin:swimmer")));
    ControlPanel* controls = window->controlPanel();
    QVERIFY(controls->setMethod(QStringLiteral("gnmf")));
    controls->setRank(17);
    controls->setMaxIterations(40);
    QSignalSpy finished(window.get(), &MainWindow::runFinished);
    QTest::mouseClick(controls->runButton(), Qt::LeftButton);
    QVERIFY(window->clusterView()->newerRunNote().isEmpty()); // nothing shown yet to be stale
    QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, kRunTimeoutMs);
    QVERIFY(!window->lastSubmittedOptions().driver.start);
    const Matrix shownV = window->lastResult()->factorization.V;

    // lambda moves: the re-run starts from the shown factors, counting from 1.
    QTest::mouseClick(controls->autoRerunCheck(), Qt::LeftButton);
    QVERIFY(controls->autoRerun());
    LogSlider* lambda = controls->parameterPanel()->lambdaSlider();
    // From the moment the re-run is submitted the shown clusters say they are the previous
    // run's, until the new run's arrive.
    QString noteAtStart;
    QString galleryNoteAtStart;
    const QMetaObject::Connection started
        = connect(window.get(), &MainWindow::runStarted, window.get(), [&] {
              noteAtStart = window->clusterView()->newerRunNote();
              galleryNoteAtStart = window->basisGallery()->newerRunNote();
              saveScreenshot(*window, QStringLiteral("live_tuning_newer_run.png"));
          });
    QTest::keyClick(lambda->slider(), Qt::Key_PageDown);
    QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 2, kRunTimeoutMs);
    disconnect(started);
    QVERIFY2(noteAtStart.contains(u"newer run"), qPrintable(noteAtStart));
    QVERIFY(window->clusterView()->newerRunNote().isEmpty());
    // The basis images too (issue 37): they are the previous run's until the new ones arrive.
    QVERIFY2(galleryNoteAtStart.contains(u"previous run's bases"), qPrintable(galleryNoteAtStart));
    QVERIFY(window->basisGallery()->newerRunNote().isEmpty());
    const RunOptions& warm = window->lastSubmittedOptions();
    QVERIFY(warm.driver.start);
    QCOMPARE(warm.driver.start->at(1), shownV);
    QVERIFY(warm.driver.startHistory.empty());
    QCOMPARE(warm.params.lambda, std::optional(lambda->value()));
    QVERIFY(QString::fromStdString(warm.driver.startSource).startsWith(u"warm start from"));
    RunHistoryModel* runs = window->runHistory();
    QCOMPARE(runs->rowCount(), 2);
    // Named by what the gesture changed (issue 37): the first run by method and rank alone.
    QCOMPARE(runs->run(0).name, QStringLiteral("GNMF k=17"));
    QCOMPARE(runs->run(1).name,
        QStringLiteral("GNMF k=17 λ=%1, warm start").arg(QString::number(lambda->value(), 'g', 4)));
    QVERIFY(runs->data(runs->index(1, 0), Qt::ToolTipRole).toString().contains(u"warm start"));
    saveScreenshot(*window, QStringLiteral("live_tuning_warm_start.png"));

    // The rank changes: a different problem, started afresh from the seed.
    controls->setRank(12);
    QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 3, kRunTimeoutMs);
    QVERIFY(!window->lastSubmittedOptions().driver.start);
    QCOMPARE(runs->run(2).name, QStringLiteral("GNMF k=12")); // the rank is the change
}

#include "facet_test.h"
FACET_TEST_MAIN(TestLiveTuning)
#include "test_live_tuning.moc"
