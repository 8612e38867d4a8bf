// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/method.h"
#include "core/types.h"

#include <QHash>
#include <QLabel>
#include <QList>
#include <QMap>
#include <QSharedPointer>
#include <QStringList>
#include <QWidget>

class QAction;
class QCPAxis;
class QCPAxisTicker;
class QCPGraph;
class QCPItemStraightLine;
class QCPItemText;
class QCPRange;
class QCPTextElement;
class QCustomPlot;
class QMenu;

namespace facet {

class LogAxisTicker;
class PlotHoverReadout;

// Objective against iteration (or against seconds from the start of the solve) on a log axis. While
// a run is on it grows in batches (one graph per seeded start when there are several); when the run
// ends it shows the kept history alone. Finished runs can stay as overlays for comparison, each in
// its own colour with a legend entry. The current run's |relative change| can be shown on a right
// log axis; hovering shows the nearest point's numbers; the context menu exports PNG, SVG or PDF.
class ConvergencePlot : public QWidget {
    Q_OBJECT

public:
    explicit ConvergencePlot(QWidget* parent = nullptr);

    // The current run: beginRun() and showHistory() replace it and keep the overlays; clear()
    // empties the plot, overlays included (a new dataset).
    // `earlier`: the objectives of the run a continued run goes on from, drawn first.
    // `reportsIterations` false: the method reports no iterations (PCA, k-means), and the plot
    // says that its point comes at the end.
    void beginRun(const QString& title, const std::vector<double>& earlier = {},
        bool reportsIterations = true);
    void appendReports(const QList<IterationReport>& reports);
    // The final history of a finished run (replaces the live graphs).
    void showHistory(const Factorization& factorization, const QString& title);
    void clear();

    // Overlays: finished runs drawn under the current one. A name keeps its colour for the
    // life of the plot; adding a name again replaces that overlay.
    void addRun(const QString& name, const Factorization& factorization);
    bool removeRun(const QString& name);
    void clearOverlays();
    QStringList overlayNames() const;
    QColor overlayColor(const QString& name) const;

    // What the horizontal axis counts: iterations, or seconds from the start of each run's solve
    // (Factorization::times, IterationReport::seconds), so runs of different algorithms compare
    // on time. Points without a time (a continued run's earlier part, a run saved before times
    // were recorded) are left out of the seconds view.
    enum class XAxis { Iterations, Seconds };
    void setXAxis(XAxis axis);
    XAxis xAxis() const { return m_xAxis; }

    // |relative change| |O[t-1] - O[t]| / O[t] of the current run on the right axis.
    void setRelativeChangeVisible(bool visible);
    bool isRelativeChangeVisible() const { return m_changeVisible; }

    // Writes the plot as shown; the suffix (.png, .svg, .pdf) picks the format. Returns an
    // empty string or the reason it failed.
    QString exportTo(const QString& path);

    int graphCount() const; // objective curves: the current run's and the overlays
    int pointCount() const; // points of the current run's objective curves
    bool isLogScale() const { return m_logScale; }
    QStringList legendNames() const; // in legend order
    int segmentMarkerCount() const { return int(m_segmentLines.size()); }
    QString hoverText() const; // empty while nothing is hovered
    // What the plot of a baseline's single point means (PCA, k-means); empty for the others.
    QString noteText() const;
    // Under the plot, while a graph method's returned-factors point is shown: both objectives
    // and why they differ (hidden otherwise).
    QLabel* returnedNote() const { return m_returnedNote; }
    // What the empty plot says in place of curves (before a run, or before its first
    // iteration); empty once there is a point.
    QString emptyText() const;
    QCustomPlot* plot() const { return m_plot; }
    QCPGraph* relativeChangeGraph() const { return m_changeGraph; }
    // The returned factors' objective where the final normalization changed it; else empty.
    QCPGraph* returnedObjectiveGraph() const { return m_returnedGraph; }
    // The current run's objective curve of its first start; null before any data.
    QCPGraph* currentGraph() const
    {
        return m_graphs.value(m_graphs.isEmpty() ? 0 : m_graphs.firstKey());
    }
    QMenu* contextMenu() const { return m_menu; }

private:
    QCPGraph* graphFor(int replicate);
    // Both coordinates of every point are kept, so the axis can switch; the graph gets the one
    // the axis shows (none for a point without a time while seconds are shown).
    struct Series {
        QVector<double> iterations;
        QVector<double> seconds; // NaN: not recorded
        QVector<double> values;
    };
    void addPoint(QCPGraph* graph, double iteration, double seconds, double value);
    void forgetGraph(QCPGraph* graph);
    void showKeys(QCPGraph* graph);
    void placeSegmentLines();
    double iterationOfPoint(const QCPGraph& graph, int index) const;
    QList<QCPGraph*> objectiveGraphs() const;
    QString describePoint(const QCPGraph& graph, int index) const;
    void setHistory(QCPGraph* graph, const std::vector<double>& history,
        const std::vector<int>& segmentStarts = {}, const std::vector<double>& times = {});
    void addChange(double relativeChange, int iteration, double seconds);
    void clearCurrent();
    void rescale();
    void rescaleChangeAxis();
    void updateNumberFormat(QCPAxis* axis, const QCPRange& range);
    void updateLegend();
    void setTitle(const QString& title);
    void buildContextMenu();
    void exportDialog();

    struct Overlay {
        QString name;
        QCPGraph* graph = nullptr;
    };

    QCustomPlot* m_plot = nullptr;
    QCPTextElement* m_title = nullptr;
    QSharedPointer<LogAxisTicker> m_logTicker;
    QSharedPointer<LogAxisTicker> m_changeTicker;
    QSharedPointer<QCPAxisTicker> m_linearTicker;
    QMap<int, QCPGraph*> m_graphs; // the current run's, by replicate
    QCPGraph* m_changeGraph = nullptr; // on yAxis2
    QCPGraph* m_returnedGraph = nullptr; // one point: the returned factors' objective, or none
    int m_changeReplicate = -1; // the start whose relative change is shown
    QList<QCPItemStraightLine*> m_segmentLines;
    QLabel* m_returnedNote = nullptr;
    QCPItemText* m_note = nullptr; // shown for the baselines' one-point histories
    QCPItemText* m_emptyNote = nullptr; // shown while there is no point
    bool m_waiting = false; // a run has begun and has not reported yet
    bool m_waitingForEnd = false; // ... and it reports only at its end
    bool m_showingRun = false; // a finished run's history is shown (it may hold no finite value)
    QList<Overlay> m_overlays; // in the order they were added
    QHash<QString, int> m_overlayColorIndex;
    PlotHoverReadout* m_readout = nullptr;
    QMenu* m_menu = nullptr;
    QAction* m_changeAction = nullptr;
    QAction* m_clearOverlaysAction = nullptr;
    QAction* m_timeAction = nullptr;
    XAxis m_xAxis = XAxis::Iterations;
    QHash<const QCPGraph*, Series> m_series;
    std::vector<int> m_segmentStarts; // of the shown history, placed by placeSegmentLines()
    bool m_logScale = true; // a log axis cannot show objectives <= 0; then it falls back to linear
    bool m_changeVisible = true;
};

} // namespace facet
