// SPDX-License-Identifier: GPL-3.0-or-later
// ConvergencePlot's axes: ranges that fit every curve, log or linear, and tick label formats.
#include "views/convergence_plot.h"

#include "plotting/log_axis_ticker.h"

#include <qcustomplot.h>

#include <algorithm>
#include <cmath>

namespace facet {

namespace {
constexpr int kMarkedPoints = 30;
} // namespace

void ConvergencePlot::updateNumberFormat(QCPAxis* axis, const QCPRange& range)
{
    if (axis->scaleType() == QCPAxis::stLogarithmic && LogAxisTicker::usesDecades(range)) {
        axis->setNumberFormat(QStringLiteral("eb"));
        axis->setNumberPrecision(0);
    } else {
        axis->setNumberFormat(QStringLiteral("gb"));
        axis->setNumberPrecision(axis == m_plot->yAxis2 ? 2 : 4);
    }
}

void ConvergencePlot::rescaleChangeAxis()
{
    QCPAxis* right = m_plot->yAxis2;
    const bool show = m_changeVisible && !m_changeGraph->data()->isEmpty();
    m_changeGraph->setVisible(show);
    right->setVisible(show);
    if (!show)
        return;
    bool found = false;
    const QCPRange values = m_changeGraph->getValueRange(found, QCP::sdPositive);
    if (!found)
        return;
    const double logLow = std::log10(values.lower);
    const double logHigh = std::log10(values.upper);
    const double pad = std::max(0.05 * (logHigh - logLow), 0.05);
    right->setRange(std::pow(10.0, logLow - pad), std::pow(10.0, logHigh + pad));
    updateNumberFormat(right, right->range());
}

void ConvergencePlot::rescale()
{
    updateLegend();
    rescaleChangeAxis();
    // One pass over every objective curve: a few thousand points at most, at the batch rate.
    double lowest = 0;
    double highest = 0;
    bool haveValues = false;
    bool positive = true;
    int lastIteration = 1;
    double lastSecond = 0;
    for (QCPGraph* graph : objectiveGraphs()) {
        for (const QCPGraphData& point : *graph->data()) {
            if (!std::isfinite(point.value))
                continue;
            positive = positive && point.value > 0;
            lowest = haveValues ? std::min(lowest, point.value) : point.value;
            highest = haveValues ? std::max(highest, point.value) : point.value;
            haveValues = true;
        }
        if (!graph->data()->isEmpty()) {
            const double key = (graph->data()->constEnd() - 1)->key;
            lastIteration = std::max(lastIteration, int(key));
            lastSecond = std::max(lastSecond, key);
        }
        // A line needs two points; short histories (PCA has one) show their points as well.
        if (graph != m_returnedGraph)
            graph->setScatterStyle(graph->dataCount() <= kMarkedPoints
                    ? QCPScatterStyle(QCPScatterStyle::ssDisc, 5)
                    : QCPScatterStyle());
    }
    m_logScale = positive;
    // The returned factors' point sits on the last iteration: room for its circle.
    if (m_xAxis == XAxis::Seconds) {
        m_plot->xAxis->setRange(0, lastSecond > 0 ? 1.04 * lastSecond : 1);
    } else {
        const int room = m_returnedGraph->data()->isEmpty() ? 1 : std::max(2, lastIteration / 25);
        m_plot->xAxis->setRange(0, std::max(10, lastIteration + room));
    }

    QCPAxis* y = m_plot->yAxis;
    // No point yet: a sentence in place of ticks that would describe no data.
    m_emptyNote->setVisible(!haveValues);
    if (m_waiting)
        m_emptyNote->setText(m_waitingForEnd ? tr("This method reports no iterations:\nits point "
                                                  "appears when the run ends.")
                                             : tr("Waiting for the first iterations…"));
    else if (m_showingRun)
        m_emptyNote->setText(tr("This run has no finite objective to show:\nit stopped before "
                                "its first iteration, or its objective overflowed."));
    else
        m_emptyNote->setText(tr("The objective of each iteration appears here during a run.\n"
                                "Press Run (Ctrl+R) to start one."));
    for (QCPAxis* axis : { m_plot->xAxis, y }) {
        axis->setTicks(haveValues);
        axis->grid()->setVisible(haveValues);
    }
    if (!haveValues) {
        y->setScaleType(QCPAxis::stLogarithmic);
        y->setTicker(m_logTicker);
        y->setRange(1, 10);
    } else if (m_logScale) {
        y->setScaleType(QCPAxis::stLogarithmic);
        // 5% of the span on each side, in log space, so a flat tail near convergence still
        // fills the plot instead of hugging a line.
        const double logLow = std::log10(lowest);
        const double logHigh = std::log10(highest);
        // At least ~1% either side: a flat or one-point history would otherwise get a range so
        // narrow that every tick label rounds to the same number.
        const double pad = std::max(0.05 * (logHigh - logLow), 0.005);
        y->setTicker(m_logTicker);
        y->setRange(std::pow(10.0, logLow - pad), std::pow(10.0, logHigh + pad));
    } else {
        y->setScaleType(QCPAxis::stLinear);
        y->setTicker(m_linearTicker);
        const double pad
            = std::max(0.05 * (highest - lowest), 0.01 * std::max(std::abs(highest), 1e-12));
        y->setRange(lowest - pad, highest + pad);
    }
    updateNumberFormat(y, y->range());
    y->setLabel(m_logScale ? tr("objective (log scale)") : tr("objective"));
    m_plot->replot(QCustomPlot::rpQueuedReplot);
}

} // namespace facet
