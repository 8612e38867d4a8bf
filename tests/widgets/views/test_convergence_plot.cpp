// SPDX-License-Identifier: GPL-3.0-or-later
// The convergence plot: overlays with a legend, the relative change axis, CF_OGL segment lines,
// the hover read-out and the export formats.

#include "plotting/log_axis_ticker.h"
#include "screenshot.h"
#include "views/convergence_plot.h"

#include <QAction>
#include <QFile>
#include <QMenu>
#include <QTemporaryDir>
#include <QXmlStreamReader>
#include <QtTest>
#include <qcustomplot.h>

#include <cmath>
#include <limits>
#include <memory>

using namespace facet;
using facet::testing::saveScreenshot;

namespace {

// A history that falls like c * (1 + 20 / t): monotone, flattening.
Factorization history(int iterations, double scale)
{
    Factorization f;
    for (int t = 1; t <= iterations; ++t)
        f.history.push_back(scale * (1.0 + 20.0 / t));
    f.iterations = iterations;
    return f;
}

std::unique_ptr<ConvergencePlot> shownPlot()
{
    auto plot = std::make_unique<ConvergencePlot>();
    plot->resize(800, 500);
    plot->show();
    if (!QTest::qWaitForWindowExposed(plot.get()))
        return nullptr;
    return plot;
}

// Where a data point is drawn, in the QCustomPlot widget's coordinates (after a real replot).
QPoint pixelOf(ConvergencePlot& plot, double key, double value)
{
    plot.plot()->replot();
    return plot.currentGraph()->coordsToPixels(key, value).toPoint();
}

// The ticks LogAxisTicker chooses for a range, through its protected hook.
class TickProbe : public LogAxisTicker {
public:
    QVector<double> ticks(const QCPRange& range) { return createTickVector(1, range); }
};

bool sameTicks(const QVector<double>& actual, const QVector<double>& expected)
{
    if (actual.size() != expected.size())
        return false;
    for (qsizetype i = 0; i < actual.size(); ++i) {
        if (std::abs(actual[i] - expected[i]) > 1e-9 * expected[i])
            return false;
    }
    return true;
}

} // namespace

class TestConvergencePlot : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void overlaysHaveALegendAndStableColours();
    void liveReportsAndRelativeChange();
    void segmentStartsAreMarked();
    void timeAxisComparesRunsOnSeconds();
    void returnedFactorsPoint();
    void hoverShowsTheNearestPoint();
    void exportsPngSvgAndPdf();
    void logTicksStayReadableOnNarrowRanges();
    void emptyPlotSaysWhatWillAppear();
};

