// SPDX-License-Identifier: GPL-3.0-or-later
// ConvergencePlot's current run: live reports by start, the finished history with its segment
// lines and notes, and the hover read-out's text. The axes are in convergence_plot_axes.cpp, the
// compared runs in convergence_plot_overlays.cpp, the context menu and export in
// convergence_plot_menu.cpp.
#include "views/convergence_plot.h"

#include "plotting/log_axis_ticker.h"
#include "plotting/plot_hover_readout.h"

#include <QLocale>
#include <QVBoxLayout>
#include <qcustomplot.h>

#include <algorithm>
#include <cmath>

namespace facet {

namespace {

const QString kCurrentLayer = QStringLiteral("current");

QColor replicateColor(int replicate)
{
    static const QColor colors[] = { QColor(31, 119, 180), QColor(255, 127, 14),
        QColor(44, 160, 44), QColor(214, 39, 40), QColor(148, 103, 189), QColor(140, 86, 75) };
    return colors[replicate % int(std::size(colors))];
}

const QColor kChangeColor(120, 120, 120);

QString format(double value)
{
    return QString::number(value, 'g', 5);
}

} // namespace

ConvergencePlot::ConvergencePlot(QWidget* parent)
    : QWidget(parent)
    , m_plot(new QCustomPlot(this))
    , m_logTicker(QSharedPointer<LogAxisTicker>::create())
    , m_changeTicker(QSharedPointer<LogAxisTicker>::create())
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
    // The legend has a row of its own under the axes, its entries side by side: inside the axes
    // it covered the curves it names (issue 37).
    auto* legendRow = new QCPLayoutGrid;
    m_plot->plotLayout()->addElement(2, 0, legendRow);
    legendRow->addElement(0, 0, m_plot->legend);
    m_plot->legend->setFillOrder(QCPLayoutGrid::foColumnsFirst);
    m_plot->legend->setBorderPen(Qt::NoPen);
    m_plot->plotLayout()->setRowStretchFactor(2, 0.001);
    m_plot->setInteractions(QCP::iRangeDrag | QCP::iRangeZoom);
    // The current run draws above the overlays whatever order the graphs were added in.
    m_plot->addLayer(kCurrentLayer, m_plot->layer(QStringLiteral("main")), QCustomPlot::limAbove);

    QCPAxis* right = m_plot->yAxis2;
    right->setScaleType(QCPAxis::stLogarithmic);
    right->setTicker(m_changeTicker);
    right->setLabel(tr("relative change (log)"));
    right->setLabelColor(kChangeColor);
    right->setTickLabelColor(kChangeColor);
    right->setRange(1e-6, 1);
    m_changeGraph = m_plot->addGraph(m_plot->xAxis, right);
    // Solid and thin: the dashed lines are CF_OGL's segment starts.
    m_changeGraph->setPen(QPen(kChangeColor, 1));
    m_changeGraph->setName(tr("|relative change|"));
    m_changeGraph->removeFromLegend();

    // A graph method's final normalization rescales V and its graph term: the objective of the
    // returned factors, a hollow circle at the last iteration (Factorization::returnedObjective).
    m_returnedGraph = m_plot->addGraph();
    m_returnedGraph->setLayer(kCurrentLayer);
    m_returnedGraph->setLineStyle(QCPGraph::lsNone);
    m_returnedGraph->setScatterStyle(
        QCPScatterStyle(QCPScatterStyle::ssCircle, QPen(QColor(200, 60, 30), 2), Qt::white, 9));
    m_returnedGraph->setName(tr("returned factors (normalized)"));
    m_returnedGraph->removeFromLegend();

    // Dragging or zooming can cross the decades threshold; the labels follow the ticker.
    connect(m_plot->yAxis, qOverload<const QCPRange&>(&QCPAxis::rangeChanged), this,
        [this](const QCPRange& range) { updateNumberFormat(m_plot->yAxis, range); });
    connect(right, qOverload<const QCPRange&>(&QCPAxis::rangeChanged), this,
        [this](const QCPRange& range) { updateNumberFormat(m_plot->yAxis2, range); });

