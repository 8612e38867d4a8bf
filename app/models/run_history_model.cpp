// SPDX-License-Identifier: GPL-3.0-or-later
#include "models/run_history_model.h"

#include "methods/registry.h"

#include <QSet>

#include <algorithm>
#include <cmath>

namespace facet {

using namespace Qt::StringLiterals;

namespace {

QString percentCell(const std::optional<double>& v)
{
    return v ? QString::number(100 * *v, 'f', 1) + u" %"_s : u"–"_s;
}

QString seconds(double s)
{
    if (s < 1)
        return QString::number(qRound(1000 * s)) + u" ms"_s;
    return s < 10 ? QString::number(s, 'f', 2) + u" s"_s : QString::number(s, 'f', 1) + u" s"_s;
}

} // namespace

RunHistoryModel::RunHistoryModel(QObject* parent)
    : QAbstractTableModel(parent)
    , m_paramsFormatter(&RunHistoryModel::defaultParamsSummary)
{
}

QString RunHistoryModel::defaultParamsSummary(const RunOptions& o)
{
    QString text = u"k=%1"_s.arg(o.params.rank);
    if (o.params.lambda)
        text += u", λ=%1"_s.arg(*o.params.lambda, 0, 'g', 4);
    return text;
}

void RunHistoryModel::setParamsFormatter(ParamsFormatter formatter)
{
    m_paramsFormatter = formatter ? std::move(formatter) : &RunHistoryModel::defaultParamsSummary;
    if (!m_runs.empty())
        Q_EMIT dataChanged(index(0, ParamsColumn), index(rowCount() - 1, ParamsColumn));
}

int RunHistoryModel::addRun(RunRecord record)
{
    if (record.id <= 0 || rowOfId(record.id) >= 0)
        record.id = m_nextId;
    m_nextId = std::max(m_nextId, record.id + 1);
    const int row = runCount();
    beginInsertRows({}, row, row);
    m_runs.push_back(std::move(record));
    endInsertRows();
    return m_runs.back().id;
}

void RunHistoryModel::setRuns(std::vector<RunRecord> runs)
{
    beginResetModel();
    m_runs.clear();
    m_nextId = 1;
    for (const RunRecord& r : runs)
        m_nextId = std::max(m_nextId, r.id + 1);
    QSet<int> seen;
    for (RunRecord& r : runs) {
        if (r.id <= 0 || seen.contains(r.id))
            r.id = m_nextId++;
        seen.insert(r.id);
        m_runs.push_back(std::move(r));
    }
    endResetModel();
}

void RunHistoryModel::clear()
{
    setRuns({});
}

bool RunHistoryModel::removeRun(int row)
{
    return removeRows(row, 1);
}

void RunHistoryModel::removeRunRows(QList<int> rows)
{
    std::sort(rows.begin(), rows.end(), std::greater<int>());
    rows.erase(std::unique(rows.begin(), rows.end()), rows.end());
    for (int row : rows)
        removeRun(row);
}

bool RunHistoryModel::renameRun(int row, const QString& name)
{
    return setData(index(row, NameColumn), name, Qt::EditRole);
}

int RunHistoryModel::rowOfId(int id) const
{
    for (std::size_t i = 0; i < m_runs.size(); ++i)
        if (m_runs[i].id == id)
            return int(i);
    return -1;
}

int RunHistoryModel::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : runCount();
}

int RunHistoryModel::columnCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant RunHistoryModel::display(const RunRecord& r, int column) const
{
    switch (column) {
    case NameColumn:
        return r.name;
    case MethodColumn:
        return QString::fromStdString(methodLabel(r.options.method));
    case ParamsColumn:
        return m_paramsFormatter(r.options);
    case DatasetColumn:
        return r.dataset.name.isEmpty() ? u"–"_s : r.dataset.name;
    case SeedColumn:
        return QString::number(r.options.driver.seed);
    case IterationsColumn:
        return r.summary.iterations;
    case ObjectiveColumn:
        return std::isfinite(r.summary.objective) ? QString::number(r.summary.objective, 'g', 6)
                                                  : u"–"_s;
    case AcColumn:
        return percentCell(r.summary.ac);
    case NmiColumn:
        return percentCell(r.summary.nmi);
    case TimeColumn:
        return seconds(r.summary.seconds);
    default:
        return {};
    }
}