void TestConvergencePlot::overlaysHaveALegendAndStableColours()
{
    auto plot = shownPlot();
    QVERIFY(plot);
    plot->showHistory(history(60, 10), QStringLiteral("NMF, k = 8"));
    QCOMPARE(plot->graphCount(), 1);
    QVERIFY(plot->legendNames().isEmpty()); // one curve needs no legend

    plot->addRun(QStringLiteral("CF, k = 8"), history(80, 12));
    plot->addRun(QStringLiteral("LCCF, k = 8"), history(40, 9));
    QCOMPARE(plot->graphCount(), 3);
    QCOMPARE(plot->pointCount(), 60); // the current run's only
    QCOMPARE(plot->overlayNames(),
        (QStringList { QStringLiteral("CF, k = 8"), QStringLiteral("LCCF, k = 8") }));
    const QStringList legend = plot->legendNames();
    QCOMPARE(legend.size(), 3);
    QVERIFY(legend.contains(QStringLiteral("this run")));
    QVERIFY(legend.contains(QStringLiteral("CF, k = 8")));
    QVERIFY(legend.contains(QStringLiteral("LCCF, k = 8")));
    const QColor cf = plot->overlayColor(QStringLiteral("CF, k = 8"));
    const QColor lccf = plot->overlayColor(QStringLiteral("LCCF, k = 8"));
    QVERIFY(cf != lccf);
    QVERIFY(cf != plot->currentGraph()->pen().color()); // not the current run's colour
    // The x axis reaches the longest overlay.
    QVERIFY(plot->plot()->xAxis->range().upper >= 80);
    // The legend does not cover the curves: it lies outside the axes (issue 37).
    plot->plot()->replot(QCustomPlot::rpImmediateRefresh);
    const QRect legendRect = plot->plot()->legend->outerRect();
    QVERIFY(legendRect.isValid());
    QVERIFY2(!legendRect.intersects(plot->plot()->axisRect()->rect()),
        qPrintable(QStringLiteral("legend %1,%2 %3x%4 inside the axes")
                       .arg(legendRect.x())
                       .arg(legendRect.y())
                       .arg(legendRect.width())
                       .arg(legendRect.height())));
    saveScreenshot(*plot, QStringLiteral("convergence_overlays.png"));

    // A new current run keeps the overlays; a name keeps its colour when added again.
    plot->beginRun(QStringLiteral("GNMF, k = 8"));
    QCOMPARE(plot->graphCount(), 2);
    QVERIFY(plot->removeRun(QStringLiteral("CF, k = 8")));
    QVERIFY(!plot->removeRun(QStringLiteral("CF, k = 8")));
    QCOMPARE(plot->graphCount(), 1);
    plot->addRun(QStringLiteral("CF, k = 8"), history(30, 11));
    QCOMPARE(plot->overlayColor(QStringLiteral("CF, k = 8")), cf);
    plot->addRun(QStringLiteral("CF, k = 8"), history(30, 11)); // replaces, does not duplicate
    QCOMPARE(plot->graphCount(), 2);
    plot->clearOverlays();
    QCOMPARE(plot->graphCount(), 0);
    QVERIFY(plot->overlayNames().isEmpty());

    // clear() (a new dataset) takes the overlays too.
    plot->showHistory(history(20, 3), QStringLiteral("NMF, k = 8"));
    plot->addRun(QStringLiteral("CF, k = 8"), history(20, 4));
    QCOMPARE(plot->graphCount(), 2);
    plot->clear();
    QCOMPARE(plot->graphCount(), 0);
    QCOMPARE(plot->pointCount(), 0);
}

void TestConvergencePlot::returnedFactorsPoint()
{
    // A graph method's normalization lowers the objective far below the last iteration's: one
    // hollow point at the last iteration, in the legend and inside the axis range; none where
    // the normalization keeps the objective.
    auto plot = shownPlot();
    QVERIFY(plot);
    Factorization f = history(60, 10);
    f.method = "lccf";
    f.returnedObjective = f.history.back() / 1000;
    plot->showHistory(f, QStringLiteral("LCCF, k = 8"));
    QCPGraph* returned = plot->returnedObjectiveGraph();
    QCOMPARE(returned->dataCount(), 1);
    QCOMPARE(returned->data()->at(0)->key, 60.0);
    QCOMPARE(returned->data()->at(0)->value, f.returnedObjective);
    QCOMPARE(plot->graphCount(), 1); // the objective curves: the point is not one
    QVERIFY(plot->legendNames().contains(QStringLiteral("returned factors (normalized)")));
    QVERIFY(plot->plot()->yAxis->range().lower < f.returnedObjective);
    QCOMPARE(returned->scatterStyle().shape(), QCPScatterStyle::ssCircle);
    // The plot says why its two numbers differ (issue 37: the point sat far from the curve's
    // end with no word about it), and gives both.
    QVERIFY(plot->returnedNote()->isVisible());
    const QString note = plot->returnedNote()->text();
    QVERIFY2(note.contains(QLocale().toString(f.returnedObjective, 'g', 6))
            && note.contains(QLocale().toString(f.history.back(), 'g', 6))
            && note.contains(QStringLiteral("graph term")),
        qPrintable(note));
    saveScreenshot(*plot, QStringLiteral("convergence_returned_factors.png"));

    f.returnedObjective = f.history.back();
    plot->showHistory(f, QStringLiteral("NMF, k = 8"));
    QCOMPARE(returned->dataCount(), 0);
    QVERIFY(plot->legendNames().isEmpty());
    QVERIFY(!plot->returnedNote()->isVisible());
    f.returnedObjective = f.history.back() / 1000;
    plot->showHistory(f, QStringLiteral("LCCF, k = 8"));
    plot->beginRun(QStringLiteral("LCCF, k = 9"));
    QCOMPARE(returned->dataCount(), 0);
}