    // The baselines have no iteration curve; their one point gets a line saying what it is.
    m_note = new QCPItemText(m_plot);
    m_note->position->setType(QCPItemPosition::ptAxisRectRatio);
    m_note->position->setCoords(0.5, 0.06);
    m_note->setPositionAlignment(Qt::AlignTop | Qt::AlignHCenter);
    m_note->setTextAlignment(Qt::AlignCenter);
    m_note->setPadding(QMargins(6, 3, 6, 3));
    m_note->setBrush(QColor(255, 255, 255, 230));
    m_note->setColor(QColor(60, 60, 60));
    m_note->setClipToAxisRect(true);
    m_note->setVisible(false);

    // Before the first point: what will appear here, in place of made-up axes.
    m_emptyNote = new QCPItemText(m_plot);
    m_emptyNote->position->setType(QCPItemPosition::ptAxisRectRatio);
    m_emptyNote->position->setCoords(0.5, 0.5);
    m_emptyNote->setPositionAlignment(Qt::AlignCenter);
    m_emptyNote->setTextAlignment(Qt::AlignCenter);
    m_emptyNote->setColor(palette().color(QPalette::PlaceholderText));
    m_emptyNote->setClipToAxisRect(true);

    m_readout = new PlotHoverReadout(
        m_plot, [this] { return objectiveGraphs(); },
        [this](const QCPGraph& graph, int index) { return describePoint(graph, index); });
    buildContextMenu();

    m_returnedNote = new QLabel(this);
    m_returnedNote->setObjectName(QStringLiteral("returnedObjectiveNote"));
    m_returnedNote->setWordWrap(true);
    m_returnedNote->setContentsMargins(6, 0, 6, 2);
    m_returnedNote->setStyleSheet(QStringLiteral("color: #505050;"));
    m_returnedNote->setVisible(false);

    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(0);
    layout->addWidget(m_plot, 1);
    layout->addWidget(m_returnedNote);
    clear();
}

void ConvergencePlot::setTitle(const QString& title)
{
    m_title->setText(title);
}

void ConvergencePlot::clearCurrent()
{
    m_readout->hide();
    for (QCPGraph* graph : std::as_const(m_graphs)) {
        forgetGraph(graph);
        m_plot->removeGraph(graph);
    }
    m_graphs.clear();
    for (QCPItemStraightLine* line : std::as_const(m_segmentLines))
        m_plot->removeItem(line);
    m_segmentLines.clear();
    m_segmentStarts.clear();
    forgetGraph(m_changeGraph);
    m_changeReplicate = -1;
    m_note->setVisible(false);
    m_returnedNote->setVisible(false);
    forgetGraph(m_returnedGraph);
    m_returnedGraph->removeFromLegend();
}

void ConvergencePlot::addPoint(QCPGraph* graph, double iteration, double seconds, double value)
{
    Series& series = m_series[graph];
    series.iterations.append(iteration);
    series.seconds.append(seconds);
    series.values.append(value);
    const double key = m_xAxis == XAxis::Seconds ? seconds : iteration;
    if (std::isfinite(key))
        graph->addData(key, value);
}

void ConvergencePlot::forgetGraph(QCPGraph* graph)
{
    m_series.remove(graph);
    graph->data()->clear();
}

void ConvergencePlot::showKeys(QCPGraph* graph)
{
    const Series series = m_series.value(graph);
    QVector<double> keys, values;
    for (qsizetype i = 0; i < series.values.size(); ++i) {
        const double key = m_xAxis == XAxis::Seconds ? series.seconds[i] : series.iterations[i];
        if (!std::isfinite(key))
            continue;
        keys.append(key);
        values.append(series.values[i]);
    }
    graph->setData(keys, values, true);
}

void ConvergencePlot::setXAxis(XAxis axis)
{
    m_xAxis = axis;
    m_timeAction->setChecked(axis == XAxis::Seconds);
    m_readout->hide();
    for (auto it = m_series.constBegin(); it != m_series.constEnd(); ++it)
        showKeys(const_cast<QCPGraph*>(it.key()));
    m_plot->xAxis->setLabel(
        axis == XAxis::Seconds ? tr("seconds from the start of the solve") : tr("iteration"));
    placeSegmentLines();
    rescale();
}

