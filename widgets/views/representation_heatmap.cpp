// SPDX-License-Identifier: GPL-3.0-or-later
#include "views/representation_heatmap.h"

#include "plot_export.h"
#include "plotting/plot_save_menu.h"
#include "plotting/tick_labels.h"

#include <QVBoxLayout>
#include <qcustomplot.h>

#include <algorithm>
#include <cmath>
#include <numeric>

namespace facet {

namespace {

// The axis lengths for spacing tick labels, estimated from the plot's size less the title,
// labels and colour scale, not read from the layout: the layout depends on the labels chosen,
// and a choice that fed back into itself could flip between two spacings forever.
constexpr int kHeatmapOtherHeight = 110;
constexpr int kHeatmapOtherWidth = 170;

const QColor kBoundary(214, 39, 40);

QCPColorGradient inkGradient()
{
    QCPColorGradient gradient;
    gradient.clearColorStops();
    gradient.setColorStopAt(0.0, Qt::white);
    gradient.setColorStopAt(0.5, QColor(99, 99, 99));
    gradient.setColorStopAt(1.0, Qt::black);
    return gradient;
}

// For signed V (PCA scores): blue below 0, white at 0, red above, as in the residual images.
QCPColorGradient divergingGradient()
{
    QCPColorGradient gradient;
    gradient.clearColorStops();
    gradient.setColorStopAt(0.0, QColor(33, 102, 172));
    gradient.setColorStopAt(0.5, Qt::white);
    gradient.setColorStopAt(1.0, QColor(178, 24, 43));
    return gradient;
}

QString groupName(const Dataset& dataset, bool byClass, int group)
{
    if (!byClass)
        return QObject::tr("C%1").arg(group + 1);
    return group >= 0 && group < dataset.classNames.size() ? dataset.classNames[group]
                                                           : QString::number(group + 1);
}

} // namespace

RepresentationHeatmap::RepresentationHeatmap(QWidget* parent)
    : QWidget(parent)
    , m_plot(new QCustomPlot(this))
{
    m_plot->setObjectName(QStringLiteral("representationHeatmap"));
    setMinimumWidth(180); // with the scatter's 220, the dock fits a 1366-pixel screen
    // The title spans the plot and its colour scale: in the plot's column alone it was cut at
    // both ends ("ows sorted by clas") whenever that column was narrower than the text.
    QCPAxisRect* axes = m_plot->axisRect();
    m_plot->plotLayout()->take(axes);
    m_plot->plotLayout()->simplify();
    m_title = new QCPTextElement(
        m_plot, QString(), QFont(font().family(), font().pointSize(), QFont::Bold));
    auto* body = new QCPLayoutGrid;
    m_plot->plotLayout()->addElement(0, 0, m_title);
    m_plot->plotLayout()->addElement(1, 0, body);
    body->addElement(0, 0, axes);
    m_map = new QCPColorMap(m_plot->xAxis, m_plot->yAxis);
    m_map->setInterpolate(false);
    m_scale = new QCPColorScale(m_plot);
    m_scale->setType(QCPAxis::atRight);
    m_scale->axis()->setLabel(tr("v_ij"));
    body->addElement(0, 1, m_scale);
    m_map->setColorScale(m_scale);
    auto* margins = new QCPMarginGroup(m_plot);
    m_plot->axisRect()->setMarginGroup(QCP::msBottom | QCP::msTop, margins);
    m_scale->setMarginGroup(QCP::msBottom | QCP::msTop, margins);
    m_plot->xAxis->setLabel(tr("basis vector j"));
    m_plot->yAxis->setRangeReversed(true); // the first sample on top, as V's rows
    for (QCPAxis* axis : { m_plot->xAxis, m_plot->yAxis }) {
        axis->grid()->setVisible(false);
        axis->setSubTicks(false);
    }
    // The label spacing follows the plot size; a change shows on the next frame.
    connect(m_plot, &QCustomPlot::afterLayout, this, [this] {
        const bool tickers = rowCount() > 0 && updateTickers();
        if (fitTitle() || tickers)
            m_plot->replot(QCustomPlot::rpQueuedReplot);
    });
    installSavePlotMenu(m_plot, tr("representation heatmap"), QStringLiteral("representation.png"),
        [this] { return rowCount() > 0; });
    connect(m_plot, &QCustomPlot::mousePress, this, [this](QMouseEvent* event) {
        if (event->button() != Qt::LeftButton || rowCount() == 0)
            return;
        const int row = int(std::lround(m_plot->yAxis->pixelToCoord(event->position().y())));
        if (const int sample = sampleAtRow(row); sample >= 0)
            Q_EMIT sampleActivated(sample);
    });

    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_plot);
    clear();
}

void RepresentationHeatmap::clear()
{
    m_order.clear();
    m_rowTicks.clear();
    m_rowNames.clear();
    m_columnTicks.clear();
    m_columnNames.clear();
    m_rowStep = 0;
    m_columnStep = 0;
    m_columns = 0;
    m_boundaries = 0;
    m_plot->clearItems();
    m_map->data()->clear();
    m_map->setVisible(false);
    setTitle(tr("V: each sample's coefficients\n(after a run)"));
    m_plot->yAxis->setTicker(QSharedPointer<QCPAxisTickerText>::create());
    m_plot->xAxis->setTicker(QSharedPointer<QCPAxisTickerText>::create());
    m_plot->yAxis->setLabel(QString());
    m_plot->replot(QCustomPlot::rpQueuedReplot);
}

