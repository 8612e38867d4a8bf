// SPDX-License-Identifier: GPL-3.0-or-later
#include "experiment/experiment_table_model.h"

#include "experiment/sweep_table.h"
#include "methods/registry.h"

#include <QColor>
#include <QFont>
#include <QLocale>

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
    m_atLimit.assign(m_summary.clusters.size() + 1, std::vector<int>(m_summary.series.size(), 0));
    endResetModel();
}

void ExperimentTableModel::setTrials(const std::vector<TrialResult>& trials)
{
    m_summary = summarize(m_options, trials);
    for (std::vector<int>& row : m_atLimit)
        std::fill(row.begin(), row.end(), 0);
    const auto& clusters = m_summary.clusters;
    const auto& series = m_summary.series;
    for (const TrialResult& t : trials) {
        if (t.stopReason != StopReason::MaxIterations)
            continue;
        const auto row = std::find(clusters.begin(), clusters.end(), t.cell.clusters);
        const auto column = std::find(
            series.begin(), series.end(), SeriesKey { t.cell.method, t.cell.parameterIndex });
        if (row == clusters.end() || column == series.end())
            continue;
        const auto k = std::size_t(column - series.begin());
        ++m_atLimit[std::size_t(row - clusters.begin())][k];
        ++m_atLimit.back()[k];
    }
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

int ExperimentTableModel::atLimit(int row, int series) const
{
    return m_atLimit[std::size_t(row)][std::size_t(series)];
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
    const int limited = atLimit(index.row(), series);
    switch (role) {
    case Qt::DisplayRole: {
        if (empty)
            return u"–"_s;
        QString text = averageRow || std::isnan(stats.std)
            ? QString::number(100 * stats.mean, 'f', 1)
            : u"%1 ± %2"_s.arg(QString::number(100 * stats.mean, 'f', 1),
                QString::number(100 * stats.std, 'f', 1));
        if (limited > 0)
            text += tr(" (%1 at limit)").arg(limited);
        return text;
    }
    case Qt::ForegroundRole:
        return limited > 0 ? QVariant(QColor(178, 92, 0)) : QVariant();
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
    case Qt::ToolTipRole: {
        QString text = averageRow
            ? tr("Mean over the %n cluster count(s) with finished trials", nullptr, stats.count)
            : tr("%n finished trial(s)", nullptr, stats.count);
        const MethodInfo* info = findMethod(m_summary.series[std::size_t(series)].method);
        if (limited > 0 && info && info->baseline)
            text += u"\n"_s
                + tr("%n trial(s) stopped at k-means' own limit of rounds before converging.",
                    nullptr, limited);
        else if (limited > 0)
            text += u"\n"_s
                + tr("%n trial(s) stopped at the iteration limit (%1) before converging: their "
                     "factors are unfinished. Raise Max iterations to let them converge.",
                    nullptr, limited)
                      .arg(QLocale().toString(m_options.base.driver.maxIter));
        return text;
    }
    case MeanRole:
        return empty ? std::numeric_limits<double>::quiet_NaN() : stats.mean;
    case CountRole:
        return stats.count;
    case LimitRole:
        return limited;
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
