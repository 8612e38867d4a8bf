// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QDialog>
#include <QKeySequence>
#include <QList>
#include <QString>

class QMainWindow;
class QTableWidget;

namespace facet {

// One keyboard shortcut of the window: where it acts, what it does, its keys.
struct ShortcutEntry {
    QString where; // "File", "Run", or the dock an action belongs to ("Runs")
    QString command; // the action's text without its mnemonic
    QKeySequence keys;
};

// The window's shortcuts as its actions have them, so the list cannot drift from the menus: the
// menu bar's actions in menu order (submenus' too), then every other action among the window's
// children that has a shortcut (the runs table's Delete and F2), each once.
QList<ShortcutEntry> collectShortcuts(const QMainWindow& window);

// Help > Keyboard shortcuts: the list in a read-only table.
class ShortcutsDialog : public QDialog {
    Q_OBJECT
public:
    explicit ShortcutsDialog(const QList<ShortcutEntry>& shortcuts, QWidget* parent = nullptr);
    QTableWidget* table() const { return m_table; }

private:
    QTableWidget* m_table = nullptr;
};

} // namespace facet