void TestConvergencePlot::liveReportsAndRelativeChange()
{
    auto plot = shownPlot();
    QVERIFY(plot);
    plot->beginRun(QStringLiteral("NMF, k = 4"));
    QList<IterationReport> batch;
    const Factorization f = history(25, 5);
    for (int t = 1; t <= 25; ++t) {
        const double value = f.history[std::size_t(t - 1)];
        const double previous = t > 1 ? f.history[std::size_t(t - 2)] : value;
        batch.append({ t, value, (previous - value) / value, 0 });
    }
    plot->appendReports(batch.mid(0, 10));
    plot->appendReports(batch.mid(10));
    QCOMPARE(plot->graphCount(), 1);
    QCOMPARE(plot->pointCount(), 25);
    // The first iteration has no previous value: 24 relative changes, on the right axis.
    QCPGraph* change = plot->relativeChangeGraph();
    QCOMPARE(change->dataCount(), 24);
    QCOMPARE(change->valueAxis(), plot->plot()->yAxis2);
    QVERIFY(plot->plot()->yAxis2->visible());
    QCOMPARE(plot->plot()->yAxis2->scaleType(), QCPAxis::stLogarithmic);
    QVERIFY(std::abs(change->data()->at(0)->value - batch[1].relativeChange) < 1e-12);

    // The context menu's toggle hides the axis and the curve.
    QAction* toggle = plot->contextMenu()->actions().front();
    QVERIFY(toggle->isCheckable() && toggle->isChecked());
    toggle->trigger();
    QVERIFY(!plot->isRelativeChangeVisible());
    QVERIFY(!plot->plot()->yAxis2->visible());
    QVERIFY(!change->visible());
    toggle->trigger();
    QVERIFY(plot->plot()->yAxis2->visible());

    // The finished history gives the same relative changes.
    plot->showHistory(f, QStringLiteral("NMF, k = 4"));
    QCOMPARE(change->dataCount(), 24);
    QVERIFY(std::abs(change->data()->at(23)->value - batch[24].relativeChange) < 1e-12);
    saveScreenshot(*plot, QStringLiteral("convergence_relative_change.png"));
}

