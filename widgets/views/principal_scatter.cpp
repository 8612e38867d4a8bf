// SPDX-License-Identifier: GPL-3.0-or-later
#include "views/principal_scatter.h"

#include "common/class_colors.h"

#include "metrics/confusion.h"
#include "metrics/principal_plane.h"
#include "plot_export.h"
#include "plotting/plot_save_menu.h"

#include <QLabel>
#include <QTimer>
#include <QToolTip>
#include <QVBoxLayout>
#include <qcustomplot.h>

#include <algorithm>
#include <cmath>
#include <map>

namespace facet {

namespace {

QColor groupColor(int group, int groups)
{
    return classColor(group, groups);
}

QColor tint(const QColor& color)
{
    return QColor::fromHsv(color.hsvHue(), 40, 250);
}

const QCPScatterStyle::ScatterShape kShapes[]
    = { QCPScatterStyle::ssCircle, QCPScatterStyle::ssSquare, QCPScatterStyle::ssTriangle,
          QCPScatterStyle::ssDiamond, QCPScatterStyle::ssTriangleInverted, QCPScatterStyle::ssCross,
          QCPScatterStyle::ssPlus, QCPScatterStyle::ssStar, QCPScatterStyle::ssCrossCircle };

constexpr int kRegionGrid = 400; // cells across the visible plane
constexpr double kPickRadius = 8; // pixels
constexpr int kMaxCentreLabels = 12;

} // namespace

PrincipalScatter::PrincipalScatter(QWidget* parent)
    : QWidget(parent)
    , m_plot(new QCustomPlot(this))
    , m_caption(new QLabel(this))
{
    m_plot->setObjectName(QStringLiteral("principalScatter"));
    // Its layout asked for 388 px (the legend's row), which with the heatmap beside it held the
    // main window at 1551 px or more: a laptop's 1366 could not show it. Narrower, the legend
    // wraps and the axes shrink; the splitter gives it back its room.
    m_plot->setMinimumSize(220, 150);
    m_caption->setObjectName(QStringLiteral("principalScatterCaption"));
    m_caption->setWordWrap(true);
    m_plot->plotLayout()->insertRow(0);
    m_title = new QCPTextElement(
        m_plot, QString(), QFont(font().family(), font().pointSize(), QFont::Bold));
    m_plot->plotLayout()->addElement(0, 0, m_title);
    // The legend below the axes, filling rows, so many classes wrap instead of covering points.
    auto* legendRect = new QCPLayoutGrid;
    m_plot->plotLayout()->addElement(2, 0, legendRect);
    m_plot->plotLayout()->setRowStretchFactor(2, 0.001);
    m_plot->axisRect()->insetLayout()->take(m_plot->legend);
    // Empty cells either side centre the legend and let the column grow past its width (a
    // layout column is no wider than its narrowest maximum, and a legend's maximum is its size).
    legendRect->addElement(0, 0, new QCPLayoutElement(m_plot));
    legendRect->addElement(0, 1, m_plot->legend);
    legendRect->addElement(0, 2, new QCPLayoutElement(m_plot));
    m_plot->legend->setFillOrder(QCPLegend::foColumnsFirst);
    m_plot->legend->setBorderPen(Qt::NoPen);
    m_plot->legend->setFont(font());

    m_plot->addLayer(
        QStringLiteral("regions"), m_plot->layer(QStringLiteral("grid")), QCustomPlot::limBelow);
    m_centres = m_plot->addGraph();
    m_centres->setLineStyle(QCPGraph::lsNone);
    m_centres->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssPlusCircle, Qt::black, 13));
    m_centres->setName(tr("cluster centre"));
    m_plot->setInteractions(QCP::iRangeDrag | QCP::iRangeZoom);
    m_plot->setToolTip(QString());

    installSavePlotMenu(m_plot, tr("principal plane"), QStringLiteral("principal_plane.png"),
        [this] { return pointCount() > 0; });
    connect(m_plot, &QCustomPlot::mouseMove, this, &PrincipalScatter::showToolTip);
    connect(m_plot, &QCustomPlot::mousePress, this, [this](QMouseEvent* event) {
        if (event->button() != Qt::LeftButton)
            return;
        if (const int sample = sampleAt(event->position()); sample >= 0)
            Q_EMIT sampleActivated(sample);
    });
    // Dragging or zooming shows another part of the plane: the cells follow, once per frame.
    for (QCPAxis* axis : { m_plot->xAxis, m_plot->yAxis })
        connect(axis, qOverload<const QCPRange&>(&QCPAxis::rangeChanged), this, [this] {
            if (m_regionsQueued)
                return;
            m_regionsQueued = true;
            QTimer::singleShot(0, this, [this] {
                m_regionsQueued = false;
                updateRegions();
                m_plot->replot(QCustomPlot::rpQueuedReplot);
            });
        });

    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_plot, 1);
    layout->addWidget(m_caption);
    clear();
}

