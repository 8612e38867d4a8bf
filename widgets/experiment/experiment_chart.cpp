// SPDX-License-Identifier: GPL-3.0-or-later
#include "experiment/experiment_chart.h"

#include "sweep_charts.h"

#include <QVBoxLayout>
#include <qcustomplot.h>

#include <algorithm>
#include <cmath>
#include <limits>

namespace facet {

using namespace Qt::StringLiterals;

namespace {

QColor seriesColor(int index)
{
    static const QColor colors[] = { QColor(31, 119, 180), QColor(255, 127, 14),
        QColor(44, 160, 44), QColor(214, 39, 40), QColor(148, 103, 189), QColor(140, 86, 75),
        QColor(227, 119, 194), QColor(127, 127, 127), QColor(188, 189, 34), QColor(23, 190, 207) };
    return colors[index % int(std::size(colors))];
}

} // namespace

ExperimentChart::ExperimentChart(Metric metric, QWidget* parent)
    : QWidget(parent)
    , m_metric(metric)
    , m_plot(new QCustomPlot(this))
{
    m_plot->setObjectName(metric == Metric::Accuracy ? u"acPlot"_s : u"nmiPlot"_s);
    m_plot->plotLayout()->insertRow(0);
    m_plot->plotLayout()->addElement(0, 0,
        new QCPTextElement(
            m_plot, QString(), QFont(font().family(), font().pointSize(), QFont::Bold)));
    m_plot->legend->setFont(font());
    m_plot->axisRect()->insetLayout()->setInsetAlignment(0, Qt::AlignBottom | Qt::AlignRight);
    m_plot->setMinimumSize(260, 200);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_plot);
    clear();
}

void ExperimentChart::clear()
{
    m_plot->clearPlottables();
    m_plot->legend->setVisible(false);
    if (auto* title = qobject_cast<QCPTextElement*>(m_plot->plotLayout()->element(0, 0)))
        title->setText(m_metric == Metric::Accuracy ? tr("AC") : tr("NMI"));
    m_plot->xAxis->setLabel(tr("number of clusters c"));
    m_plot->yAxis->setLabel(m_metric == Metric::Accuracy ? tr("AC (%)") : tr("NMI (%)"));
    m_plot->xAxis->setTicker(QSharedPointer<QCPAxisTicker>::create());
    m_plot->xAxis->setRange(0, 10);
    m_plot->yAxis->setRange(0, 100);
    m_plot->replot(QCustomPlot::rpQueuedReplot);
}

void ExperimentChart::setSummary(
    const SweepSummary& summary, const ExperimentOptions& options, const QString& datasetName)
{
    m_plot->clearPlottables();
    const plots::LineChart chart = plots::sweepChart(summary, options, m_metric, datasetName);
    if (auto* title = qobject_cast<QCPTextElement*>(m_plot->plotLayout()->element(0, 0)))
        title->setText(chart.title);
    m_plot->xAxis->setLabel(chart.xLabel);
    m_plot->yAxis->setLabel(chart.yLabel);

    // Integer ticks: one per cluster count or grid value.
    auto ticker = QSharedPointer<QCPAxisTickerText>::create();
    double xMin = 0, xMax = 1;
    if (!chart.xCategories.isEmpty()) {
        for (int i = 0; i < chart.xCategories.size(); ++i)
            ticker->addTick(i, chart.xCategories[i]);
        xMax = std::max(1.0, double(chart.xCategories.size() - 1));
    } else if (!summary.clusters.empty()) {
        for (int c : summary.clusters)
            ticker->addTick(c, QString::number(c));
        const auto [lo, hi] = std::minmax_element(summary.clusters.begin(), summary.clusters.end());
        xMin = *lo;
        xMax = std::max(*hi, *lo + 1);
    }
    m_plot->xAxis->setTicker(ticker);
    m_plot->xAxis->setRange(xMin - 0.3, xMax + 0.3);

    // Methods share the cluster counts, so their error bars would be drawn on top of each other:
    // each curve moves sideways by its own small amount, symmetric around the true c (the ticks
    // stay there). The spread grows with the curves but stays within 0.4 of the closest counts.
    const bool errorBars = !options.parameterSweep();
    int gap = std::numeric_limits<int>::max();
    for (std::size_t i = 1; i < summary.clusters.size(); ++i)
        gap = std::min(gap, summary.clusters[i] - summary.clusters[i - 1]);
    gap = summary.clusters.size() > 1 ? gap : 1;
    const double curves = double(chart.curves.size());
    const double step = errorBars && curves > 1 ? gap * std::min(0.08, 0.4 / (curves - 1)) : 0;

    double yMin = chart.yMin, yMax = chart.yMax;
    for (std::size_t k = 0; k < chart.curves.size(); ++k) {
        const double shift = step * (double(k) - (curves - 1) / 2);
        const plots::Curve& curve = chart.curves[k];
        QCPGraph* graph = m_plot->addGraph();
        graph->setName(curve.name);
        const QColor color = seriesColor(int(k));
        graph->setPen(QPen(color, 2));
        graph->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssCircle, color, color, 6));
        QVector<double> x, y, err;
        for (std::size_t i = 0; i < curve.x.size(); ++i) {
            if (std::isnan(curve.y[i]))
                continue; // a gap until the cell's first trial finishes
            x << curve.x[i] + shift;
            y << curve.y[i];
            yMin = std::min(yMin, curve.y[i]);
            yMax = std::max(yMax, curve.y[i]);
            if (errorBars) {
                const MeanStd& m = summary.cells[i][k].of(m_metric);
                err << (std::isnan(m.std) ? 0.0 : 100 * m.std);
            }
        }
        graph->setData(x, y, true);
        if (!err.isEmpty()) {
            auto* bars = new QCPErrorBars(m_plot->xAxis, m_plot->yAxis);
            bars->removeFromLegend();
            bars->setDataPlottable(graph);
            bars->setData(err);
            bars->setPen(QPen(color, 1));
        }
    }
    // A little room beyond the range, so points and bar caps at 0 or 100 % are drawn whole.
    const double pad = 0.03 * (yMax - yMin);
    m_plot->yAxis->setRange(yMin - pad, yMax + pad);
    m_plot->legend->setVisible(!chart.curves.empty());
    m_plot->replot(QCustomPlot::rpQueuedReplot);
}

} // namespace facet
