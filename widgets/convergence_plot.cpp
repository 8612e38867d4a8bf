// SPDX-License-Identifier: GPL-3.0-or-later
#include "convergence_plot.h"

#include "log_axis_ticker.h"

#include <QVBoxLayout>
#include <qcustomplot.h>

#include <algorithm>
#include <cmath>

namespace facet {

namespace {

constexpr int kMarkedPoints = 30;

QColor replicateColor(int replicate)
{
    static const QColor colors[] = { QColor(31, 119, 180), QColor(255, 127, 14),
        QColor(44, 160, 44), QColor(214, 39, 40), QColor(148, 103, 189), QColor(140, 86, 75) };
    return colors[replicate % int(std::size(colors))];
}

} // namespace

ConvergencePlot::ConvergencePlot(QWidget* parent)
    : QWidget(parent)
    , m_plot(new QCustomPlot(this))
    , m_logTicker(QSharedPointer<LogAxisTicker>::create())
    , m_linearTicker(QSharedPointer<QCPAxisTicker>::create())
{
    m_plot->setObjectName(QStringLiteral("convergenceCustomPlot"));
    m_plot->plotLayout()->insertRow(0);
    m_title = new QCPTextElement(
        m_plot, QString(), QFont(font().family(), font().pointSize(), QFont::Bold));
    m_plot->plotLayout()->addElement(0, 0, m_title);
    m_plot->xAxis->setLabel(tr("iteration"));
    m_plot->yAxis->setLabel(tr("objective"));
    m_plot->legend->setVisible(false);
    m_plot->legend->setFont(font());
    m_plot->axisRect()->insetLayout()->setInsetAlignment(0, Qt::AlignTop | Qt::AlignRight);
    m_plot->setInteractions(QCP::iRangeDrag | QCP::iRangeZoom);
    // Dragging or zooming can cross the decades threshold; the labels follow the ticker.
    connect(m_plot->yAxis, qOverload<const QCPRange&>(&QCPAxis::rangeChanged), this,
        &ConvergencePlot::updateNumberFormat);

    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_plot);
    clear();
}

void ConvergencePlot::setTitle(const QString& title)
{
    m_title->setText(title);
}

void ConvergencePlot::clear()
{
    m_plot->clearGraphs();
    m_plot->clearItems();
    m_graphs.clear();
    m_haveValues = false;
    m_logScale = true;
    m_plot->legend->setVisible(false);
    setTitle(tr("Objective per iteration"));
    m_plot->xAxis->setRange(0, 10);
    m_plot->yAxis->setScaleType(QCPAxis::stLogarithmic);
    m_plot->yAxis->setTicker(m_logTicker);
    m_plot->yAxis->setRange(1, 10);
    m_plot->replot(QCustomPlot::rpQueuedReplot);
}

void ConvergencePlot::beginRun(const QString& title)
{
    clear();
    setTitle(title);
}

QCPGraph* ConvergencePlot::graphFor(int replicate)
{
    if (QCPGraph* graph = m_graphs.value(replicate))
        return graph;
    QCPGraph* graph = m_plot->addGraph();
    graph->setPen(QPen(replicateColor(replicate), 2));
    graph->setName(tr("start %1").arg(replicate + 1));
    m_graphs.insert(replicate, graph);
    m_plot->legend->setVisible(m_graphs.size() > 1);
    return graph;
}

void ConvergencePlot::noteValue(double value)
{
    if (!std::isfinite(value))
        return;
    if (value <= 0)
        m_logScale = false;
    m_lowest = m_haveValues ? std::min(m_lowest, value) : value;
    m_highest = m_haveValues ? std::max(m_highest, value) : value;
    m_haveValues = true;
}

void ConvergencePlot::appendReports(const QList<IterationReport>& reports)
{
    // Batches arrive in order; split them by replicate so each start keeps its own line.
    for (const IterationReport& report : reports) {
        graphFor(report.replicate)->addData(report.iteration, report.objective);
        noteValue(report.objective);
    }
    rescale();
}