void PrincipalScatter::clear()
{
    for (QCPGraph* graph : m_pointGraphs)
        m_plot->removeGraph(graph);
    m_pointGraphs.clear();
    m_plot->clearItems();
    // clearItems() deletes the cells' pixmap item too; each result gets a fresh one.
    m_regions = new QCPItemPixmap(m_plot);
    m_regions->setSelectable(false);
    m_regions->setLayer(QStringLiteral("regions"));
    m_regions->setScaled(true, Qt::IgnoreAspectRatio, Qt::FastTransformation);
    m_regions->setVisible(false);
    m_centres->data()->clear();
    m_centres->removeFromLegend();
    m_plot->legend->clearItems();
    m_plot->legend->setVisible(false);
    m_points.resize(0, 2);
    m_centrePoints.resize(0, 2);
    m_regionColors.clear();
    m_describe.clear();
    m_title->setText(tr("Samples on the first two principal axes of V (after a run)"));
    m_plot->xAxis->setLabel(tr("PC 1"));
    m_plot->yAxis->setLabel(tr("PC 2"));
    m_caption->clear();
    m_plot->replot(QCustomPlot::rpQueuedReplot);
}

void PrincipalScatter::setResult(const Dataset& dataset, const RunResult& result)
{
    clear();
    const Matrix& V = result.factorization.V;
    const int n = int(V.rows());
    if (n < 2 || V.cols() < 1 || int(result.predicted.size()) != n || result.clusters <= 0)
        return;
    const bool byClass = dataset.hasLabels() && int(dataset.labels.size()) == n;
    const PrincipalPlane plane = principalPlane(V);
    m_points = plane.points;
    m_centrePoints = projectOntoPlane(plane, clusterCentres(V, result.predicted, result.clusters));

    const std::vector<int>& colorKey = byClass ? dataset.labels : result.predicted;
    const int groups = byClass ? std::max(dataset.classCount(), 1) : result.clusters;
    // Each cluster's cell takes the colour of the class AC's matching gives it; a cluster left
    // unmatched (more clusters than classes) stays grey.
    m_regionColors.assign(std::size_t(result.clusters), QColor(236, 236, 236));
    if (byClass) {
        const ConfusionMatrix cm = confusionMatrix(dataset.labels, result.predicted);
        for (std::size_t j = 0; j < cm.clusterValues.size(); ++j) {
            const int cluster = cm.clusterValues[j];
            const int row = cm.mappedRow[j];
            if (row >= 0 && cluster >= 0 && cluster < result.clusters)
                m_regionColors[std::size_t(cluster)]
                    = tint(groupColor(cm.trueValues[std::size_t(row)], groups));
        }
    } else {
        for (int c = 0; c < result.clusters; ++c)
            m_regionColors[std::size_t(c)] = tint(groupColor(c, groups));
    }

    // One graph per (colour, cluster) pair: a graph has one scatter style.
    std::map<std::pair<int, int>, QCPGraph*> graphs;
    std::map<int, bool> inLegend;
    for (int i = 0; i < n; ++i) {
        const int key = colorKey[std::size_t(i)];
        const int cluster = result.predicted[std::size_t(i)];
        QCPGraph*& graph = graphs[{ key, cluster }];
        if (!graph) {
            graph = m_plot->addGraph();
            graph->setLineStyle(QCPGraph::lsNone);
            const QColor color = groupColor(key, groups);
            const auto shape = kShapes[std::max(cluster, 0) % int(std::size(kShapes))];
            graph->setScatterStyle(QCPScatterStyle(shape, color.darker(130), color, 7));
            graph->removeFromLegend();
            m_pointGraphs.append(graph);
        }
        graph->addData(double(m_points(i, 0)), double(m_points(i, 1)));
        m_describe.push_back(byClass ? tr("sample %1: class %2, cluster %3")
                                           .arg(i + 1)
                                           .arg(dataset.className(key))
                                           .arg(cluster + 1)
                                     : tr("sample %1: cluster %2").arg(i + 1).arg(cluster + 1));
    }
    // Legend: one circle per colour, in group order.
    if (groups <= kMaxLegendEntries) {
        for (const auto& [key, graph] : graphs) {
            if (inLegend[key.first])
                continue;
            inLegend[key.first] = true;
            QCPGraph* entry = m_plot->addGraph();
            entry->setLineStyle(QCPGraph::lsNone);
            const QColor color = groupColor(key.first, groups);
            entry->setScatterStyle(
                QCPScatterStyle(QCPScatterStyle::ssCircle, color.darker(130), color, 8));
            entry->setName(byClass ? tr("class %1").arg(dataset.className(key.first))
                                   : tr("cluster %1").arg(key.first + 1));
            m_pointGraphs.append(entry); // removed with the points; it holds no data
        }
        m_plot->legend->setVisible(true);
        updateLegendWrap();
    }
    for (Eigen::Index c = 0; c < m_centrePoints.rows(); ++c) {
        if (std::isnan(double(m_centrePoints(c, 0))))
            continue;
        m_centres->addData(double(m_centrePoints(c, 0)), double(m_centrePoints(c, 1)));
        // Dozens of names would hide the points; a point's hover text names its cluster.
        if (m_centrePoints.rows() > kMaxCentreLabels)
            continue;
        auto* label = new QCPItemText(m_plot);
        label->position->setCoords(double(m_centrePoints(c, 0)), double(m_centrePoints(c, 1)));
        label->setPositionAlignment(Qt::AlignLeft | Qt::AlignBottom);
        label->setPadding(QMargins(8, 0, 0, 6));
        label->setText(tr("C%1").arg(c + 1));
        label->setFont(QFont(font().family(), font().pointSize(), QFont::Bold));
    }

    const double total = plane.totalVariance > 0 ? plane.totalVariance : 1;
    m_plot->xAxis->setLabel(
        tr("PC 1 (%1% of the variance of V)").arg(100 * plane.variance[0] / total, 0, 'f', 1));
    m_plot->yAxis->setLabel(tr("PC 2 (%1%)").arg(100 * plane.variance[1] / total, 0, 'f', 1));
    m_title->setText(tr("V on its first two principal axes"));
    const QString cells = tr("Background: the cells of the projected cluster centres (⊕, nearest "
                             "centre in this plane); the boundaries are those of the projection, "
                             "not of the clusters in V's %1 dimensions.")
                              .arg(V.cols());
    m_caption->setText(byClass
            ? tr("Colour: true class%1; marker: predicted cluster; a cell is tinted with the "
                 "class its cluster is matched to. %2")
                  .arg(groups > kMaxLegendEntries ? tr(" (%1 classes, hover for names)").arg(groups)
                                                  : QString())
                  .arg(cells)
            : tr("Colour and marker: predicted cluster (no labels). %1").arg(cells));
    m_plot->setToolTip(QString());

    m_plot->rescaleAxes();
    for (QCPAxis* axis : { m_plot->xAxis, m_plot->yAxis }) {
        const QCPRange range = axis->range();
        const double pad = std::max(0.08 * range.size(), 1e-9);
        axis->setRange(range.lower - pad, range.upper + pad);
    }
    updateRegions();
    m_plot->replot();
}