// History index s is iteration s + 1: a dashed line between the last iteration of one segment
// and the first of the next, at their mid-point in time on the seconds axis.
void ConvergencePlot::placeSegmentLines()
{
    for (QCPItemStraightLine* line : std::as_const(m_segmentLines))
        m_plot->removeItem(line);
    m_segmentLines.clear();
    for (int start : m_segmentStarts) {
        double x = start + 0.5;
        if (m_xAxis == XAxis::Seconds) {
            // The shown history is the first start's graph (showHistory).
            const QVector<double> seconds = m_series.value(m_graphs.value(0)).seconds;
            const auto at = [&seconds](int i) {
                return i >= 0 && i < seconds.size() ? seconds[i] : std::nan("");
            };
            x = 0.5 * (at(start - 1) + at(start));
            if (!std::isfinite(x))
                continue;
        }
        auto* line = new QCPItemStraightLine(m_plot);
        line->setPen(QPen(QColor(0, 0, 0, 110), 1, Qt::DashLine));
        line->point1->setCoords(x, 1);
        line->point2->setCoords(x, 2);
        m_segmentLines.append(line);
    }
}

double ConvergencePlot::iterationOfPoint(const QCPGraph& graph, int index) const
{
    const double key = graph.data()->at(index)->key;
    if (m_xAxis == XAxis::Iterations)
        return key;
    const Series series = m_series.value(&graph);
    for (qsizetype i = 0; i < series.seconds.size(); ++i)
        if (series.seconds[i] == key)
            return series.iterations[i];
    return key;
}

void ConvergencePlot::clear()
{
    clearCurrent();
    for (const Overlay& overlay : std::as_const(m_overlays)) {
        forgetGraph(overlay.graph);
        m_plot->removeGraph(overlay.graph);
    }
    m_overlays.clear();
    setTitle(tr("Objective per iteration"));
    m_waiting = false;
    m_showingRun = false;
    rescale();
}

void ConvergencePlot::beginRun(
    const QString& title, const std::vector<double>& earlier, bool reportsIterations)
{
    clearCurrent();
    setTitle(title);
    m_waiting = true;
    m_waitingForEnd = !reportsIterations;
    m_showingRun = false;
    if (!earlier.empty()) {
        setHistory(graphFor(0), earlier); // no times: the earlier run's are not known here
        m_changeReplicate = 0; // the continued run's reports follow on the same line
    }
    rescale();
}

// `times` (Factorization::times) belong to the last times.size() entries of the history.
void ConvergencePlot::setHistory(QCPGraph* graph, const std::vector<double>& history,
    const std::vector<int>& segmentStarts, const std::vector<double>& times)
{
    forgetGraph(graph);
    const std::size_t offset = history.size() - std::min(times.size(), history.size());
    for (std::size_t i = 0; i < history.size(); ++i) {
        const double seconds = i >= offset ? times[i - offset] : std::nan("");
        addPoint(graph, double(i + 1), seconds, history[i]);
        // IterationReport's definition: (O[t-1] - O[t]) / O[t]; none across a segment's start,
        // where the objective jumps by the change of beta or the normalization, not by a step.
        const bool segmentStart
            = std::find(segmentStarts.begin(), segmentStarts.end(), int(i)) != segmentStarts.end();
        if (i > 0 && !segmentStart)
            addChange((history[i - 1] - history[i]) / history[i], int(i + 1), seconds);
    }
}

QCPGraph* ConvergencePlot::graphFor(int replicate)
{
    if (QCPGraph* graph = m_graphs.value(replicate))
        return graph;
    QCPGraph* graph = m_plot->addGraph();
    graph->setLayer(kCurrentLayer);
    graph->setPen(QPen(replicateColor(replicate), 2));
    graph->setName(tr("current, start %1").arg(replicate + 1));
    m_graphs.insert(replicate, graph);
    return graph;
}

QList<QCPGraph*> ConvergencePlot::objectiveGraphs() const
{
    QList<QCPGraph*> graphs = m_graphs.values();
    for (const Overlay& overlay : m_overlays)
        graphs.append(overlay.graph);
    if (!m_returnedGraph->data()->isEmpty())
        graphs.append(m_returnedGraph);
    return graphs;
}

void ConvergencePlot::addChange(double relativeChange, int iteration, double seconds)
{
    // A log axis shows magnitudes; an exact 0 (a fixed point) has no place on it.
    const double magnitude = std::abs(relativeChange);
    if (std::isfinite(magnitude) && magnitude > 0)
        addPoint(m_changeGraph, iteration, seconds, magnitude);
}

void ConvergencePlot::appendReports(const QList<IterationReport>& reports)
{
    // Batches arrive in order; split them by replicate so each start keeps its own line. The
    // relative change follows the newest start (the one still descending).
    for (const IterationReport& report : reports) {
        addPoint(graphFor(report.replicate), report.iteration, report.seconds, report.objective);
        if (report.replicate != m_changeReplicate) {
            forgetGraph(m_changeGraph);
            m_changeReplicate = report.replicate;
        }
        if (report.iteration > 1)
            addChange(report.relativeChange, report.iteration, report.seconds);
    }
    rescale();
}

