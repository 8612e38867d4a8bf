// SPDX-License-Identifier: GPL-3.0-or-later
#include "demo/demo_panel.h"

#include <QFileDialog>
#include <QHBoxLayout>
#include <QMenu>
#include <QMessageBox>
#include <QMouseEvent>
#include <QToolButton>
#include <QVBoxLayout>
#include <qcustomplot.h>

#include <algorithm>
#include <cmath>
#include <map>

namespace facet {

namespace {

// Tableau 10 without its grey, which marks points not clustered yet.
QColor clusterColor(int index)
{
    static const QColor colors[] = { QColor(31, 119, 180), QColor(255, 127, 14),
        QColor(44, 160, 44), QColor(214, 39, 40), QColor(148, 103, 189), QColor(140, 86, 75),
        QColor(227, 119, 194), QColor(188, 189, 34), QColor(23, 190, 207) };
    if (index < 0)
        return QColor(170, 170, 170);
    return colors[index % int(std::size(colors))];
}

// Above "main" (the points), below QCustomPlot's own "axes", "legend" and "overlay" layers.
const QString kMarksLayer = QStringLiteral("demoMarks");

} // namespace

DemoPanel::DemoPanel(QWidget* parent)
    : QWidget(parent)
    , m_plot(new QCustomPlot(this))
    , m_exportButton(new QToolButton(this))
{
    m_plot->setObjectName(QStringLiteral("demoCustomPlot"));
    m_plot->setMinimumSize(320, 320);
    m_plot->setMouseTracking(true); // the open-hand cursor over a centre
    m_plot->setContextMenuPolicy(Qt::CustomContextMenu);

    // Rows: title, subtitle, axes, legend (below the axes, so it never hides a point).
    QCPLayoutGrid* layout = m_plot->plotLayout();
    layout->insertRow(0);
    layout->insertRow(0);
    QFont bold = font();
    bold.setBold(true);
    bold.setPointSizeF(font().pointSizeF() * 1.15);
    m_title = new QCPTextElement(m_plot, QString(), bold);
    m_subtitle = new QCPTextElement(m_plot, QString(), font());
    m_subtitle->setTextColor(QColor(80, 80, 80));
    layout->addElement(0, 0, m_title);
    layout->addElement(1, 0, m_subtitle);
    m_plot->axisRect()->insetLayout()->take(m_plot->legend);
    layout->addElement(3, 0, m_plot->legend);
    layout->setRowStretchFactor(3, 0.001);
    m_plot->legend->setVisible(true);
    m_plot->legend->setFont(font());
    m_plot->legend->setBorderPen(Qt::NoPen);
    m_plot->legend->setFillOrder(QCPLayoutGrid::foColumnsFirst);
    m_plot->legend->setWrap(4); // three clusters and the diamond: one row
    m_plot->legend->setMargins(QMargins(4, 0, 4, 2));

    m_plot->xAxis->setLabel(tr("x (feature 1)"));
    m_plot->yAxis->setLabel(tr("y (feature 2)"));
    m_plot->addLayer(kMarksLayer, m_plot->layer(QStringLiteral("main")), QCustomPlot::limAbove);

    m_basisGraph = m_plot->addGraph();
    m_basisGraph->setLayer(kMarksLayer);
    m_basisGraph->setLineStyle(QCPGraph::lsNone);
    m_basisGraph->setScatterStyle(QCPScatterStyle(
        QCPScatterStyle::ssDiamond, QPen(Qt::white, 1.5), QBrush(Qt::black), kBasisPixels));
    m_basisGraph->setName(tr("basis vector"));
    m_handleGraph = m_plot->addGraph();
    m_handleGraph->setLayer(kMarksLayer);
    m_handleGraph->setLineStyle(QCPGraph::lsNone);
    m_handleGraph->setScatterStyle(QCPScatterStyle(
        QCPScatterStyle::ssCircle, QPen(QColor(60, 60, 60), 2), Qt::NoBrush, kHandlePixels));
    // Not in the legend (its circle would not fit an icon): numbered in the plot instead.
    m_handleGraph->setName(tr("Gaussian centre"));

    connect(m_plot, &QCustomPlot::mousePress, this, &DemoPanel::onMousePress);
    connect(m_plot, &QCustomPlot::mouseMove, this, &DemoPanel::onMouseMove);
    connect(m_plot, &QCustomPlot::mouseRelease, this, &DemoPanel::onMouseRelease);
    // The axis rect's size is known only once the layout ran; the ranges follow it in the same
    // replot, so a resize never shows a stretched picture.
    connect(m_plot, &QCustomPlot::afterLayout, this, &DemoPanel::fitAxes);

    auto* exportMenu = new QMenu(this);
    exportMenu->addAction(
        tr("PNG image…"), this, [this] { exportWithDialog(QStringLiteral("png")); });
    exportMenu->addAction(
        tr("PDF document…"), this, [this] { exportWithDialog(QStringLiteral("pdf")); });
    m_exportButton->setText(tr("Export"));
    m_exportButton->setToolTip(tr("Save this panel as a PNG image or a PDF document"));
    m_exportButton->setMenu(exportMenu);
    m_exportButton->setPopupMode(QToolButton::InstantPopup);
    m_exportButton->setAutoRaise(true);
    connect(m_plot, &QWidget::customContextMenuRequested, this,
        [this, exportMenu](const QPoint& at) { exportMenu->popup(m_plot->mapToGlobal(at)); });

    auto* header = new QHBoxLayout;
    header->setContentsMargins(0, 0, 0, 0);
    header->addStretch(1);
    header->addWidget(m_exportButton);
    auto* column = new QVBoxLayout(this);
    column->setContentsMargins(0, 0, 0, 0);
    column->setSpacing(0);
    column->addLayout(header);
    column->addWidget(m_plot, 1);
}

void DemoPanel::replot()
{
    m_plot->replot(QCustomPlot::rpQueuedReplot);
}

void DemoPanel::setPoints(const Matrix& X, const std::vector<int>& colours)
{
    for (QCPGraph* graph : std::as_const(m_pointGraphs))
        m_plot->removeGraph(graph);
    m_pointGraphs.clear();

    std::map<int, QCPGraph*> byColour; // ascending, so the legend lists clusters in order
    for (Eigen::Index i = 0; i < X.cols(); ++i) {
        const int colour = std::size_t(i) < colours.size() ? colours[std::size_t(i)] : -1;
        QCPGraph*& graph = byColour[colour];
        if (!graph) {
            graph = m_plot->addGraph();
            graph->setLineStyle(QCPGraph::lsNone);
            const QColor color = clusterColor(colour);
            graph->setScatterStyle(
                QCPScatterStyle(QCPScatterStyle::ssDisc, color.darker(115), color, 7));
            graph->setName(colour < 0 ? tr("not clustered yet") : tr("cluster %1").arg(colour + 1));
        }
        graph->addData(double(X(0, i)), double(X(1, i)));
    }
    // Clusters first in the legend, then the diamonds and the centres.
    m_plot->legend->clearItems();
    for (const auto& [colour, graph] : byColour) {
        m_pointGraphs.append(graph);
        graph->addToLegend();
    }
    m_basisGraph->addToLegend();
    replot();
}

void DemoPanel::setBasis(const Matrix& basis)
{
    m_basis = basis;
    m_basisGraph->data()->clear();
    while (m_basisLines.size() > basis.cols())
        m_plot->removeItem(m_basisLines.takeLast());
    while (m_basisLines.size() < basis.cols()) {
        auto* line = new QCPItemLine(m_plot);
        line->setLayer(kMarksLayer);
        line->setPen(QPen(QColor(0, 0, 0, 110), 1, Qt::DashLine));
        line->start->setCoords(0, 0);
        m_basisLines.append(line);
    }
    if (basis.rows() == 2) {
        for (Eigen::Index j = 0; j < basis.cols(); ++j) {
            const double x = double(basis(0, j)), y = double(basis(1, j));
            m_basisGraph->addData(x, y);
            m_basisLines[int(j)]->end->setCoords(x, y);
        }
    }
    replot();
}

void DemoPanel::setCentres(const QList<QPointF>& centres)
{
    m_centres = centres;
    m_handleGraph->data()->clear();
    while (m_centreLabels.size() > centres.size())
        m_plot->removeItem(m_centreLabels.takeLast());
    while (m_centreLabels.size() < centres.size()) {
        // The number of the Gaussian (as in the spread controls and the cluster colours),
        // just above and right of its circle, whatever the zoom.
        auto* label = new QCPItemText(m_plot);
        label->setLayer(kMarksLayer);
        label->setText(QString::number(m_centreLabels.size() + 1));
        QFont bold = font();
        bold.setBold(true);
        label->setFont(bold);
        label->setColor(QColor(60, 60, 60));
        label->setPositionAlignment(Qt::AlignLeft | Qt::AlignBottom);
        m_centreLabels.append(label);
    }
    for (int i = 0; i < centres.size(); ++i) {
        m_handleGraph->addData(centres[i].x(), centres[i].y());
        QCPItemText* label = m_centreLabels[i];
        label->position->setType(QCPItemPosition::ptPlotCoords);
        label->position->setCoords(centres[i]);
        label->setPadding(QMargins(kHandlePixels / 2 - 2, 0, 0, kHandlePixels / 2 - 2));
    }
    replot();
}

void DemoPanel::setViewRect(const QRectF& rect)
{
    if (rect.isValid())
        m_viewRect = rect;
    replot();
}

void DemoPanel::setTitle(const QString& title, const QString& subtitle)
{
    m_title->setText(title);
    m_subtitle->setText(subtitle);
    replot();
}

QString DemoPanel::title() const
{
    return m_title->text();
}

QString DemoPanel::subtitle() const
{
    return m_subtitle->text();
}

void DemoPanel::fitAxes()
{
    const QRect pixels = m_plot->axisRect()->rect();
    if (pixels.width() <= 0 || pixels.height() <= 0)
        return;
    // One data unit per the same number of pixels on both axes: the larger of the two needs.
    const double perPixel
        = std::max(m_viewRect.width() / pixels.width(), m_viewRect.height() / pixels.height());
    m_plot->xAxis->setRange(m_viewRect.left(), m_viewRect.left() + perPixel * pixels.width());
    // The rect is in data coordinates: y() is its lower edge.
    m_plot->yAxis->setRange(m_viewRect.y(), m_viewRect.y() + perPixel * pixels.height());
}

QPointF DemoPanel::centreHandlePosition(int index) const
{
    if (index < 0 || index >= m_centres.size())
        return {};
    const QPointF& c = m_centres[index];
    return { m_plot->xAxis->coordToPixel(c.x()), m_plot->yAxis->coordToPixel(c.y()) };
}

int DemoPanel::handleAt(const QPointF& pixel) const
{
    // The nearest centre within the circle (plus a little slack for a quick grab).
    constexpr double kReach = kHandlePixels / 2.0 + 4;
    int found = -1;
    double best = kReach;
    for (int i = 0; i < m_centres.size(); ++i) {
        const QPointF d = centreHandlePosition(i) - pixel;
        const double distance = std::hypot(d.x(), d.y());
        if (distance <= best) {
            best = distance;
            found = i;
        }
    }
    return found;
}

QPointF DemoPanel::pixelToData(const QPointF& pixel) const
{
    return { m_plot->xAxis->pixelToCoord(pixel.x()), m_plot->yAxis->pixelToCoord(pixel.y()) };
}

void DemoPanel::onMousePress(QMouseEvent* event)
{
    if (event->button() != Qt::LeftButton)
        return;
    const int index = handleAt(event->position());
    if (index < 0)
        return;
    m_dragIndex = index;
    m_grabOffset = event->position() - centreHandlePosition(index);
    m_plot->setCursor(Qt::ClosedHandCursor);
    Q_EMIT centrePressed(index);
}

void DemoPanel::onMouseMove(QMouseEvent* event)
{
    if (m_dragIndex < 0) {
        m_plot->setCursor(handleAt(event->position()) >= 0 ? Qt::OpenHandCursor : Qt::ArrowCursor);
        return;
    }
    Q_EMIT centreDragged(m_dragIndex, pixelToData(event->position() - m_grabOffset));
}

void DemoPanel::onMouseRelease(QMouseEvent* event)
{
    if (m_dragIndex < 0 || event->button() != Qt::LeftButton)
        return;
    const int index = m_dragIndex;
    Q_EMIT centreDragged(index, pixelToData(event->position() - m_grabOffset));
    m_dragIndex = -1;
    m_plot->setCursor(Qt::OpenHandCursor);
    Q_EMIT centreReleased(index);
}

bool DemoPanel::exportTo(const QString& path)
{
    // At the size shown: the picture the user judged is the one saved.
    if (path.endsWith(QStringLiteral(".pdf"), Qt::CaseInsensitive))
        return m_plot->savePdf(
            path, 0, 0, QCP::epNoCosmetic, QStringLiteral("Facet"), m_title->text());
    return m_plot->savePng(path, 0, 0, 2.0); // twice the pixel density, for print
}

void DemoPanel::exportWithDialog(const QString& suffix)
{
    const QString filter = suffix == u"pdf" ? tr("PDF document (*.pdf)") : tr("PNG image (*.png)");
    QString path = QFileDialog::getSaveFileName(
        this, tr("Export panel"), QStringLiteral("overcomplete_demo.%1").arg(suffix), filter);
    if (path.isEmpty())
        return;
    if (!path.endsWith(u'.' + suffix, Qt::CaseInsensitive))
        path += u'.' + suffix;
    if (!exportTo(path))
        QMessageBox::warning(this, tr("Export panel"), tr("Could not write %1.").arg(path));
}

} // namespace facet
