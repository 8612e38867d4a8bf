// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "experiment/summary.h"

#include <QWidget>

class QCustomPlot;

namespace facet {

// One metric of a running experiment against the number of clusters c (or, in a parameter
// sweep, against the grid), one curve per method: the same curves as the exported ac/nmi plots
// (plots::sweepChart), plus ± std error bars against c, redrawn as cells finish.
class ExperimentChart : public QWidget {
    Q_OBJECT

public:
    explicit ExperimentChart(Metric metric, QWidget* parent = nullptr);

    void setSummary(
        const SweepSummary& summary, const ExperimentOptions& options, const QString& datasetName);
    void clear();

    QCustomPlot* plot() const { return m_plot; }

private:
    Metric m_metric;
    QCustomPlot* m_plot;
};

} // namespace facet
