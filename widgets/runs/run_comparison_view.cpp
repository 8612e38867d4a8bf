// SPDX-License-Identifier: GPL-3.0-or-later
#include "runs/run_comparison_view.h"

#include "common/image_grid.h"
#include "data/image_render.h"
#include "plotting/log_axis_ticker.h"
#include "runs/run_params_text.h"
#include "runs/run_summary.h"

#include <QDialogButtonBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QScrollArea>
#include <QShortcut>
#include <QSplitter>
#include <QVBoxLayout>
#include <qcustomplot.h>

#include <algorithm>
#include <cmath>

namespace facet {

using namespace Qt::StringLiterals;

namespace {

// Basis tiles of about this many pixels on their longer side, whatever the image size.
constexpr int kTilePixels = 72;

QString percentCell(const std::optional<double>& v)
{
    return v ? QString::number(100 * *v, 'f', 1) + u" %"_s : u"–"_s;
}

QList<ImageTile> basisTiles(const RunRecord& run)
{
    QList<ImageTile> tiles;
    if (!run.hasFactors() || run.imageHeight <= 0 || run.imageWidth <= 0
        || qint64(run.imageHeight) * run.imageWidth != run.basis.rows())
        return tiles;
    for (Eigen::Index j = 0; j < run.basis.cols(); ++j) {
        ImageTile tile;
        tile.image = columnToImage(run.basis.col(j), run.imageHeight, run.imageWidth);
        tile.caption = QString::number(j + 1);
        tile.toolTip = RunComparisonView::tr("basis image %1 of %2").arg(j + 1).arg(run.name);
        tiles << tile;
    }
    return tiles;
}

} // namespace

QColor RunComparisonView::runColor(int column)
{
    static const QColor colors[kMaxRuns]
        = { QColor(31, 119, 180), QColor(214, 39, 40), QColor(44, 160, 44), QColor(148, 103, 189) };
    return colors[std::clamp(column, 0, kMaxRuns - 1)];
}

RunComparisonView::RunComparisonView(QWidget* parent)
    : QWidget(parent)
    , m_columns(new QWidget(this))
    , m_plot(new QCustomPlot(this))
{
    setWindowTitle(tr("Compare runs"));
    auto* columnsLayout = new QHBoxLayout(m_columns);
    columnsLayout->setContentsMargins(0, 0, 0, 0);
    for (int i = 0; i < kMaxRuns; ++i) {
        auto* column = new QWidget(m_columns);
        auto* layout = new QVBoxLayout(column);
        layout->setContentsMargins(4, 4, 4, 4);
        auto* header = new QLabel(column);
        header->setTextFormat(Qt::RichText);
        header->setWordWrap(true);
        header->setAlignment(Qt::AlignTop | Qt::AlignLeft);
        header->setTextInteractionFlags(Qt::TextSelectableByMouse);
        auto* grid = new ImageGrid(column);
        grid->setPlaceholderText(tr("No basis images kept for this run"));
        auto* scroll = new QScrollArea(column);
        scroll->setWidgetResizable(true);
        scroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
        scroll->setWidget(grid);
        layout->addWidget(header);
        layout->addWidget(scroll, 1);
        columnsLayout->addWidget(column, 1);
        m_headers << header;
        m_galleries << grid;
    }

    m_plot->xAxis->setLabel(tr("iteration"));
    m_plot->yAxis->setLabel(tr("objective"));
    m_plot->legend->setVisible(true);
    m_plot->legend->setFont(font());
    m_plot->legend->setBrush(QColor(255, 255, 255, 220));
    m_plot->axisRect()->insetLayout()->setInsetAlignment(0, Qt::AlignTop | Qt::AlignRight);
    m_plot->setInteractions(QCP::iRangeDrag | QCP::iRangeZoom);
    m_plot->setMinimumHeight(160);

    auto* splitter = new QSplitter(Qt::Vertical, this);
    splitter->addWidget(m_columns);
    splitter->addWidget(m_plot);
    splitter->setStretchFactor(0, 1);
    splitter->setStretchFactor(1, 1);
    splitter->setChildrenCollapsible(false);
    // A window of its own: it closes with a button (and Escape), not only by the title bar.
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Close, this);
    connect(buttons, &QDialogButtonBox::rejected, this, &QWidget::close);
    auto* escape = new QShortcut(QKeySequence::Cancel, this);
    connect(escape, &QShortcut::activated, this, &QWidget::close);
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(splitter);
    layout->addWidget(buttons);
    clear();
}

void RunComparisonView::setRuns(std::vector<RunRecord> runs)
{
    if (int(runs.size()) < kMinRuns)
        runs.clear();
    if (int(runs.size()) > kMaxRuns)
        runs.resize(kMaxRuns);
    m_runs = std::move(runs);
    rebuildColumns();
    rebuildPlot();
}

void RunComparisonView::clear()
{
    setRuns({});
}