QString RunHistoryModel::toolTip(const RunRecord& r) const
{
    QString tip = u"%1 — %2, %3 iterations (%4)"_s
                      .arg(r.name, QString::fromStdString(methodLabel(r.options.method)))
                      .arg(r.summary.iterations)
                      .arg(QString::fromLatin1(stopReasonName(r.summary.stopReason)));
    if (const double returned = r.summary.returnedObjective;
        returnedObjectiveDiffers(r.summary.objective, returned))
        tip += u"\nobjective %1 at the last iteration, %2 at the returned factors (the final "
               "normalization rescales V, and the graph term with it)"_s.arg(
                   QString::number(r.summary.objective, 'g', 6), QString::number(returned, 'g', 6));
    tip += u"\non "_s
        + (r.dataset.known() || !r.dataset.name.isEmpty()
                ? describeIdentity(r.dataset)
                : u"data of %1 samples (a session from before runs recorded their data)"_s.arg(
                    r.V.rows()));
    if (!r.options.driver.startSource.empty())
        tip += u"\nstarted from "_s + QString::fromStdString(r.options.driver.startSource);
    if (r.created.isValid())
        tip += u"\n"_s + r.created.toLocalTime().toString(Qt::ISODate);
    if (!r.hasFactors())
        tip += u"\nno factors kept (loaded from a facet-cli report)"_s;
    return tip;
}

QVariant RunHistoryModel::data(const QModelIndex& index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const RunRecord& r = run(index.row());
    switch (role) {
    case Qt::DisplayRole:
        return display(r, index.column());
    case Qt::EditRole:
        return index.column() == NameColumn ? QVariant(r.name) : display(r, index.column());
    case Qt::ToolTipRole:
        return toolTip(r);
    case Qt::TextAlignmentRole:
        return index.column() >= SeedColumn ? QVariant(int(Qt::AlignRight | Qt::AlignVCenter))
                                            : QVariant(int(Qt::AlignLeft | Qt::AlignVCenter));
    case IdRole:
        return r.id;
    default:
        return {};
    }
}

QVariant RunHistoryModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation == Qt::Horizontal && role == Qt::ToolTipRole && section == ObjectiveColumn)
        return tr("The objective after the last iteration, where the curve ends. A graph method's "
                  "final normalization changes it; a row's tooltip then gives the returned "
                  "factors' objective too.");
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return QAbstractTableModel::headerData(section, orientation, role);
    switch (section) {
    case NameColumn:
        return tr("Name");
    case MethodColumn:
        return tr("Method");
    case ParamsColumn:
        return tr("Parameters");
    case DatasetColumn:
        return tr("Dataset");
    case SeedColumn:
        return tr("Seed");
    case IterationsColumn:
        return tr("Iterations");
    case ObjectiveColumn:
        return tr("Objective");
    case AcColumn:
        return tr("AC");
    case NmiColumn:
        return tr("NMI");
    case TimeColumn:
        return tr("Time");
    default:
        return {};
    }
}

Qt::ItemFlags RunHistoryModel::flags(const QModelIndex& index) const
{
    Qt::ItemFlags f = QAbstractTableModel::flags(index);
    if (index.isValid() && index.column() == NameColumn)
        f |= Qt::ItemIsEditable;
    return f;
}

bool RunHistoryModel::setData(const QModelIndex& index, const QVariant& value, int role)
{
    if (role != Qt::EditRole || index.column() != NameColumn
        || !checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return false;
    const QString name = value.toString().trimmed();
    // An empty name would leave a row nobody can tell apart; the old one stays.
    if (name.isEmpty())
        return false;
    RunRecord& r = m_runs[std::size_t(index.row())];
    if (r.name == name)
        return true;
    r.name = name;
    Q_EMIT dataChanged(index, index, { Qt::DisplayRole, Qt::EditRole, Qt::ToolTipRole });
    return true;
}

bool RunHistoryModel::removeRows(int row, int count, const QModelIndex& parent)
{
    if (parent.isValid() || row < 0 || count <= 0 || row + count > runCount())
        return false;
    beginRemoveRows({}, row, row + count - 1);
    m_runs.erase(m_runs.begin() + row, m_runs.begin() + row + count);
    endRemoveRows();
    return true;
}

} // namespace facet
