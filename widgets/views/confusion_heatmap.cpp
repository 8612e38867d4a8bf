// SPDX-License-Identifier: GPL-3.0-or-later
#include "views/confusion_heatmap.h"

#include "plot_export.h"
#include "plotting/plot_save_menu.h"
#include "plotting/tick_labels.h"

#include <QLabel>
#include <QToolTip>
#include <QVBoxLayout>
#include <qcustomplot.h>

#include <algorithm>
#include <cmath>

namespace facet {

namespace {

// The axis lengths for spacing tick labels, estimated from the plot's size less the title,
// labels and colour scale, not read from the layout: the layout depends on the labels chosen,
// and a choice that fed back into itself could flip between two spacings forever.
constexpr int kConfusionOtherHeight = 110;
constexpr int kConfusionOtherWidth = 170;

// Past this many columns the cluster names are turned to stay apart.
constexpr int kUprightColumnLabels = 12;
const QColor kMatchedOutline(230, 85, 13);

} // namespace

ConfusionHeatmap::ConfusionHeatmap(QWidget* parent)
    : QWidget(parent)
    , m_plot(new QCustomPlot(this))
    , m_note(new QLabel(this))
{
    m_plot->setObjectName(QStringLiteral("confusionPlot"));
    m_plot->setMinimumSize(240, 140); // its layout asked for 478 px, which held the window wide
    m_note->setObjectName(QStringLiteral("confusionNote"));
    m_note->setAlignment(Qt::AlignCenter);
    m_note->setWordWrap(true);

    m_plot->plotLayout()->insertRow(0);
    m_plot->plotLayout()->addElement(0, 0,
        new QCPTextElement(m_plot,
            tr("True class × cluster; columns in the order of AC's matching"),
            QFont(font().family(), font().pointSize(), QFont::Bold)));
    m_map = new QCPColorMap(m_plot->xAxis, m_plot->yAxis);
    m_map->setInterpolate(false);
    m_map->setTightBoundary(false);
    m_scale = new QCPColorScale(m_plot);
    m_plot->plotLayout()->addElement(1, 1, m_scale);
    m_scale->setType(QCPAxis::atRight);
    m_scale->axis()->setLabel(tr("samples"));
    m_map->setColorScale(m_scale);
    QCPColorGradient gradient;
    gradient.clearColorStops();
    gradient.setColorStopAt(0.0, Qt::white);
    gradient.setColorStopAt(0.4, QColor(158, 202, 225));
    gradient.setColorStopAt(1.0, QColor(8, 48, 107));
    m_map->setGradient(gradient);
    auto* margins = new QCPMarginGroup(m_plot);
    m_plot->axisRect()->setMarginGroup(QCP::msBottom | QCP::msTop, margins);
    m_scale->setMarginGroup(QCP::msBottom | QCP::msTop, margins);

    m_plot->xAxis->setLabel(tr("cluster"));
    m_plot->yAxis->setLabel(tr("true class"));
    m_plot->yAxis->setRangeReversed(true); // the first class on top, as in a table
    for (QCPAxis* axis : { m_plot->xAxis, m_plot->yAxis }) {
        axis->grid()->setVisible(false);
        axis->setSubTicks(false);
    }
    installSavePlotMenu(m_plot, tr("confusion matrix"), QStringLiteral("confusion.png"),
        [this] { return hasMatrix(); });
    connect(m_plot, &QCustomPlot::mouseMove, this, &ConfusionHeatmap::showToolTip);
    // The cell size is known once the axis rect is laid out, just before drawing.
    connect(m_plot, &QCustomPlot::afterLayout, this, &ConfusionHeatmap::updateCellTexts);

    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_plot, 1);
    layout->addWidget(m_note, 1);
    clear();
}

void ConfusionHeatmap::clear()
{
    m_matrix = {};
    m_rowNames.clear();
    m_columnNames.clear();
    m_plot->clearItems();
    m_map->data()->clear();
    m_plot->hide();
    m_note->setText(tr("The confusion matrix of the clusters against the true classes appears "
                       "after a run on labelled data."));
    m_note->show();
}