QString RunComparisonView::headerHtml(const RunRecord& run, int column) const
{
    const RunSummary& s = run.summary;
    QString html = u"<p style='margin:0'><span style='color:%1; font-size:large'>&#9632;</span> "
                   "<b>%2</b><br>%3<br><small>%4</small></p>"_s.arg(runColor(column).name(),
                       run.name.toHtmlEscaped(), methodTitle(run.options.method).toHtmlEscaped(),
                       runParamsText(run.options).toHtmlEscaped());
    html += u"<table cellspacing='0' cellpadding='1'>"
            "<tr><td>AC</td><td align='right'><b>%1</b></td>"
            "<td>&nbsp;&nbsp;NMI</td><td align='right'><b>%2</b></td></tr>"
            "<tr><td>objective</td><td align='right'>%3</td>"
            "<td>&nbsp;&nbsp;iterations</td><td align='right'>%4</td></tr>"
            "<tr><td>seed</td><td align='right'>%5</td>"
            "<td>&nbsp;&nbsp;error</td><td align='right'>%6</td></tr>"_s
                .arg(percentCell(s.ac), percentCell(s.nmi),
                    std::isfinite(s.objective) ? QString::number(s.objective, 'g', 5) : u"–"_s)
                .arg(s.iterations)
                .arg(QString::number(run.options.driver.seed),
                    formatReconstructionError(s.reconstructionError));
    // A graph method's normalization rescales V and its graph term. When any compared run has
    // that line, every header gets the row (empty where it does not apply), so the galleries
    // below stay aligned.
    if (returnedObjectiveDiffers(s.objective, s.returnedObjective))
        html += u"<tr><td colspan='4'><small>objective %1 at the returned, normalized "
                "factors</small></td></tr>"_s.arg(QString::number(s.returnedObjective, 'g', 5));
    else if (std::any_of(m_runs.begin(), m_runs.end(), [](const RunRecord& r) {
                 return returnedObjectiveDiffers(r.summary.objective, r.summary.returnedObjective);
             }))
        html += u"<tr><td colspan='4'><small>&nbsp;</small></td></tr>"_s;
    return html + u"</table>"_s;
}

void RunComparisonView::rebuildColumns()
{
    for (int i = 0; i < kMaxRuns; ++i) {
        QWidget* column = m_headers[i]->parentWidget();
        if (i >= runCount()) {
            m_galleries[i]->clear();
            column->hide();
            continue;
        }
        const RunRecord& run = m_runs[std::size_t(i)];
        m_headers[i]->setText(headerHtml(run, i));
        const int side = std::max(run.imageHeight, run.imageWidth);
        if (side > 0)
            m_galleries[i]->setZoomPercent(std::clamp(
                kTilePixels * 100 / side, ImageGrid::kMinZoomPercent, ImageGrid::kMaxZoomPercent));
        const QList<ImageTile> tiles = basisTiles(run);
        if (tiles.isEmpty())
            m_galleries[i]->clear();
        else
            m_galleries[i]->setSections({ ImageSection { tr("Basis images"), tiles } });
        column->show();
    }
}

void RunComparisonView::rebuildPlot()
{
    m_plot->clearGraphs();
    // A log axis shows objectives that span decades; it needs every value positive.
    bool positive = true;
    bool any = false;
    for (const RunRecord& run : m_runs)
        for (double v : run.history)
            if (std::isfinite(v)) {
                any = true;
                positive = positive && v > 0;
            }
    const bool logScale = any && positive;
    m_plot->yAxis->setScaleType(logScale ? QCPAxis::stLogarithmic : QCPAxis::stLinear);
    // QCPAxisTickerLog labels powers of ten only; LogAxisTicker labels narrower ranges too.
    if (logScale)
        m_plot->yAxis->setTicker(QSharedPointer<LogAxisTicker>::create());
    else
        m_plot->yAxis->setTicker(QSharedPointer<QCPAxisTicker>::create());
    m_plot->yAxis->setLabel(logScale ? tr("objective (log scale)") : tr("objective"));

    for (int i = 0; i < runCount(); ++i) {
        const RunRecord& run = m_runs[std::size_t(i)];
        QCPGraph* graph = m_plot->addGraph();
        graph->setName(run.name);
        graph->setPen(QPen(runColor(i), 2));
        QVector<double> x, y;
        for (std::size_t t = 0; t < run.history.size(); ++t)
            if (std::isfinite(run.history[t])) {
                x << double(t + 1);
                y << run.history[t];
            }
        graph->setData(x, y, true);
    }
    m_plot->legend->setVisible(runCount() > 0);
    m_plot->rescaleAxes();
    // A little room above and below, so a curve that ends at the lowest value is not drawn on
    // the axis itself (multiplicative on a log axis).
    const QCPRange range = m_plot->yAxis->range();
    if (logScale)
        m_plot->yAxis->setRange(range.lower / 1.15, range.upper * 1.15);
    else
        m_plot->yAxis->setRange(
            range.lower - 0.05 * range.size(), range.upper + 0.05 * range.size());
    const bool decades = logScale && LogAxisTicker::usesDecades(m_plot->yAxis->range());
    m_plot->yAxis->setNumberFormat(decades ? u"eb"_s : u"g"_s);
    m_plot->yAxis->setNumberPrecision(decades ? 0 : 4);
    m_plot->replot(QCustomPlot::rpQueuedReplot);
}

} // namespace facet