void ConvergencePlot::showHistory(const Factorization& factorization, const QString& title)
{
    clearCurrent();
    setTitle(title);
    m_waiting = false;
    m_showingRun = true;
    QCPGraph* graph = graphFor(0);
    // The title above names the run; the legend only tells it from the compared runs.
    graph->setName(tr("this run"));
    setHistory(graph, factorization.history, factorization.segmentStarts, factorization.times);
    // CF_OGL restarts its monotone descent when beta changes, and a continued graph method at
    // its normalized factors' objective: dashed lines between the segments.
    m_segmentStarts = factorization.segmentStarts;
    placeSegmentLines();
    if (returnedObjectiveDiffers(factorization)) {
        const QVector<double>& seconds = m_series[graph].seconds;
        addPoint(m_returnedGraph, double(factorization.history.size()),
            seconds.isEmpty() ? std::nan("") : seconds.back(), factorization.returnedObjective);
        m_returnedGraph->addToLegend();
        // The two numbers differ by design: the final normalization (METHODS.md 1.1-1.3) scales
        // each basis column to unit norm and V's column by the same factor, which keeps U V^T
        // and so the reconstruction term, but not the graph term lambda Tr(V^T L V). The curve
        // is the objective of the iterates; the circle that of the factors returned. Under the
        // plot, wrapped, since inside the axes a narrow dock clipped it.
        m_returnedNote->setText(
            tr("○ The returned factors' objective is %1; the curve ends at %2. The final "
               "normalization (unit-norm basis columns, V scaled to match) keeps U Vᵀ but "
               "rescales the graph term λ·Tr(Vᵀ L V).")
                .arg(QLocale().toString(factorization.returnedObjective, 'g', 6),
                    QLocale().toString(factorization.history.back(), 'g', 6)));
        m_returnedNote->setVisible(true);
    }
    if (factorization.method == "pca") {
        m_note->setText(tr("PCA has no iterations: the point is the variance left out\nby the "
                           "%1 leading components, from one eigendecomposition")
                            .arg(factorization.basis.cols()));
        m_note->setVisible(true);
    } else if (factorization.method == "kmeans") {
        const int rounds = factorization.iterations;
        m_note->setText(
            tr("k-means: the point is the within-cluster sum of squares\nof the kept "
               "start after %1")
                .arg(rounds == 1 ? tr("1 Lloyd round") : tr("%1 Lloyd rounds").arg(rounds)));
        m_note->setVisible(true);
    }
    rescale();
}

QString ConvergencePlot::noteText() const
{
    return m_note->visible() ? m_note->text() : QString();
}

QString ConvergencePlot::emptyText() const
{
    return m_emptyNote->visible() ? m_emptyNote->text() : QString();
}

QString ConvergencePlot::describePoint(const QCPGraph& graph, int index) const
{
    const auto points = graph.data();
    const double objective = points->at(index)->value;
    const int iteration = int(iterationOfPoint(graph, index));
    if (&graph == m_returnedGraph)
        return tr("the returned factors, after the final normalization\n(iteration %1)\n"
                  "objective %2")
            .arg(iteration)
            .arg(format(objective));
    QString text;
    if (graph.name().size() && objectiveGraphs().size() > 1)
        text = graph.name() + QLatin1Char('\n');
    text += tr("iteration %1\nobjective %2").arg(iteration).arg(format(objective));
    if (m_xAxis == XAxis::Seconds)
        text += tr("\nat %1 s").arg(points->at(index)->key, 0, 'g', 3);
    // Same definition as IterationReport::relativeChange: (O[t-1] - O[t]) / O[t].
    if (index > 0)
        text += tr("\nrelative change %1")
                    .arg((points->at(index - 1)->value - objective) / objective, 0, 'g', 3);
    return text;
}

QString ConvergencePlot::hoverText() const
{
    return m_readout->text();
}

int ConvergencePlot::graphCount() const
{
    return int(m_graphs.size() + m_overlays.size());
}

int ConvergencePlot::pointCount() const
{
    int count = 0;
    for (QCPGraph* graph : m_graphs)
        count += graph->dataCount();
    return count;
}

} // namespace facet
