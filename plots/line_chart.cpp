// SPDX-License-Identifier: GPL-3.0-or-later
#include "line_chart.h"

#include "plot_export.h"
#include "util/atomic_write.h"

#include <QApplication>
#include <QDir>
#include <QFile>
#include <qcustomplot.h>

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace facet::plots {

using namespace Qt::StringLiterals;

namespace {

// Tableau 10: distinct in colour and still apart in grey print, with the markers.
const QColor kPalette[] = { QColor(0x4e79a7), QColor(0xf28e2b), QColor(0xe15759), QColor(0x76b7b2),
    QColor(0x59a14f), QColor(0xedc948), QColor(0xb07aa1), QColor(0xff9da7), QColor(0x9c755f),
    QColor(0xbab0ac) };
const QCPScatterStyle::ScatterShape kShapes[] = { QCPScatterStyle::ssCircle,
    QCPScatterStyle::ssSquare, QCPScatterStyle::ssTriangle, QCPScatterStyle::ssDiamond,
    QCPScatterStyle::ssCross, QCPScatterStyle::ssPlus, QCPScatterStyle::ssStar,
    QCPScatterStyle::ssTriangleInverted, QCPScatterStyle::ssCrossCircle };

void build(QCustomPlot& plot, const LineChart& chart)
{
    QFont font = plot.font();
    font.setPointSizeF(10);
    plot.setFont(font);
    plot.setBackground(Qt::white);
    double lo = chart.yMin, hi = chart.yMax, xLo = 0, xHi = 1;
    bool anyX = false;
    for (std::size_t i = 0; i < chart.curves.size(); ++i) {
        const Curve& curve = chart.curves[i];
        QCPGraph* graph = plot.addGraph();
        graph->setName(curve.name);
        const std::size_t style = curve.style >= 0 ? std::size_t(curve.style) : i;
        const QColor color = kPalette[style % std::size(kPalette)];
        graph->setPen(
            QPen(color, curve.dashed ? 1.5 : 2, curve.dashed ? Qt::DashLine : Qt::SolidLine));
        graph->setScatterStyle(curve.filled
                ? QCPScatterStyle(kShapes[style % std::size(kShapes)], color, color, 7)
                : QCPScatterStyle(kShapes[style % std::size(kShapes)], color, 7));
        QVector<double> x(curve.x.begin(), curve.x.end()), y(curve.y.begin(), curve.y.end());
        graph->setData(x, y, true);
        for (std::size_t k = 0; k < curve.x.size(); ++k) {
            xLo = anyX ? std::min(xLo, curve.x[k]) : curve.x[k];
            xHi = anyX ? std::max(xHi, curve.x[k]) : curve.x[k];
            anyX = true;
            if (std::isfinite(curve.y[k])) {
                lo = std::min(lo, curve.y[k]);
                hi = std::max(hi, curve.y[k]);
            }
        }
    }
    QCPAxis* xAxis = plot.xAxis;
    QCPAxis* yAxis = plot.yAxis;
    xAxis->setLabel(chart.xLabel);
    yAxis->setLabel(chart.yLabel);
    if (!chart.xCategories.isEmpty()) {
        auto ticker = QSharedPointer<QCPAxisTickerText>::create();
        for (qsizetype i = 0; i < chart.xCategories.size(); ++i)
            ticker->addTick(double(i), chart.xCategories.at(i));
        xAxis->setTicker(ticker);
        xLo = 0;
        xHi = double(std::max<qsizetype>(1, chart.xCategories.size() - 1));
    } else {
        auto ticker = QSharedPointer<QCPAxisTickerFixed>::create();
        ticker->setTickStep(1.0);
        // One tick per cluster count while they fit; past 20, multiples of the step.
        ticker->setScaleStrategy(
            xHi - xLo <= 20 ? QCPAxisTickerFixed::ssNone : QCPAxisTickerFixed::ssMultiples);
        xAxis->setTicker(ticker);
    }
    // Half a step of room at both ends keeps the end markers off the axes.
    xAxis->setRange(xLo - 0.4, xHi + 0.4);
    yAxis->setRange(lo, hi + (hi - lo) * 0.02);
    yAxis->grid()->setSubGridVisible(false);

    // The legend's column is as wide as its longest name (its stretch alone let the export clip
    // "SemiGNMF · paper"); the title, above the axes' column, wraps at the ", " nearest its
    // middle when it would not fit beside it.
    const QFontMetrics metrics(font);
    int legendWidth = 0;
    for (const Curve& curve : chart.curves)
        legendWidth = std::max(legendWidth, metrics.horizontalAdvance(curve.name));
    legendWidth += 70; // the line-and-marker icon, paddings, border and the column's margin
    plot.plotLayout()->insertRow(0);
    QFont titleFont = font;
    titleFont.setPointSizeF(11);
    titleFont.setBold(true);
    QString title = chart.title;
    if (QFontMetrics(titleFont).horizontalAdvance(title) > plot.width() - legendWidth - 20) {
        qsizetype best = -1;
        for (qsizetype at = title.indexOf(u", "_s); at >= 0; at = title.indexOf(u", "_s, at + 1))
            if (best < 0 || std::abs(at - title.size() / 2) < std::abs(best - title.size() / 2))
                best = at;
        if (best >= 0)
            title = title.left(best + 1) + u'\n' + title.mid(best + 2);
    }
    plot.plotLayout()->addElement(0, 0, new QCPTextElement(&plot, title, titleFont));

    // The legend in its own column right of the axes, so no curve is ever hidden under it.
    plot.legend->setVisible(true);
    plot.axisRect()->insetLayout()->take(plot.legend);
    auto* side = new QCPLayoutGrid;
    plot.plotLayout()->addElement(1, 1, side);
    side->setMargins(QMargins(0, 10, 12, 0));
    side->addElement(0, 0, plot.legend);
    side->setMinimumSize(legendWidth, 0);
    side->addElement(1, 0, new QCPLayoutElement(&plot)); // pushes the legend to the top
    side->setRowStretchFactor(0, 0.01);
    plot.plotLayout()->setColumnStretchFactor(1, 0.01);
    plot.legend->setBorderPen(QPen(QColor(0xbbbbbb)));
    plot.legend->setFont(font);
    if (!chart.footnote.isEmpty()) {
        QFont small = font;
        small.setPointSizeF(8);
        auto* note = new QCPTextElement(&plot, chart.footnote, small);
        note->setTextColor(QColor(0x555555));
        plot.plotLayout()->addElement(2, 0, note);
    }
}

Result<bool> saveBytes(const QString& path, const QByteArray& bytes)
{
    return writeBytesFile(path, bytes);
}

QtMessageHandler g_previousHandler = nullptr;

// The offscreen platform warns that XDG_RUNTIME_DIR is unset (usual in CI and over ssh) about a
// runtime folder a batch run never uses; that line would only clutter the sweep's stderr.
void dropRuntimeDirWarning(QtMsgType type, const QMessageLogContext& context, const QString& text)
{
    if (text.startsWith(u"QStandardPaths: XDG_RUNTIME_DIR"_s))
        return;
    if (g_previousHandler)
        g_previousHandler(type, context, text);
    else
        std::fprintf(stderr, "%s\n", qPrintable(qFormatLogMessage(type, context, text)));
}

} // namespace

Result<QStringList> saveLineChart(
    const LineChart& chart, const QString& basePath, int width, int height)
{
    if (!qobject_cast<QApplication*>(QCoreApplication::instance()))
        return Error { u"drawing plots needs a QApplication"_s };
    QCustomPlot plot;
    plot.resize(width, height);
    build(plot, chart);
    plot.replot(QCustomPlot::rpImmediateRefresh);

    QStringList written;
    const QString png = basePath + u".png"_s;
    if (const Result<bool> ok = writeImageFile(png, plot.toPixmap(width, height, 2.0).toImage());
        !ok)
        return Error { ok.error() };
    written << png;
#ifdef FACET_HAVE_QT_SVG
    {
        const QString path = basePath + u".svg"_s;
        const Result<QByteArray> bytes = plotSvg(plot, width, height, chart.title);
        if (!bytes)
            return Error { u"%1: %2"_s.arg(path, bytes.error()) };
        if (const Result<bool> ok = saveBytes(path, *bytes); !ok)
            return Error { ok.error() };
        written << path;
    }
#endif
    // QCustomPlot's PDF export writes the file itself: write beside the target, then rename.
    const QString pdf = basePath + u".pdf"_s;
    const QString partial = pdf + u".part"_s;
    if (!plot.savePdf(partial, width, height, QCP::epNoCosmetic, u"Facet"_s, chart.title)) {
        QFile::remove(partial);
        return Error { u"cannot write %1"_s.arg(pdf) };
    }
    QFile::remove(pdf);
    if (!QFile::rename(partial, pdf))
        return Error { u"cannot move %1 to %2"_s.arg(partial, pdf) };
    written << pdf;
    return written;
}

std::unique_ptr<QCoreApplication> makeOffscreenApplication(int& argc, char** argv)
{
    if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM"))
        qputenv("QT_QPA_PLATFORM", "offscreen");
    g_previousHandler = qInstallMessageHandler(dropRuntimeDirWarning);
    return std::make_unique<QApplication>(argc, argv);
}

} // namespace facet::plots
