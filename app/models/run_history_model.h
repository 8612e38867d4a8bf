// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "session/session.h"

#include <QAbstractTableModel>

#include <functional>
#include <vector>

namespace facet {

// The finished runs of a session, one row each, in the order they were added. The name column
// is editable; every other column is read-only. Rows hold whole RunRecords (factors included),
// so a view can compare, export or re-run any row without going back to the solver.
class RunHistoryModel : public QAbstractTableModel {
    Q_OBJECT

public:
    enum Column {
        NameColumn,
        MethodColumn,
        ParamsColumn,
        DatasetColumn, // the data's name; its source, preparation and sha256 in the tooltip
        SeedColumn,
        IterationsColumn,
        ObjectiveColumn,
        AcColumn,
        NmiColumn,
        TimeColumn,
        ColumnCount
    };
    // Qt::UserRole: the run's id (int), for views that keep a selection across removals.
    static constexpr int IdRole = Qt::UserRole;

    // The params column's text for a run; the default shows k and lambda when set. The widgets
    // layer installs one that lists exactly the parameters the method reads.
    using ParamsFormatter = std::function<QString(const RunOptions&)>;

    explicit RunHistoryModel(QObject* parent = nullptr);

    void setParamsFormatter(ParamsFormatter formatter);

    // Appends a run; a record with id 0 (or an id already present) gets the next free id.
    // Returns the id it is stored under.
    int addRun(RunRecord record);
    // Replaces every run (a loaded session); ids are kept, duplicates renumbered.
    void setRuns(std::vector<RunRecord> runs);
    void clear();
    bool removeRun(int row);
    // Rows in any order; each is removed once.
    void removeRunRows(QList<int> rows);
    bool renameRun(int row, const QString& name);

    const RunRecord& run(int row) const { return m_runs.at(std::size_t(row)); }
    const std::vector<RunRecord>& runs() const { return m_runs; }
    int runCount() const { return int(m_runs.size()); }
    // -1 when no run has that id.
    int rowOfId(int id) const;

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(
        int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;
    Qt::ItemFlags flags(const QModelIndex& index) const override;
    bool setData(const QModelIndex& index, const QVariant& value, int role = Qt::EditRole) override;
    bool removeRows(int row, int count, const QModelIndex& parent = {}) override;

    static QString defaultParamsSummary(const RunOptions& options);

private:
    QVariant display(const RunRecord& run, int column) const;
    QString toolTip(const RunRecord& run) const;

    std::vector<RunRecord> m_runs;
    ParamsFormatter m_paramsFormatter;
    int m_nextId = 1;
};

} // namespace facet
