// SPDX-License-Identifier: GPL-3.0-or-later
#include "experiment/experiment_tests_model.h"

#include "experiment/sweep_table.h"

#include <QFont>

#include <limits>

namespace facet {

using namespace Qt::StringLiterals;

ExperimentTestsModel::ExperimentTestsModel(QObject* parent)
    : QAbstractTableModel(parent)
{
}

void ExperimentTestsModel::setResults(const ExperimentOptions& options, const SweepSummary& summary,
    const std::vector<TrialResult>& trials)
{
    beginResetModel();
    m_options = options;
    m_clusters = summary.clusters;
    m_comparisons = sweepComparisons(summary, options, trials, Metric::Accuracy);
    for (SeriesComparison& c : sweepComparisons(summary, options, trials, Metric::Nmi))
        m_comparisons.push_back(std::move(c));
    endResetModel();
}

int ExperimentTestsModel::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() || m_comparisons.empty() ? 0 : int(m_clusters.size()) + 1;
}

int ExperimentTestsModel::columnCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : int(m_comparisons.size());
}

const SeriesComparison& ExperimentTestsModel::comparisonAt(int column) const
{
    return m_comparisons[std::size_t(column)];
}

const PairedTest& ExperimentTestsModel::testAt(const QModelIndex& index) const
{
    const SeriesComparison& c = comparisonAt(index.column());
    return index.row() < int(m_clusters.size()) ? c.perClusters[std::size_t(index.row())]
                                                : c.overall;
}

QVariant ExperimentTestsModel::data(const QModelIndex& index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const PairedTest& p = testAt(index);
    const bool empty = p.test.n + p.test.zeros == 0;
    switch (role) {
    case Qt::DisplayRole:
        return pairedTestText(p);
    case Qt::TextAlignmentRole:
        return QVariant::fromValue(Qt::AlignRight | Qt::AlignVCenter);
    case Qt::FontRole: {
        if (empty || p.test.pValue >= 0.05)
            return {};
        QFont font;
        font.setBold(true);
        return font;
    }
    case Qt::ToolTipRole: {
        if (empty)
            return tr("No trial that both series finished yet");
        const SeriesComparison& c = comparisonAt(index.column());
        return tr("%1 minus %2: %3 percentage points on average over %n paired trial(s) "
                  "(%4 with no difference, dropped); Wilcoxon signed-rank, two-sided p = %5 "
                  "(%6)",
            nullptr, p.test.n + p.test.zeros)
            .arg(seriesLabel(c.a, m_options), seriesLabel(c.b, m_options),
                QString::number(100 * p.meanDifference, 'f', 2))
            .arg(p.test.zeros)
            .arg(QString::number(p.test.pValue, 'g', 3),
                p.test.exact ? tr("exact") : tr("normal approximation"));
    }
    case PValueRole:
        return empty ? std::numeric_limits<double>::quiet_NaN() : p.test.pValue;
    default:
        return {};
    }
}

QVariant ExperimentTestsModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (role != Qt::DisplayRole || section < 0)
        return {};
    if (orientation == Qt::Vertical) {
        if (section < int(m_clusters.size()))
            return tr("c = %1").arg(m_clusters[std::size_t(section)]);
        return section == int(m_clusters.size()) ? QVariant(tr("all")) : QVariant();
    }
    if (section >= columnCount())
        return {};
    const SeriesComparison& c = comparisonAt(section);
    return u"%1 %2 vs %3"_s.arg(c.metric == Metric::Accuracy ? u"AC"_s : u"NMI"_s,
        seriesLabel(c.a, m_options), seriesLabel(c.b, m_options));
}

} // namespace facet
