// SPDX-License-Identifier: GPL-3.0-or-later
// The cluster view's Confusion tab on real runs: the heatmap holds the contingency table in the
// order of AC's matching (its diagonal adds up to n * AC), counts are written when they fit, and
// unlabelled data gets a note instead of a matrix.

#include "common/image_grid.h"
#include "metrics/clustering_metrics.h"
#include "small_run.h"
#include "views/cluster_view.h"
#include "views/confusion_heatmap.h"

#include <QLabel>
#include <QSignalSpy>
#include <QTabBar>
#include <QTabWidget>
#include <QtTest>
#include <qcustomplot.h>

using namespace facet;
using namespace facet::testing;

class TestClusterConfusion : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void confusionTabShowsTheMatchedTable();
    void countsAreWrittenOnlyWhenTheyFit();
    void unlabelledDataHasANote();
    void headingsSayWhetherAClassDominates();
};

void TestClusterConfusion::confusionTabShowsTheMatchedTable()
{
    FACET_LOAD_ORL(data, 6);
    const RunResult result = runMethod(data, "nmf", 6);
    QVERIFY(result.ac.has_value());

    ClusterView view;
    view.resize(900, 700);
    view.show();
    view.setResult(data, result);
    // The images tab keeps working as before.
    QCOMPARE(view.clusterCount(), result.clusters);
    QCOMPARE(view.thumbnailCount(), 60);
    QVERIFY(view.scoreText().contains(QStringLiteral("AC")));
    QCOMPARE(view.tabs()->currentIndex(), 0);

    // A click on a thumbnail names its sample, for the reconstruction view.
    QSignalSpy activated(&view, &ClusterView::sampleActivated);
    const QRect tile = view.grid()->tileRect(1, 2);
    QVERIFY(!tile.isEmpty());
    QTest::mouseClick(view.grid(), Qt::LeftButton, {}, tile.center());
    QCOMPARE(activated.count(), 1);
    const int clicked = activated.at(0).at(0).toInt();
    QCOMPARE(clicked, view.sampleAt(1, 2));
    QCOMPARE(result.predicted[std::size_t(clicked)], 1);

    QTabBar* bar = view.tabs()->tabBar();
    QTest::mouseClick(bar, Qt::LeftButton, {}, bar->tabRect(1).center());
    QCOMPARE(view.tabs()->currentWidget(), static_cast<QWidget*>(view.confusion()));
    QCoreApplication::processEvents();
    view.confusion()->plot()->replot();

    ConfusionHeatmap* heatmap = view.confusion();
    QVERIFY(heatmap->hasMatrix());
    const ConfusionMatrix& cm = heatmap->matrix();
    QCOMPARE(int(cm.counts.rows()), data.classCount());
    QCOMPARE(int(cm.counts.cols()), result.clusters);
    QCOMPARE(cm.counts.sum(), 60);
    QCOMPARE(double(cm.counts.trace()) / 60, *result.ac);
    // What is drawn is that table: the colour map's cells hold the counts.
    auto* map = qobject_cast<QCPColorMap*>(heatmap->plot()->plottable(0));
    QVERIFY(map);
    QCOMPARE(map->data()->keySize(), result.clusters);
    QCOMPARE(map->data()->valueSize(), data.classCount());
    for (int i = 0; i < int(cm.counts.rows()); ++i)
        for (int j = 0; j < int(cm.counts.cols()); ++j)
            QCOMPARE(int(map->data()->cell(j, i)), cm.counts(i, j));
    // At this size every non-zero count is written in its cell.
    QCOMPARE(heatmap->writtenCountCells(), int((cm.counts.array() > 0).count()));
    saveScreenshot(view, QStringLiteral("cluster_confusion_orl6.png"));

    const QString png = QDir::current().filePath(QStringLiteral("cluster_confusion_export.png"));
    const QString pdf = QDir::current().filePath(QStringLiteral("cluster_confusion_export.pdf"));
    QVERIFY(heatmap->exportPlot(png).ok());
    QVERIFY(heatmap->exportPlot(pdf).ok());
    QVERIFY(!QImage(png).isNull());
    QVERIFY(QFileInfo(pdf).size() > 0);
    QVERIFY(!heatmap->exportPlot(QDir::current().filePath(QStringLiteral("x.bmpx"))).ok());
}