int RepresentationHeatmap::sampleAtRow(int row) const
{
    return row >= 0 && row < rowCount() ? m_order[std::size_t(row)] : -1;
}

void RepresentationHeatmap::setResult(const Dataset& dataset, const RunResult& result)
{
    clear();
    const Matrix& V = result.factorization.V;
    const int n = int(V.rows());
    const int k = int(V.cols());
    if (n < 2 || k < 1 || int(result.predicted.size()) != n)
        return;
    m_byClass = dataset.hasLabels() && int(dataset.labels.size()) == n;
    const std::vector<int>& group = m_byClass ? dataset.labels : result.predicted;
    // Within a class the samples follow their cluster, so a split class shows as sub-blocks.
    m_order.resize(std::size_t(n));
    std::iota(m_order.begin(), m_order.end(), 0);
    std::stable_sort(m_order.begin(), m_order.end(), [&](int a, int b) {
        const auto ka = std::pair(group[std::size_t(a)], result.predicted[std::size_t(a)]);
        const auto kb = std::pair(group[std::size_t(b)], result.predicted[std::size_t(b)]);
        return ka < kb;
    });
    m_columns = k;

    m_map->data()->setSize(k, n);
    m_map->data()->setRange(QCPRange(0, std::max(k - 1, 1)), QCPRange(0, n - 1));
    for (int row = 0; row < n; ++row)
        for (int j = 0; j < k; ++j)
            m_map->data()->setCell(j, row, double(V(m_order[std::size_t(row)], j)));
    const double low = double(V.minCoeff());
    const double high = double(V.maxCoeff());
    if (low < 0) {
        const double reach = std::max(std::abs(low), std::abs(high));
        m_map->setGradient(divergingGradient());
        m_map->setDataRange(QCPRange(-reach, reach));
    } else {
        m_map->setGradient(inkGradient());
        m_map->setDataRange(QCPRange(0, high > 0 ? high : 1));
    }
    m_map->setVisible(true);

    // Group blocks: a line above each new group, its name at the block's middle.
    std::vector<std::pair<int, int>> blocks; // (first row, group)
    for (int row = 0; row < n; ++row) {
        const int g = group[std::size_t(m_order[std::size_t(row)])];
        if (blocks.empty() || blocks.back().second != g)
            blocks.emplace_back(row, g);
    }
    for (std::size_t b = 0; b < blocks.size(); ++b) {
        const int first = blocks[b].first;
        const int end = b + 1 < blocks.size() ? blocks[b + 1].first : n;
        m_rowTicks << 0.5 * (first + end - 1);
        m_rowNames << groupName(dataset, m_byClass, blocks[b].second);
        if (b == 0)
            continue;
        auto* line = new QCPItemStraightLine(m_plot);
        line->point1->setCoords(-1, first - 0.5);
        line->point2->setCoords(k + 1, first - 0.5);
        line->setPen(QPen(kBoundary, 1));
        ++m_boundaries;
    }
    for (int j = 0; j < k; ++j) {
        m_columnTicks << j;
        m_columnNames << QString::number(j + 1);
    }
    m_plot->yAxis->setLabel(m_byClass ? tr("samples by true class (red lines between classes)")
                                      : tr("samples by cluster (no labels; red lines between)"));
    updateTickers();
    m_plot->xAxis->setRange(-0.5, k - 0.5);
    m_plot->yAxis->setRange(-0.5, n - 0.5);
    // Two short lines: the heatmap is often the narrower half of the view.
    setTitle(m_byClass ? tr("V (%1 × %2)\nrows sorted by class").arg(n).arg(k)
                       : tr("V (%1 × %2)\nrows sorted by cluster").arg(n).arg(k));
    m_plot->replot();
}

bool RepresentationHeatmap::updateTickers()
{
    const QFontMetrics metrics(m_plot->yAxis->tickLabelFont());
    const int rowStep = labelStep(
        int(m_rowNames.size()), m_plot->height() - kHeatmapOtherHeight, metrics.height() + 2);
    const int columnStep = labelStep(int(m_columnNames.size()),
        m_plot->width() - kHeatmapOtherWidth, metrics.horizontalAdvance(QStringLiteral("888 ")));
    if (rowStep == m_rowStep && columnStep == m_columnStep)
        return false;
    m_rowStep = rowStep;
    m_columnStep = columnStep;
    m_plot->yAxis->setTicker(sparseTextTicker(m_rowTicks, m_rowNames, rowStep));
    m_plot->xAxis->setTicker(sparseTextTicker(m_columnTicks, m_columnNames, columnStep));
    return true;
}

void RepresentationHeatmap::setTitle(const QString& title)
{
    m_titleText = title;
    m_title->setText(title);
    fitTitle();
}

bool RepresentationHeatmap::fitTitle()
{
    // Narrower than the widest line, each line is elided at its end (with the full title as the
    // widget's tooltip) rather than cut at both.
    const QFontMetrics metrics(m_title->font());
    const int room = m_plot->viewport().width() - 8;
    QStringList lines = m_titleText.split(QLatin1Char('\n'));
    for (QString& line : lines)
        line = metrics.elidedText(line, Qt::ElideRight, room);
    const QString shown = lines.join(QLatin1Char('\n'));
    setToolTip(shown == m_titleText ? QString() : m_titleText);
    if (shown == m_title->text())
        return false;
    m_title->setText(shown);
    return true;
}

Result<bool> RepresentationHeatmap::exportPlot(const QString& path)
{
    return plots::savePlot(*m_plot, path, m_titleText);
}

} // namespace facet