void ConfusionHeatmap::setResult(const Dataset& dataset, const RunResult& result)
{
    clear();
    if (!dataset.hasLabels()) {
        m_note->setText(tr("<b>No labels</b>: a confusion matrix needs the true classes."));
        return;
    }
    if (result.predicted.size() != dataset.labels.size() || result.predicted.empty())
        return;
    m_matrix = confusionMatrix(dataset.labels, result.predicted);
    const int rows = int(m_matrix.counts.rows());
    const int cols = int(m_matrix.counts.cols());
    if (rows < 2 || cols < 2) {
        m_note->setText(tr("A confusion matrix needs at least two classes and two clusters; "
                           "this run has %1 and %2.")
                            .arg(rows)
                            .arg(cols));
        m_matrix = {};
        return;
    }
    for (int value : m_matrix.trueValues)
        m_rowNames << dataset.className(value);
    for (int j = 0; j < cols; ++j) {
        const int cluster = m_matrix.clusterValues[std::size_t(j)];
        m_columnNames << tr("C%1").arg(cluster + 1);
    }

    m_map->data()->setSize(cols, rows);
    m_map->data()->setRange(QCPRange(0, cols - 1), QCPRange(0, rows - 1));
    const int peak = std::max(1, m_matrix.counts.maxCoeff());
    for (int j = 0; j < cols; ++j) {
        const int matchedRow = m_matrix.mappedRow[std::size_t(j)];
        for (int i = 0; i < rows; ++i) {
            const int count = m_matrix.counts(i, j);
            m_map->data()->setCell(j, i, count);
            if (count > 0) {
                auto* text = new QCPItemText(m_plot);
                text->position->setCoords(j, i);
                text->setText(QString::number(count));
                text->setColor(count > 0.55 * peak ? Qt::white : Qt::black);
                text->setClipToAxisRect(true);
            }
            if (i == matchedRow) {
                auto* outline = new QCPItemRect(m_plot);
                outline->topLeft->setCoords(j - 0.5, i - 0.5);
                outline->bottomRight->setCoords(j + 0.5, i + 0.5);
                outline->setPen(QPen(kMatchedOutline, 1.5));
            }
        }
    }
    m_map->setDataRange(QCPRange(0, peak));
    m_plot->xAxis->setTickLabelRotation(cols > kUprightColumnLabels ? -60 : 0);
    m_rowStep = 0;
    m_columnStep = 0;
    updateTickers();
    m_plot->xAxis->setRange(-0.5, cols - 0.5);
    m_plot->yAxis->setRange(-0.5, rows - 0.5);
    m_plot->xAxis->setLabel(tr("cluster (outlined: matched to a class; %1 of %2 samples)")
                                .arg(m_matrix.matchedCount())
                                .arg(result.predicted.size()));
    m_note->hide();
    m_plot->show();
    m_plot->replot();
}

bool ConfusionHeatmap::updateTickers()
{
    const int lineHeight = QFontMetrics(m_plot->yAxis->tickLabelFont()).height();
    const int rowStep = labelStep(
        int(m_rowNames.size()), m_plot->height() - kConfusionOtherHeight, lineHeight + 2);
    // Turned labels need a line each; upright ones their width.
    const int columnLabel = m_columnNames.size() > kUprightColumnLabels
        ? lineHeight + 2
        : QFontMetrics(m_plot->xAxis->tickLabelFont()).horizontalAdvance(QStringLiteral("C88 "));
    const int columnStep
        = labelStep(int(m_columnNames.size()), m_plot->width() - kConfusionOtherWidth, columnLabel);
    if (rowStep == m_rowStep && columnStep == m_columnStep)
        return false;
    m_rowStep = rowStep;
    m_columnStep = columnStep;
    QList<double> rows;
    QList<double> columns;
    for (int i = 0; i < m_rowNames.size(); ++i)
        rows << i;
    for (int j = 0; j < m_columnNames.size(); ++j)
        columns << j;
    m_plot->yAxis->setTicker(sparseTextTicker(rows, m_rowNames, rowStep));
    m_plot->xAxis->setTicker(sparseTextTicker(columns, m_columnNames, columnStep));
    return true;
}

int ConfusionHeatmap::writtenCountCells() const
{
    int written = 0;
    for (int i = 0; i < m_plot->itemCount(); ++i) {
        if (qobject_cast<QCPItemText*>(m_plot->item(i)) && m_plot->item(i)->visible())
            ++written;
    }
    return written;
}

void ConfusionHeatmap::updateCellTexts()
{
    if (!hasMatrix())
        return;
    // The label spacing follows the plot size; a change shows on the next frame.
    if (updateTickers())
        m_plot->replot(QCustomPlot::rpQueuedReplot);
    const double cellWidth
        = std::abs(m_plot->xAxis->coordToPixel(1) - m_plot->xAxis->coordToPixel(0));
    const double cellHeight
        = std::abs(m_plot->yAxis->coordToPixel(1) - m_plot->yAxis->coordToPixel(0));
    const QFontMetrics metrics(m_plot->font());
    for (int i = 0; i < m_plot->itemCount(); ++i) {
        if (auto* text = qobject_cast<QCPItemText*>(m_plot->item(i)))
            text->setVisible(metrics.horizontalAdvance(text->text()) + 2 <= cellWidth
                && metrics.height() <= cellHeight);
    }
}

void ConfusionHeatmap::resizeEvent(QResizeEvent* event)
{
    QWidget::resizeEvent(event);
    m_plot->replot(QCustomPlot::rpQueuedReplot);
}

void ConfusionHeatmap::showToolTip(QMouseEvent* event)
{
    if (!hasMatrix())
        return;
    const QPointF pos = event->position();
    const int j = int(std::lround(m_plot->xAxis->pixelToCoord(pos.x())));
    const int i = int(std::lround(m_plot->yAxis->pixelToCoord(pos.y())));
    if (!m_plot->axisRect()->rect().contains(pos.toPoint()) || i < 0 || j < 0
        || i >= m_rowNames.size() || j >= m_columnNames.size()) {
        QToolTip::hideText();
        return;
    }
    const int matchedRow = m_matrix.mappedRow[std::size_t(j)];
    const QString matched = matchedRow >= 0
        ? tr("cluster %1 is matched to class %2").arg(m_columnNames[j], m_rowNames[matchedRow])
        : tr("cluster %1 is not matched to a class").arg(m_columnNames[j]);
    QToolTip::showText(event->globalPosition().toPoint(),
        tr("class %1, cluster %2: %3 samples\n%4")
            .arg(m_rowNames[i], m_columnNames[j])
            .arg(m_matrix.counts(i, j))
            .arg(matched),
        m_plot);
}

Result<bool> ConfusionHeatmap::exportPlot(const QString& path)
{
    return plots::savePlot(*m_plot, path, tr("Confusion matrix"));
}

} // namespace facet
