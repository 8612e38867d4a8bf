// SPDX-License-Identifier: GPL-3.0-or-later
// ConvergencePlot's compared runs: finished runs drawn under the current one, each in a colour
// its name keeps for the life of the plot, and the legend that tells them apart.
#include "views/convergence_plot.h"

#include "plotting/plot_hover_readout.h"

#include <qcustomplot.h>

namespace facet {

namespace {

// Overlays avoid the first start's blue, so the current run always stands out.
QColor overlayColorAt(int index)
{
    static const QColor colors[] = { QColor(227, 119, 194), QColor(44, 160, 44),
        QColor(255, 127, 14), QColor(148, 103, 189), QColor(23, 190, 207), QColor(140, 86, 75),
        QColor(188, 189, 34), QColor(214, 39, 40), QColor(127, 127, 127), QColor(57, 59, 121) };
    return colors[index % int(std::size(colors))];
}

} // namespace

void ConvergencePlot::addRun(const QString& name, const Factorization& factorization)
{
    removeRun(name);
    if (!m_overlayColorIndex.contains(name))
        m_overlayColorIndex.insert(name, int(m_overlayColorIndex.size()));
    QCPGraph* graph = m_plot->addGraph();
    graph->setPen(QPen(overlayColor(name), 1.5));
    graph->setName(name);
    const auto& history = factorization.history;
    const auto& times = factorization.times;
    const std::size_t offset = history.size() - std::min(times.size(), history.size());
    for (std::size_t i = 0; i < history.size(); ++i)
        addPoint(graph, double(i + 1), i >= offset ? times[i - offset] : std::nan(""), history[i]);
    m_overlays.append({ name, graph });
    rescale();
}

bool ConvergencePlot::removeRun(const QString& name)
{
    for (qsizetype i = 0; i < m_overlays.size(); ++i) {
        if (m_overlays[i].name != name)
            continue;
        m_readout->hide();
        forgetGraph(m_overlays[i].graph);
        m_plot->removeGraph(m_overlays[i].graph);
        m_overlays.removeAt(i);
        rescale();
        return true;
    }
    return false;
}

void ConvergencePlot::clearOverlays()
{
    m_readout->hide();
    for (const Overlay& overlay : std::as_const(m_overlays)) {
        forgetGraph(overlay.graph);
        m_plot->removeGraph(overlay.graph);
    }
    m_overlays.clear();
    rescale();
}

QStringList ConvergencePlot::overlayNames() const
{
    QStringList names;
    for (const Overlay& overlay : m_overlays)
        names.append(overlay.name);
    return names;
}

QColor ConvergencePlot::overlayColor(const QString& name) const
{
    return overlayColorAt(m_overlayColorIndex.value(name, 0));
}

QStringList ConvergencePlot::legendNames() const
{
    QStringList names;
    if (!m_plot->legend->visible())
        return names;
    for (int i = 0; i < m_plot->legend->itemCount(); ++i) {
        if (auto* item = qobject_cast<QCPPlottableLegendItem*>(m_plot->legend->item(i)))
            names.append(item->plottable()->name());
    }
    return names;
}

void ConvergencePlot::updateLegend()
{
    m_plot->legend->setVisible(graphCount() > 1 || !m_returnedGraph->data()->isEmpty());
}

} // namespace facet
