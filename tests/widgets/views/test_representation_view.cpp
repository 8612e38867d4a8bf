// SPDX-License-Identifier: GPL-3.0-or-later
// The representation view on real runs: V's heatmap sorted by class with its class boundaries,
// the principal-plane scatter with one point per sample, the cluster centres and their cells,
// clicks on points that name the sample, and the plots saved as PNG, SVG and PDF.

#include "metrics/principal_plane.h"
#include "small_run.h"
#include "views/principal_scatter.h"
#include "views/representation_heatmap.h"
#include "views/representation_view.h"

#include <QSignalSpy>
#include <QtTest>
#include <qcustomplot.h>

using namespace facet;
using namespace facet::testing;

class TestRepresentationView : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void labelledRunShowsHeatmapAndPlane();
    void clickingAPointActivatesItsSample();
    void plotsExport();
    void unlabelledRunGroupsByCluster();
    void manyClassesKeepTheLegendOut();
    void heatmapTitleIsNeverCut();
};

void TestRepresentationView::labelledRunShowsHeatmapAndPlane()
{
    FACET_LOAD_ORL(data, 6);
    const RunResult result = runMethod(data, "nmf", 6);
    RepresentationView view;
    view.resize(1200, 620);
    view.show();
    view.setResult(data, result);

    RepresentationHeatmap* heatmap = view.heatmap();
    QCOMPARE(heatmap->rowCount(), 60);
    QCOMPARE(heatmap->columnCount(), 6);
    QVERIFY(heatmap->groupedByClass());
    QCOMPARE(heatmap->boundaryCount(), 5); // between 6 classes
    auto* map = qobject_cast<QCPColorMap*>(heatmap->plot()->plottable(0));
    QVERIFY(map);
    QCOMPARE(map->data()->keySize(), 6);
    QCOMPARE(map->data()->valueSize(), 60);
    // Rows go class by class, and each row holds its sample's row of V.
    for (int row = 1; row < 60; ++row)
        QVERIFY(data.labels[std::size_t(heatmap->sampleAtRow(row - 1))]
            <= data.labels[std::size_t(heatmap->sampleAtRow(row))]);
    const int sample = heatmap->sampleAtRow(37);
    for (int j = 0; j < 6; ++j)
        QCOMPARE(map->data()->cell(j, 37), double(result.factorization.V(sample, j)));

    PrincipalScatter* scatter = view.scatter();
    QCOMPARE(scatter->pointCount(), 60);
    QCOMPARE(scatter->legendEntryCount(), 6);
    QCOMPARE(scatter->centreCount(), result.clusters);
    QVERIFY(scatter->hasRegions());
    QVERIFY(scatter->caption().contains(QStringLiteral("projection")));
    QVERIFY(scatter->plot()->xAxis->label().contains(QStringLiteral("% of the variance")));
    saveScreenshot(view, QStringLiteral("representation_view_orl6.png"));

    view.clear();
    QCOMPARE(view.scatter()->pointCount(), 0);
    QCOMPARE(view.heatmap()->rowCount(), 0);
    QVERIFY(!view.scatter()->hasRegions());
}

void TestRepresentationView::clickingAPointActivatesItsSample()
{
    FACET_LOAD_ORL(data, 6);
    const RunResult result = runMethod(data, "nmf", 6);
    RepresentationView view;
    view.resize(1200, 620);
    view.show();
    view.setResult(data, result);
    QCoreApplication::processEvents();

    // A sample far from every other one in the plane, so the click cannot land on a neighbour.
    const PrincipalPlane plane = principalPlane(result.factorization.V);
    int loner = 0;
    double widest = -1;
    for (int i = 0; i < 60; ++i) {
        double nearest = 1e300;
        for (int j = 0; j < 60; ++j)
            if (j != i)
                nearest
                    = std::min(nearest, double((plane.points.row(i) - plane.points.row(j)).norm()));
        if (nearest > widest) {
            widest = nearest;
            loner = i;
        }
    }
    QSignalSpy activated(&view, &RepresentationView::sampleActivated);
    const QPointF at = view.scatter()->samplePixel(loner);
    QTest::mouseClick(view.scatter()->plot(), Qt::LeftButton, {}, at.toPoint());
    QCOMPARE(activated.count(), 1);
    QCOMPARE(activated.at(0).at(0).toInt(), loner);

    // A click on a heatmap row names the sample drawn there.
    QCustomPlot* heat = view.heatmap()->plot();
    const int row = 12;
    const QPoint rowPixel(int(heat->xAxis->coordToPixel(2)), int(heat->yAxis->coordToPixel(row)));
    QTest::mouseClick(heat, Qt::LeftButton, {}, rowPixel);
    QCOMPARE(activated.count(), 2);
    QCOMPARE(activated.at(1).at(0).toInt(), view.heatmap()->sampleAtRow(row));
}