void PrincipalScatter::updateRegions()
{
    if (m_centrePoints.rows() == 0) {
        m_regions->setVisible(false);
        return;
    }
    const QCPRange xr = m_plot->xAxis->range();
    const QCPRange yr = m_plot->yAxis->range();
    const int nx = kRegionGrid;
    const int ny = kRegionGrid;
    const Eigen::MatrixXi nearest
        = nearestCentreGrid(m_centrePoints, xr.lower, xr.upper, yr.lower, yr.upper, nx, ny);
    QImage image(nx, ny, QImage::Format_RGB32);
    for (int iy = 0; iy < ny; ++iy) {
        auto* line = reinterpret_cast<QRgb*>(image.scanLine(ny - 1 - iy)); // y grows upwards
        for (int ix = 0; ix < nx; ++ix) {
            const int c = nearest(ix, iy);
            line[ix] = c >= 0 ? m_regionColors[std::size_t(c)].rgb() : qRgb(255, 255, 255);
        }
    }
    // Grid points sit on the bounds; the image's pixels are centred on them.
    const double hx = 0.5 * xr.size() / (nx - 1);
    const double hy = 0.5 * yr.size() / (ny - 1);
    m_regions->setPixmap(QPixmap::fromImage(image));
    m_regions->topLeft->setCoords(xr.lower - hx, yr.upper + hy);
    m_regions->bottomRight->setCoords(xr.upper + hx, yr.lower - hy);
    m_regions->setVisible(true);
}