void TestConvergencePlot::timeAxisComparesRunsOnSeconds()
{
    auto plot = shownPlot();
    QVERIFY(plot);
    Factorization current = history(40, 3);
    for (int t = 1; t <= 40; ++t)
        current.times.push_back(0.01 * t);
    current.segmentStarts = { 20 };
    Factorization faster = history(30, 2);
    for (int t = 1; t <= 30; ++t)
        faster.times.push_back(0.002 * t);
    plot->showHistory(current, QStringLiteral("NMF mu, k = 8"));
    plot->addRun(QStringLiteral("NMF hals, k = 8"), faster);
    plot->addRun(QStringLiteral("saved before times"), history(25, 4)); // no times
    QCOMPARE(plot->xAxis(), ConvergencePlot::XAxis::Iterations);
    QCOMPARE(plot->currentGraph()->data()->at(39)->key, 40.0);

    // The context menu's "Plot against time" switches every curve to seconds.
    QAction* time = nullptr;
    for (QAction* action : plot->contextMenu()->actions())
        if (action->text().contains(QStringLiteral("time")))
            time = action;
    QVERIFY(time && time->isCheckable() && !time->isChecked());
    time->trigger();
    QCOMPARE(plot->xAxis(), ConvergencePlot::XAxis::Seconds);
    QCOMPARE(plot->plot()->xAxis->label(), QStringLiteral("seconds from the start of the solve"));
    QCPGraph* graph = plot->currentGraph();
    QCOMPARE(graph->dataCount(), 40);
    QVERIFY(std::abs(graph->data()->at(39)->key - 0.40) < 1e-12);
    QCOMPARE(graph->data()->at(39)->value, current.history.back());
    int withTimes = -1, withoutTimes = -1;
    for (int i = 0; i < plot->plot()->graphCount(); ++i) {
        QCPGraph* g = plot->plot()->graph(i);
        if (g->name() == u"NMF hals, k = 8")
            withTimes = g->dataCount();
        if (g->name() == u"saved before times")
            withoutTimes = g->dataCount();
    }
    QCOMPARE(withTimes, 30);
    QCOMPARE(withoutTimes, 0); // nothing to place on a time axis
    QVERIFY(plot->plot()->xAxis->range().upper >= 0.40 && plot->plot()->xAxis->range().upper < 1);
    // The segment line sits between iterations 20 and 21, in seconds.
    QCOMPARE(plot->segmentMarkerCount(), 1);
    // Hovering still names the iteration.
    QVERIFY(plot->relativeChangeGraph()->data()->at(0)->key < 0.1);

    // Live reports carry their seconds too.
    plot->beginRun(QStringLiteral("NMF, k = 4"));
    plot->appendReports({ { 1, 10.0, 0, 0, 0.5 }, { 2, 9.0, 1.0 / 9, 0, 0.75 } });
    QCOMPARE(plot->currentGraph()->data()->at(1)->key, 0.75);
    saveScreenshot(*plot, QStringLiteral("convergence_time_axis.png"));

    // And back: iterations again, every point restored.
    time->trigger();
    QCOMPARE(plot->xAxis(), ConvergencePlot::XAxis::Iterations);
    QCOMPARE(plot->currentGraph()->data()->at(1)->key, 2.0);
    for (int i = 0; i < plot->plot()->graphCount(); ++i)
        if (plot->plot()->graph(i)->name() == u"saved before times")
            QCOMPARE(plot->plot()->graph(i)->dataCount(), 25);
}

void TestConvergencePlot::segmentStartsAreMarked()
{
    auto plot = shownPlot();
    QVERIFY(plot);
    Factorization f = history(90, 3);
    f.segmentStarts = { 30, 60 };
    plot->showHistory(f, QStringLiteral("CF_OGL, k = 6"));
    QCOMPARE(plot->segmentMarkerCount(), 2);
    int dashed = 0;
    for (int i = 0; i < plot->plot()->itemCount(); ++i) {
        if (auto* line = qobject_cast<QCPItemStraightLine*>(plot->plot()->item(i))) {
            QCOMPARE(line->pen().style(), Qt::DashLine);
            QVERIFY(std::abs(line->point1->coords().x() - line->point2->coords().x()) < 1e-12);
            ++dashed;
        }
    }
    QCOMPARE(dashed, 2);
    // No relative change across a segment's start (iterations 31 and 61): the jump there is the
    // beta change's or a continued run's normalization, not a step's.
    QCOMPARE(plot->relativeChangeGraph()->dataCount(), 89 - 2);
    for (int i = 0; i < plot->relativeChangeGraph()->dataCount(); ++i) {
        const double key = plot->relativeChangeGraph()->data()->at(i)->key;
        QVERIFY(key != 31 && key != 61);
    }
    saveScreenshot(*plot, QStringLiteral("convergence_cf_ogl_segments.png"));
    plot->showHistory(history(10, 3), QStringLiteral("NMF"));
    QCOMPARE(plot->segmentMarkerCount(), 0);
}

