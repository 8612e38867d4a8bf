// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/method.h"
#include "core/types.h"

#include <QList>
#include <QMap>
#include <QSharedPointer>
#include <QWidget>

class QCPAxisTicker;
class QCPGraph;
class QCPRange;
class QCPTextElement;
class QCustomPlot;

namespace facet {

class LogAxisTicker;

// Objective against iteration on a log axis. While a run is on it grows in batches (one graph
// per seeded start when there are several); when the run ends it shows the kept history alone.
class ConvergencePlot : public QWidget {
    Q_OBJECT

public:
    explicit ConvergencePlot(QWidget* parent = nullptr);

    void beginRun(const QString& title);
    void appendReports(const QList<IterationReport>& reports);
    // The final history of a finished run (replaces the live graphs).
    void showHistory(const Factorization& factorization, const QString& title);
    void clear();

    int graphCount() const;
    int pointCount() const; // over all graphs
    bool isLogScale() const { return m_logScale; }
    QCustomPlot* plot() const { return m_plot; }

private:
    QCPGraph* graphFor(int replicate);
    void noteValue(double value);
    void rescale();
    void updateNumberFormat(const QCPRange& range);
    void setTitle(const QString& title);

    QCustomPlot* m_plot = nullptr;
    QCPTextElement* m_title = nullptr;
    QSharedPointer<LogAxisTicker> m_logTicker;
    QSharedPointer<QCPAxisTicker> m_linearTicker;
    QMap<int, QCPGraph*> m_graphs; // by replicate
    double m_lowest = 0;
    double m_highest = 0;
    bool m_haveValues = false;
    bool m_logScale = true; // a log axis cannot show objectives <= 0; then it falls back to linear
};

} // namespace facet