int PrincipalScatter::pointCount() const
{
    int count = 0;
    for (const QCPGraph* graph : m_pointGraphs)
        count += graph->dataCount();
    return count;
}

int PrincipalScatter::legendEntryCount() const
{
    return m_plot->legend->visible() ? m_plot->legend->itemCount() : 0;
}

int PrincipalScatter::centreCount() const
{
    return m_centres->dataCount();
}

bool PrincipalScatter::hasRegions() const
{
    return m_regions && m_regions->visible();
}

QPointF PrincipalScatter::samplePixel(int sample) const
{
    if (sample < 0 || sample >= m_points.rows())
        return {};
    return { m_plot->xAxis->coordToPixel(double(m_points(sample, 0))),
        m_plot->yAxis->coordToPixel(double(m_points(sample, 1))) };
}

int PrincipalScatter::sampleAt(const QPointF& pixel) const
{
    int best = -1;
    double bestDistance = kPickRadius * kPickRadius;
    for (int i = 0; i < int(m_points.rows()); ++i) {
        const QPointF d = samplePixel(i) - pixel;
        const double distance = d.x() * d.x() + d.y() * d.y();
        if (distance <= bestDistance) {
            bestDistance = distance;
            best = i;
        }
    }
    return best;
}

QString PrincipalScatter::caption() const
{
    return m_caption->text();
}

void PrincipalScatter::showToolTip(QMouseEvent* event)
{
    const int sample = sampleAt(event->position());
    if (sample < 0) {
        QToolTip::hideText();
        return;
    }
    QToolTip::showText(event->globalPosition().toPoint(), m_describe[std::size_t(sample)], m_plot);
}

void PrincipalScatter::updateLegendWrap()
{
    // As many entries in a row as fit across the plot.
    int widest = 1;
    for (int i = 0; i < m_plot->legend->itemCount(); ++i)
        if (QCPAbstractLegendItem* item = m_plot->legend->item(i)) // empty grid cells are null
            widest = std::max(widest, item->minimumOuterSizeHint().width());
    m_plot->legend->setWrap(std::max(1, (m_plot->width() - 20) / (widest + 8)));
}

void PrincipalScatter::resizeEvent(QResizeEvent* event)
{
    QWidget::resizeEvent(event);
    updateLegendWrap();
    m_plot->replot(QCustomPlot::rpQueuedReplot);
}

Result<bool> PrincipalScatter::exportPlot(const QString& path)
{
    return plots::savePlot(*m_plot, path, m_title->text());
}

} // namespace facet