void TestConvergencePlot::hoverShowsTheNearestPoint()
{
    auto plot = shownPlot();
    QVERIFY(plot);
    const Factorization f = history(40, 10);
    plot->showHistory(f, QStringLiteral("NMF, k = 8"));
    QCustomPlot* custom = plot->plot();
    QVERIFY(plot->hoverText().isEmpty());

    const QPoint at = pixelOf(*plot, 12, f.history[11]) + QPoint(2, -3);
    QTest::mouseMove(custom, at);
    QTRY_VERIFY(!plot->hoverText().isEmpty());
    const QString text = plot->hoverText();
    QVERIFY2(text.contains(QStringLiteral("iteration 12\n")), qPrintable(text));
    QVERIFY2(text.contains(QString::number(f.history[11], 'g', 5)), qPrintable(text));
    const double change = (f.history[10] - f.history[11]) / f.history[11];
    QVERIFY2(
        text.contains(QStringLiteral("relative change %1").arg(QString::number(change, 'g', 3))),
        qPrintable(text));
    saveScreenshot(*plot, QStringLiteral("convergence_hover.png"));

    // Another point, then outside the axes: the read-out follows, then goes.
    QTest::mouseMove(custom, pixelOf(*plot, 30, f.history[29]));
    QTRY_VERIFY(plot->hoverText().contains(QStringLiteral("iteration 30\n")));
    QTest::mouseMove(custom, QPoint(2, 2));
    QTRY_VERIFY(plot->hoverText().isEmpty());
}

void TestConvergencePlot::exportsPngSvgAndPdf()
{
    auto plot = shownPlot();
    QVERIFY(plot);
    // A title with the characters XML reserves: the method titles have "&"
    // ("NMF (Lee & Seung)"), and Qt 6.4's SVG generator wrote the title unescaped.
    plot->showHistory(history(50, 4), QStringLiteral("NMF (Lee & Seung) <k = 8>"));
    plot->addRun(QStringLiteral("CF, k = 8"), history(50, 5));
    QTemporaryDir dir;
    QVERIFY(dir.isValid());

    const QString png = dir.filePath(QStringLiteral("plot.png"));
    QCOMPARE(plot->exportTo(png), QString());
    const QImage image(png);
    QVERIFY(!image.isNull());
    QCOMPARE(image.width(), 2 * plot->plot()->width()); // twice the pixel density

    const QString svg = dir.filePath(QStringLiteral("plot.svg"));
    QCOMPARE(plot->exportTo(svg), QString());
    QFile svgFile(svg);
    QVERIFY(svgFile.open(QIODevice::ReadOnly));
    const QByteArray svgText = svgFile.readAll();
    QVERIFY(svgText.contains("<svg"));
    QVERIFY(svgText.contains("CF, k = 8")); // the legend is text, not pixels
    // Well-formed XML, whose <title> reads back as the plot's title.
    QXmlStreamReader xml(svgText);
    QString svgTitle;
    while (!xml.atEnd()) {
        if (xml.readNext() == QXmlStreamReader::StartElement && xml.name() == u"title")
            svgTitle = xml.readElementText();
    }
    QVERIFY2(!xml.hasError(), qPrintable(xml.errorString()));
    QCOMPARE(svgTitle, QStringLiteral("NMF (Lee & Seung) <k = 8>"));

    const QString pdf = dir.filePath(QStringLiteral("plot.pdf"));
    QCOMPARE(plot->exportTo(pdf), QString());
    QFile pdfFile(pdf);
    QVERIFY(pdfFile.open(QIODevice::ReadOnly));
    QVERIFY(pdfFile.read(5).startsWith("%PDF"));

    QVERIFY(!plot->exportTo(dir.filePath(QStringLiteral("plot.bmp"))).isEmpty());
}