void TestClusterConfusion::countsAreWrittenOnlyWhenTheyFit()
{
    FACET_LOAD_ORL(data, 20);
    const RunResult result = runMethod(data, "nmf", 20, 80);
    ConfusionHeatmap heatmap;
    heatmap.resize(1000, 900);
    heatmap.show();
    heatmap.setResult(data, result);
    heatmap.plot()->replot();
    const int nonZero = int((heatmap.matrix().counts.array() > 0).count());
    QCOMPARE(heatmap.writtenCountCells(), nonZero);
    saveScreenshot(heatmap, QStringLiteral("cluster_confusion_orl20.png"));

    heatmap.resize(320, 260); // cells of a few pixels: colour only
    QCoreApplication::processEvents();
    heatmap.plot()->replot();
    QCOMPARE(heatmap.writtenCountCells(), 0);
    QCOMPARE(double(heatmap.matrix().matchedCount()) / data.samples(), *result.ac);
    saveScreenshot(heatmap, QStringLiteral("cluster_confusion_orl20_small.png"));
}

void TestClusterConfusion::unlabelledDataHasANote()
{
    const Dataset swimmer = makeSwimmer();
    const RunResult result = runMethod(swimmer, "nmf", 8, 40);
    ClusterView view;
    view.resize(700, 500);
    view.show();
    view.setResult(swimmer, result);
    QCOMPARE(view.thumbnailCount(), 256);
    QVERIFY(!view.confusion()->hasMatrix());
    auto* note = view.confusion()->findChild<QLabel*>(QStringLiteral("confusionNote"));
    QVERIFY(note);
    QVERIFY(note->text().contains(QStringLiteral("No labels")));
    view.tabs()->setCurrentIndex(1);
    QVERIFY(note->isVisible());
    QVERIFY(!view.confusion()->plot()->isVisible());

    view.clear();
    QVERIFY(!view.confusion()->hasMatrix());
}

// A cluster's heading said "mostly class 1 (1 of 13)" for thirteen samples of thirteen classes.
void TestClusterConfusion::headingsSayWhetherAClassDominates()
{
    const QStringList names { QStringLiteral("a"), QStringLiteral("b"), QStringLiteral("c") };
    QCOMPARE(clusterComposition({ 8, 1, 1 }, names), QStringLiteral("mostly class a (8 of 10)"));
    QCOMPARE(clusterComposition({ 1, 4, 3 }, names), QStringLiteral("largest: class b (4 of 8)"));
    QCOMPARE(clusterComposition({ 1, 1, 1 }, names),
        QStringLiteral("tied: classes a, b and c (1 of 3 each)"));
    // A tie says so and names the classes (the Projection, which shares this rule, said "mostly
    // class 16" for a 6/6 tie of classes 1 and 16).
    QCOMPARE(clusterComposition({ 5, 5, 0 }, names),
        QStringLiteral("tied: classes a and b (5 of 10 each)"));
    QCOMPARE(clusterComposition({ 2, 2, 2, 1 }, {}),
        QStringLiteral("tied: classes 1, 2 and 3 (2 of 7 each)"));
    QCOMPARE(
        clusterComposition({ 1, 1, 1, 1 }, {}), QStringLiteral("no class holds more than 1 of 4"));
    QCOMPARE(clusterComposition({ 0, 0, 2 }, {}), QStringLiteral("mostly class 3 (2 of 2)"));
}

#include "facet_test.h"
FACET_TEST_MAIN(TestClusterConfusion)
#include "test_cluster_confusion.moc"