void TestRepresentationView::plotsExport()
{
    FACET_LOAD_ORL(data, 6);
    const RunResult result = runMethod(data, "cf", 6);
    RepresentationView view;
    view.resize(1100, 600);
    view.show();
    view.setResult(data, result);
    QCoreApplication::processEvents();
    for (const QString& suffix :
        { QStringLiteral("png"), QStringLiteral("svg"), QStringLiteral("pdf") }) {
        const QString heat
            = QDir::current().filePath(QStringLiteral("representation_heatmap.") + suffix);
        const QString plane
            = QDir::current().filePath(QStringLiteral("representation_plane.") + suffix);
        QFile::remove(heat);
        QFile::remove(plane);
        const Result<bool> a = view.exportHeatmap(heat);
        const Result<bool> b = view.exportScatter(plane);
        QVERIFY2(a.ok(), qPrintable(a.ok() ? QString() : a.error()));
        QVERIFY2(b.ok(), qPrintable(b.ok() ? QString() : b.error()));
        QVERIFY(QFileInfo(heat).size() > 1000);
        QVERIFY(QFileInfo(plane).size() > 1000);
    }
    // PNGs at twice the on-screen size.
    const QImage png(QDir::current().filePath(QStringLiteral("representation_plane.png")));
    QCOMPARE(png.width(), 2 * view.scatter()->plot()->width());
    const Result<bool> bad
        = view.exportScatter(QDir::current().filePath(QStringLiteral("plane.txt")));
    QVERIFY(!bad.ok());
    QVERIFY(bad.error().contains(QStringLiteral(".png")));
    saveScreenshot(view, QStringLiteral("representation_view_orl6_cf.png"));
}

void TestRepresentationView::unlabelledRunGroupsByCluster()
{
    const Dataset swimmer = makeSwimmer();
    const RunResult result = runMethod(swimmer, "nmf", 8, 60);
    RepresentationView view;
    view.resize(1100, 600);
    view.show();
    view.setResult(swimmer, result);
    QVERIFY(!view.heatmap()->groupedByClass());
    QCOMPARE(view.heatmap()->rowCount(), 256);
    for (int row = 1; row < 256; ++row)
        QVERIFY(result.predicted[std::size_t(view.heatmap()->sampleAtRow(row - 1))]
            <= result.predicted[std::size_t(view.heatmap()->sampleAtRow(row))]);
    QCOMPARE(view.scatter()->pointCount(), 256);
    // The legend names the clusters that hold samples.
    std::vector<int> used = result.predicted;
    std::sort(used.begin(), used.end());
    used.erase(std::unique(used.begin(), used.end()), used.end());
    QCOMPARE(view.scatter()->legendEntryCount(), int(used.size()));
    QVERIFY(view.scatter()->caption().contains(QStringLiteral("no labels")));
    saveScreenshot(view, QStringLiteral("representation_view_swimmer.png"));
}

void TestRepresentationView::manyClassesKeepTheLegendOut()
{
    FACET_LOAD_ORL(data, 40);
    const RunResult result = runMethod(data, "nmf", 40, 60);
    RepresentationView view;
    view.resize(1300, 700);
    view.show();
    view.setResult(data, result);
    QCOMPARE(view.heatmap()->rowCount(), 400);
    QCOMPARE(view.heatmap()->boundaryCount(), 39);
    QCOMPARE(view.scatter()->pointCount(), 400);
    QCOMPARE(view.scatter()->legendEntryCount(), 0); // 40 > kMaxLegendEntries
    QVERIFY(view.scatter()->caption().contains(QStringLiteral("40 classes")));
    saveScreenshot(view, QStringLiteral("representation_view_orl40.png"));
}

// Issue 37, item 8: in a narrow view the title read "ows sorted by clas", cut at both ends by
// the heatmap's column. It spans the plot and its colour scale now: whole at the default size and
// at the narrowest the splitter gives the heatmap.
void TestRepresentationView::heatmapTitleIsNeverCut()
{
    FACET_LOAD_ORL(data, 6);
    const RunResult result = runMethod(data, "nmf", 6);
    RepresentationView view;
    view.show();
    view.setResult(data, result);
    QCustomPlot* plot = view.heatmap()->plot();
    auto* title = qobject_cast<QCPTextElement*>(plot->plotLayout()->element(0, 0));
    QVERIFY(title);
    for (const QSize size : { QSize(1200, 620), QSize(430, 420) }) {
        view.resize(size);
        QTest::qWait(0);
        plot->replot();
        QVERIFY(title->text().endsWith(QStringLiteral("rows sorted by class")));
        const QFontMetrics metrics(title->font());
        const QRect rect = title->outerRect();
        QVERIFY(plot->viewport().contains(rect));
        for (const QString& line : title->text().split(u'\n'))
            QVERIFY2(metrics.horizontalAdvance(line) <= rect.width(),
                qPrintable(QStringLiteral("%1 at %2 x %3: %4 px of text, %5 px of title")
                               .arg(line)
                               .arg(size.width())
                               .arg(size.height())
                               .arg(metrics.horizontalAdvance(line))
                               .arg(rect.width())));
        saveScreenshot(
            *view.heatmap(), QStringLiteral("representation_heatmap_%1.png").arg(size.width()));
    }
}

#include "facet_test.h"
FACET_TEST_MAIN(TestRepresentationView)
#include "test_representation_view.moc"