void TestConvergencePlot::logTicksStayReadableOnNarrowRanges()
{
    TickProbe probe;
    // 1-2-5 gives three labels here.
    QVERIFY(sameTicks(probe.ticks(QCPRange(0.9, 6)), { 1, 2, 5 }));
    // 1-2-5 gives two (0.01, 0.02); 1..9 would give seven on a short axis; 1-2-3-5-7 gives four.
    QVERIFY(sameTicks(probe.ticks(QCPRange(0.006, 0.031)), { 0.007, 0.01, 0.02, 0.03 }));
    // Within one decade 1..9 is still the fallback.
    QVERIFY(sameTicks(probe.ticks(QCPRange(2700, 5200)), { 3000, 4000, 5000 }));
    // 1.6 decades holding one power of ten labelled only that one (an LCF curve showed a single
    // label); such a range gets the 1-2-5 multiples, and the decades need two powers inside.
    QVERIFY(!LogAxisTicker::usesDecades(QCPRange(150, 6000)));
    QVERIFY(sameTicks(probe.ticks(QCPRange(150, 6000)), { 200, 500, 1000, 2000, 5000 }));
    QVERIFY(LogAxisTicker::usesDecades(QCPRange(90, 6000)));
    QVERIFY(LogAxisTicker::usesDecades(QCPRange(150, 60000)));
}

// Before a run the plot had axes from 1 to 10 with nothing on them. Now it says what will
// appear, with no tick labels or grid; a begun run says it is waiting (or, for a method without
// iterations, that its point comes at the end); the first point replaces the sentence.
void TestConvergencePlot::emptyPlotSaysWhatWillAppear()
{
    auto plot = shownPlot();
    QVERIFY(plot);
    QVERIFY2(
        plot->emptyText().contains(QStringLiteral("Press Run")), qPrintable(plot->emptyText()));
    QVERIFY(!plot->plot()->xAxis->ticks());
    QVERIFY(!plot->plot()->yAxis->grid()->visible());
    saveScreenshot(*plot, QStringLiteral("convergence_empty.png"));

    plot->beginRun(QStringLiteral("NMF, k = 8"));
    QVERIFY2(plot->emptyText().contains(QStringLiteral("Waiting")), qPrintable(plot->emptyText()));
    IterationReport report;
    report.iteration = 1;
    report.objective = 5;
    plot->appendReports({ report });
    QVERIFY(plot->emptyText().isEmpty());
    QVERIFY(plot->plot()->xAxis->ticks());
    QVERIFY(plot->plot()->yAxis->grid()->visible());

    plot->beginRun(QStringLiteral("PCA, k = 8"), {}, false);
    QVERIFY2(plot->emptyText().contains(QStringLiteral("when the run ends")),
        qPrintable(plot->emptyText()));
    Factorization pca = history(1, 4);
    pca.method = "pca";
    plot->showHistory(pca, QStringLiteral("PCA, k = 8"));
    QVERIFY(plot->emptyText().isEmpty());
    QVERIFY(!plot->noteText().isEmpty());

    // A shown run without a finite objective (cancelled in its set-up, or an overflow at the
    // first iteration) says so instead of inviting a run.
    Factorization none = history(1, 4);
    none.history = { std::numeric_limits<double>::infinity() };
    plot->showHistory(none, QStringLiteral("NMF, k = 8"));
    QVERIFY2(plot->emptyText().contains(QStringLiteral("no finite objective")),
        qPrintable(plot->emptyText()));
    none.history.clear();
    plot->showHistory(none, QStringLiteral("NMF, k = 8"));
    QVERIFY2(plot->emptyText().contains(QStringLiteral("no finite objective")),
        qPrintable(plot->emptyText()));
    saveScreenshot(*plot, QStringLiteral("convergence_no_finite_objective.png"));

    // A failed first run goes back to the empty plot (MainWindow::showLastGoodHistory).
    plot->beginRun(QStringLiteral("NMF, k = 8"));
    plot->clear();
    QVERIFY2(
        plot->emptyText().contains(QStringLiteral("Press Run")), qPrintable(plot->emptyText()));
}

#include "facet_test.h"
FACET_TEST_MAIN(TestConvergencePlot)
#include "test_convergence_plot.moc"
