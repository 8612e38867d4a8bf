// SPDX-License-Identifier: GPL-3.0-or-later
#include "plotting/plot_hover_readout.h"

#include <qcustomplot.h>

#include <cmath>
#include <limits>

namespace facet {

namespace {
const QString kLayer = QStringLiteral("overlay");
constexpr double kLabelOffset = 10; // pixels between the marker and the text box
} // namespace

PlotHoverReadout::PlotHoverReadout(QCustomPlot* plot, Candidates candidates, Describe describe)
    : QObject(plot)
    , m_plot(plot)
    , m_candidates(std::move(candidates))
    , m_describe(std::move(describe))
    , m_tracer(new QCPItemTracer(plot))
    , m_label(new QCPItemText(plot))
{
    m_plot->layer(kLayer)->setMode(QCPLayer::lmBuffered);
    m_tracer->setLayer(kLayer);
    m_tracer->setStyle(QCPItemTracer::tsCircle);
    m_tracer->setSize(10);
    m_tracer->setVisible(false);
    m_label->setLayer(kLayer);
    m_label->position->setType(QCPItemPosition::ptAbsolute);
    m_label->setTextAlignment(Qt::AlignLeft);
    m_label->setPadding(QMargins(6, 4, 6, 4));
    m_label->setPen(QPen(QColor(0, 0, 0, 90)));
    m_label->setBrush(QColor(255, 255, 255, 235));
    m_label->setVisible(false);
    m_plot->setMouseTracking(true);
    m_plot->installEventFilter(this);
    connect(m_plot, &QCustomPlot::mouseMove, this, &PlotHoverReadout::onMouseMove);
}

void PlotHoverReadout::onMouseMove(QMouseEvent* event)
{
    showNearest(event->position());
}

bool PlotHoverReadout::eventFilter(QObject* watched, QEvent* event)
{
    if (watched == m_plot && event->type() == QEvent::Leave)
        hide();
    return QObject::eventFilter(watched, event);
}

void PlotHoverReadout::showNearest(const QPointF& pixel)
{
    if (!m_plot->axisRect()->rect().contains(pixel.toPoint())) {
        hide();
        return;
    }
    QCPGraph* best = nullptr;
    int bestIndex = -1;
    double bestDistance = std::numeric_limits<double>::infinity();
    for (QCPGraph* graph : m_candidates()) {
        if (!graph->visible() || graph->data()->isEmpty())
            continue;
        // Only the points around the mouse's key can be nearest on a monotone key axis; two
        // either side of it cover steep curves where a neighbour is closer on screen.
        const double key = graph->keyAxis()->pixelToCoord(pixel.x());
        const auto data = graph->data();
        const int around = int(data->findBegin(key, true) - data->constBegin());
        for (int i = std::max(0, around - 2); i < std::min(data->size(), around + 3); ++i) {
            const auto point = data->at(i);
            const QPointF at = graph->coordsToPixels(point->key, point->value);
            if (!std::isfinite(at.x()) || !std::isfinite(at.y()))
                continue;
            const double distance = std::hypot(at.x() - pixel.x(), at.y() - pixel.y());
            if (distance < bestDistance) {
                bestDistance = distance;
                best = graph;
                bestIndex = i;
            }
        }
    }
    if (!best) {
        hide();
        return;
    }
    if (best == m_graph && bestIndex == m_index && m_tracer->visible())
        return;
    m_graph = best;
    m_index = bestIndex;
    const auto point = best->data()->at(bestIndex);
    m_tracer->position->setAxes(best->keyAxis(), best->valueAxis());
    m_tracer->position->setCoords(point->key, point->value);
    m_tracer->setPen(QPen(best->pen().color(), 2));
    m_label->setText(m_describe(*best, bestIndex));
    place(best->coordsToPixels(point->key, point->value));
    m_tracer->setVisible(true);
    m_label->setVisible(true);
    refresh();
}

void PlotHoverReadout::place(const QPointF& point)
{
    // The box goes to the side of the marker with more room, so it stays inside the axes.
    const QRect area = m_plot->axisRect()->rect();
    const bool right = point.x() < area.center().x();
    const bool below = point.y() < area.center().y();
    const Qt::Alignment alignment
        = (right ? Qt::AlignLeft : Qt::AlignRight) | (below ? Qt::AlignTop : Qt::AlignBottom);
    m_label->setPositionAlignment(alignment);
    m_label->position->setCoords(point.x() + (right ? kLabelOffset : -kLabelOffset),
        point.y() + (below ? kLabelOffset : -kLabelOffset));
}

void PlotHoverReadout::hide()
{
    if (!m_tracer->visible() && !m_label->visible())
        return;
    m_tracer->setVisible(false);
    m_label->setVisible(false);
    m_graph = nullptr;
    m_index = -1;
    refresh();
}

bool PlotHoverReadout::isShown() const
{
    return m_label->visible();
}

QString PlotHoverReadout::text() const
{
    return m_label->visible() ? m_label->text() : QString();
}

void PlotHoverReadout::refresh()
{
    m_plot->layer(kLayer)->replot();
}

} // namespace facet
