// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QList>
#include <QObject>
#include <QPointF>
#include <QString>

#include <functional>

class QCPGraph;
class QCPItemText;
class QCPItemTracer;
class QCustomPlot;
class QMouseEvent;

namespace facet {

// A marker on the data point nearest the mouse (in screen distance) with a text box beside it.
// It lives on the plot's buffered "overlay" layer, so following the mouse repaints that layer
// only, never the curves.
class PlotHoverReadout : public QObject {
    Q_OBJECT

public:
    using Candidates = std::function<QList<QCPGraph*>()>;
    // The box text for point `index` (into the graph's sorted data) of `graph`.
    using Describe = std::function<QString(const QCPGraph& graph, int index)>;

    PlotHoverReadout(QCustomPlot* plot, Candidates candidates, Describe describe);

    // Moves the marker to the point nearest `pixel` (plot widget coordinates); hides it when the
    // position is outside the axes or there are no points.
    void showNearest(const QPointF& pixel);
    void hide();
    bool isShown() const;
    QString text() const;
    QCPGraph* graph() const { return m_graph; }
    int index() const { return m_index; } // -1 while hidden

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    void onMouseMove(QMouseEvent* event);
    void place(const QPointF& point);
    void refresh();

    QCustomPlot* m_plot;
    Candidates m_candidates;
    Describe m_describe;
    QCPItemTracer* m_tracer = nullptr;
    QCPItemText* m_label = nullptr;
    QCPGraph* m_graph = nullptr;
    int m_index = -1;
};

} // namespace facet
