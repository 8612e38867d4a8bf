// SPDX-License-Identifier: GPL-3.0-or-later
#include "experiment/experiment_table_model.h"

#include "experiment/sweep_table.h"

#include <QFont>

#include <algorithm>
#include <cmath>
#include <limits>

namespace facet {

using namespace Qt::StringLiterals;

ExperimentTableModel::ExperimentTableModel(QObject* parent)
    : QAbstractTableModel(parent)
{
}

void ExperimentTableModel::setExperiment(const ExperimentOptions& options)
{
    beginResetModel();
    m_options = options;
    m_summary = summarize(m_options, {});
    endResetModel();
}

void ExperimentTableModel::setTrials(const std::vector<TrialResult>& trials)
{
    m_summary = summarize(m_options, trials);
    if (rowCount() > 0 && columnCount() > 0)
        Q_EMIT dataChanged(index(0, 0), index(rowCount() - 1, columnCount() - 1));
}

void ExperimentTableModel::clear()
{
    setExperiment(ExperimentOptions {});
}

Metric ExperimentTableModel::metricOf(int column) const
{
    return column < int(m_summary.series.size()) ? Metric::Accuracy : Metric::Nmi;
}

int ExperimentTableModel::seriesOf(int column) const
{
    const int n = int(m_summary.series.size());
    return n == 0 ? 0 : column % n;
}

int ExperimentTableModel::rowCount(const QModelIndex& parent) const
{
    if (parent.isValid() || m_summary.clusters.empty())
        return 0;
    return int(m_summary.clusters.size()) + 1; // + the average row
}

int ExperimentTableModel::columnCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : 2 * int(m_summary.series.size());
}

const MetricStats* ExperimentTableModel::statsAt(int row, int series) const
{
    if (row < int(m_summary.clusters.size()))
        return &m_summary.cells[std::size_t(row)][std::size_t(series)];
    return &m_summary.average[std::size_t(series)];
}

QVariant ExperimentTableModel::data(const QModelIndex& index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const int series = seriesOf(index.column());
    const Metric metric = metricOf(index.column());
    const MeanStd& stats = statsAt(index.row(), series)->of(metric);
    const bool averageRow = index.row() == int(m_summary.clusters.size());
    const bool empty = stats.count == 0;
    switch (role) {
    case Qt::DisplayRole:
        if (empty)
            return u"–"_s;
        if (averageRow || std::isnan(stats.std))
            return QString::number(100 * stats.mean, 'f', 1);
        return u"%1 ± %2"_s.arg(
            QString::number(100 * stats.mean, 'f', 1), QString::number(100 * stats.std, 'f', 1));
    case Qt::FontRole: {
        const std::vector<int> best = m_summary.best(metric, averageRow ? -1 : index.row());
        if (empty || std::find(best.begin(), best.end(), series) == best.end())
            return {};
        QFont font;
        font.setBold(true);
        return font;
    }
    case Qt::TextAlignmentRole:
        return QVariant::fromValue(Qt::AlignRight | Qt::AlignVCenter);
    case Qt::ToolTipRole:
        if (averageRow)
            return tr(
                "Mean over the %n cluster count(s) with finished trials", nullptr, stats.count);
        return tr("%n finished trial(s)", nullptr, stats.count);
    case MeanRole:
        return empty ? std::numeric_limits<double>::quiet_NaN() : stats.mean;
    case CountRole:
        return stats.count;
    default:
        return {};
    }
}

QVariant ExperimentTableModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (role != Qt::DisplayRole || section < 0)
        return {};
    if (orientation == Qt::Vertical) {
        if (section < int(m_summary.clusters.size()))
            return tr("c = %1").arg(m_summary.clusters[std::size_t(section)]);
        return section == int(m_summary.clusters.size()) ? QVariant(tr("Avg.")) : QVariant();
    }
    if (section >= columnCount())
        return {};
    const QString metric = metricOf(section) == Metric::Accuracy ? u"AC"_s : u"NMI"_s;
    return u"%1 %2"_s.arg(
        metric, seriesLabel(m_summary.series[std::size_t(seriesOf(section))], m_options));
}

} // namespace facet