void ConvergencePlot::showHistory(const Factorization& factorization, const QString& title)
{
    clear();
    setTitle(title);
    QCPGraph* graph = graphFor(0);
    graph->setName(tr("kept start"));
    const auto& history = factorization.history;
    QVector<double> keys(qsizetype(history.size()));
    QVector<double> values(qsizetype(history.size()));
    for (std::size_t i = 0; i < history.size(); ++i) {
        keys[qsizetype(i)] = double(i + 1);
        values[qsizetype(i)] = history[i];
        noteValue(history[i]);
    }
    graph->setData(keys, values, true);
    // CF_OGL restarts its monotone descent when beta changes; a faint line between the last
    // iteration of one segment and the first of the next (history index s is iteration s + 1).
    // Faint because a segment can be a single outer iteration long.
    for (int start : factorization.segmentStarts) {
        auto* line = new QCPItemStraightLine(m_plot);
        line->setPen(QPen(QColor(0, 0, 0, 60), 1, Qt::DotLine));
        line->point1->setCoords(start + 0.5, 1);
        line->point2->setCoords(start + 0.5, 2);
    }
    rescale();
}

int ConvergencePlot::graphCount() const
{
    return m_plot->graphCount();
}

int ConvergencePlot::pointCount() const
{
    int count = 0;
    for (int i = 0; i < m_plot->graphCount(); ++i)
        count += m_plot->graph(i)->dataCount();
    return count;
}

void ConvergencePlot::updateNumberFormat(const QCPRange& range)
{
    QCPAxis* y = m_plot->yAxis;
    if (y->scaleType() == QCPAxis::stLogarithmic && LogAxisTicker::usesDecades(range)) {
        y->setNumberFormat(QStringLiteral("eb"));
        y->setNumberPrecision(0);
    } else {
        y->setNumberFormat(QStringLiteral("gb"));
        y->setNumberPrecision(4);
    }
}

void ConvergencePlot::rescale()
{
    if (!m_haveValues) {
        m_plot->replot(QCustomPlot::rpQueuedReplot);
        return;
    }
    int lastIteration = 1;
    for (QCPGraph* graph : std::as_const(m_graphs)) {
        if (!graph->data()->isEmpty())
            lastIteration = std::max(lastIteration, int((graph->data()->constEnd() - 1)->key));
        // A line needs two points; short histories (PCA has one) show their points as well.
        graph->setScatterStyle(graph->dataCount() <= kMarkedPoints
                ? QCPScatterStyle(QCPScatterStyle::ssDisc, 5)
                : QCPScatterStyle());
    }
    m_plot->xAxis->setRange(0, std::max(10, lastIteration + 1));

    QCPAxis* y = m_plot->yAxis;
    if (m_logScale) {
        y->setScaleType(QCPAxis::stLogarithmic);
        // 5% of the span on each side, in log space, so a flat tail near convergence still
        // fills the plot instead of hugging a line.
        const double logLow = std::log10(m_lowest);
        const double logHigh = std::log10(m_highest);
        // At least ~1% either side: a flat or one-point history would otherwise get a range so
        // narrow that every tick label rounds to the same number.
        const double pad = std::max(0.05 * (logHigh - logLow), 0.005);
        const double low = std::pow(10.0, logLow - pad);
        const double high = std::pow(10.0, logHigh + pad);
        y->setTicker(m_logTicker);
        y->setRange(low, high);
        updateNumberFormat(y->range());
    } else {
        y->setScaleType(QCPAxis::stLinear);
        y->setTicker(m_linearTicker);
        const double pad
            = std::max(0.05 * (m_highest - m_lowest), 0.01 * std::max(std::abs(m_highest), 1e-12));
        y->setRange(m_lowest - pad, m_highest + pad);
    }
    y->setLabel(m_logScale ? tr("objective (log scale)") : tr("objective"));
    m_plot->replot(QCustomPlot::rpQueuedReplot);
}

} // namespace facet
