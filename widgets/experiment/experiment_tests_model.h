// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "experiment/summary.h"

#include <QAbstractTableModel>

#include <vector>

namespace facet {

// The paired Wilcoxon signed-rank tests of table.md (sweepComparisons): each series against the
// best by average, per metric. One row per cluster count c plus "all" (every (c, trial) pair),
// one column per comparison, AC's then NMI's; a cell reads as in table.md ("+1.2, p = 0.031 *").
class ExperimentTestsModel : public QAbstractTableModel {
    Q_OBJECT

public:
    // The two-sided p-value of a cell (double); NaN when no pair has finished.
    static constexpr int PValueRole = Qt::UserRole;

    explicit ExperimentTestsModel(QObject* parent = nullptr);

    // The finished trials so far and their summary; the comparisons follow the current best.
    void setResults(const ExperimentOptions& options, const SweepSummary& summary,
        const std::vector<TrialResult>& trials);

    int rowCount(const QModelIndex& parent = QModelIndex()) const override;
    int columnCount(const QModelIndex& parent = QModelIndex()) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(
        int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    const SeriesComparison& comparisonAt(int column) const;
    const PairedTest& testAt(const QModelIndex& index) const;

    ExperimentOptions m_options;
    std::vector<int> m_clusters;
    std::vector<SeriesComparison> m_comparisons; // AC's, then NMI's
};

} // namespace facet
