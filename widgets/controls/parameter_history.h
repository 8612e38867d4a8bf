// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QElapsedTimer>
#include <QObject>
#include <QVariantMap>

class QUndoStack;

namespace facet {

class ControlPanel;

// Undo and redo for the run options of a ControlPanel. Every change the user makes becomes one
// step; the many small changes of one slider drag (or of one spin box held down) merge into a
// single step, so Ctrl+Z goes back to where the drag started rather than one pixel at a time.
class ParameterHistory : public QObject {
    Q_OBJECT

public:
    // Changes of the same options less than this far apart merge into one step.
    static constexpr int kMergeWindowMs = 800;

    explicit ParameterHistory(ControlPanel* panel, QObject* parent = nullptr);

    QUndoStack* stack() const { return m_stack; }
    // Forgets the steps and takes the panel's options as the new starting point (after settings
    // are restored, a session is loaded, ...).
    void reset();

private:
    class Step;
    void onOptionsChanged();
    void apply(const QVariantMap& snapshot);

    ControlPanel* m_panel;
    QUndoStack* m_stack;
    QVariantMap m_current; // what the panel showed after the last recorded change
    QElapsedTimer m_sinceLast;
    bool m_applying = false;
};

// The keys (method, rank, "params/lambda", ...) whose values differ between two snapshots.
QStringList changedOptionKeys(const QVariantMap& before, const QVariantMap& after);

} // namespace facet
