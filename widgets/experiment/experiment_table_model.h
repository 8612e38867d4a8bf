// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "experiment/summary.h"

#include <QAbstractTableModel>

#include <vector>

namespace facet {

// The experiment view's results table: one row per cluster count c plus an "Avg." row, and one
// column per series (method, or method and grid value in a parameter sweep) for AC, then the same
// for NMI. Cells show mean ± std in percent over the finished trials; the best of each row and
// metric is bold, as in the papers' tables and table.md. A cell whose trials include some that
// stopped at the iteration limit (not converged) says how many, in orange with a tooltip.
class ExperimentTableModel : public QAbstractTableModel {
    Q_OBJECT

public:
    // The mean (0..1, a double) of a cell; NaN when it has no finished trial.
    static constexpr int MeanRole = Qt::UserRole;
    // The number of finished trials behind a cell (int).
    static constexpr int CountRole = Qt::UserRole + 1;
    // How many of those trials stopped at the iteration limit (int); summed over c in "Avg.".
    static constexpr int LimitRole = Qt::UserRole + 2;

    explicit ExperimentTableModel(QObject* parent = nullptr);

    // A new experiment: the table takes the shape of `options` with no trial finished.
    void setExperiment(const ExperimentOptions& options);
    // The finished trials so far (every one, not only the new ones); the shape stays.
    void setTrials(const std::vector<TrialResult>& trials);
    void clear();

    const SweepSummary& summary() const { return m_summary; }
    // The metric and series index of a column.
    Metric metricOf(int column) const;
    int seriesOf(int column) const;

    int rowCount(const QModelIndex& parent = QModelIndex()) const override;
    int columnCount(const QModelIndex& parent = QModelIndex()) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(
        int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    const MetricStats* statsAt(int row, int series) const;
    int atLimit(int row, int series) const;

    ExperimentOptions m_options;
    SweepSummary m_summary;
    // [row][series]: finished trials whose kept sub-run stopped at max iterations; the last row
    // sums the others (the "Avg." row).
    std::vector<std::vector<int>> m_atLimit;
};

} // namespace facet
