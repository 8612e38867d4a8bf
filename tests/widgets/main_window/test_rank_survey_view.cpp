// SPDX-License-Identifier: GPL-3.0-or-later
// Run > Rank survey (issue 38): on a generated labelled set the view runs on the pool, draws the
// consensus, dispersion and held-out curves, shows the ordered consensus of the suggested rank
// and says why; Cancel keeps the last survey; Export writes what facet-cli rank-survey writes.

#include "controls/control_panel.h"
#include "main_window/main_window.h"
#include "main_window_fixture.h"
#include "screenshot.h"
#include "survey/rank_survey_view.h"

#include <QDir>
#include <QFileInfo>
#include <QLabel>
#include <QLineEdit>
#include <QProgressBar>
#include <QPushButton>
#include <QSignalSpy>
#include <QSpinBox>
#include <QTemporaryDir>
#include <QtTest>
#include <qcustomplot.h>

using namespace facet;
using namespace facet::testing;

class TestRankSurveyView : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void initTestCase() { useTestSettings(QStringLiteral("widgets_rank_survey_view")); }

    void surveyShowsCurvesHeatmapAndSuggestion()
    {
        auto window = makeWindow();
        QVERIFY(load(*window, QStringLiteral("gen:120x36")));
        ControlPanel* controls = window->controlPanel();
        QVERIFY(controls->setMethod(QStringLiteral("nmf")));
        controls->setMaxIterations(80);
        window->showRankSurvey();
        RankSurveyView* view = window->rankSurveyView();
        QVERIFY(view->isVisible());
        view->ranksEdit()->setText(QStringLiteral("8-11"));
        view->runsSpin()->setValue(3);
        view->foldsSpin()->setValue(2);
        QSignalSpy finished(view, &RankSurveyView::finished);
        QTest::mouseClick(view->runButton(), Qt::LeftButton);
        QVERIFY(view->isRunning());
        QVERIFY(finished.wait(kRunTimeoutMs) || finished.count() == 1);
        QVERIFY(view->result().has_value());
        const RankSurveyResult& result = *view->result();
        QCOMPARE(result.rows.size(), std::size_t(4));
        QCOMPARE(result.rows.front().heldOut.count, 2);
        QCOMPARE(view->plot()->graphCount(), 3);
        const int suggested = result.byCophenetic.rank;
        QVERIFY(suggested >= 8 && suggested <= 11);
        QCOMPARE(view->shownRank(), suggested);
        QVERIFY(!view->heatmapLabel()->pixmap().isNull());
        QVERIFY2(view->suggestionLabel()->text().contains(
                     QStringLiteral("Consensus suggests k = %1").arg(suggested)),
            qPrintable(view->suggestionLabel()->text()));
        QVERIFY(view->suggestionLabel()->text().contains(QStringLiteral("Held-out error")));
        view->showRank(8);
        QCOMPARE(view->shownRank(), 8);
        view->showRank(suggested);
        saveScreenshot(*view->window(), QStringLiteral("rank_survey_view.png")); // the dock

        QTemporaryDir dir;
        const QString out = dir.filePath(QStringLiteral("survey"));
        QString error;
        QVERIFY2(view->exportTo(out, &error), qPrintable(error));
        for (const char* file : { "survey.json", "survey.csv", "survey.md", "consensus.svg" })
            QVERIFY2(QFileInfo::exists(QDir(out).filePath(QString::fromLatin1(file))), file);

        // Cancel: the run ends as cancelled and the finished survey stays.
        view->ranksEdit()->setText(QStringLiteral("2-30"));
        QTest::mouseClick(view->runButton(), Qt::LeftButton);
        view->cancel();
        QVERIFY(finished.wait(kRunTimeoutMs) || finished.count() == 2);
        QCOMPARE(view->result()->rows.size(), std::size_t(4));
        QCOMPARE(view->findChild<QProgressBar*>()->format(), QStringLiteral("cancelled"));
    }
};

#include "facet_test.h"
FACET_TEST_MAIN(TestRankSurveyView)
#include "test_rank_survey_view.moc"
