// SPDX-License-Identifier: GPL-3.0-or-later
#include "main_window/shortcuts_dialog.h"

#include <QAction>
#include <QDialogButtonBox>
#include <QDockWidget>
#include <QHeaderView>
#include <QMainWindow>
#include <QMenu>
#include <QMenuBar>
#include <QSet>
#include <QTableWidget>
#include <QVBoxLayout>

#include <algorithm>

namespace facet {

namespace {

// "&Open dataset..." -> "Open dataset..."; "&&" stays one "&".
QString plainText(const QString& text)
{
    QString out;
    for (qsizetype i = 0; i < text.size(); ++i) {
        if (text[i] == QLatin1Char('&') && i + 1 < text.size())
            ++i;
        out += text[i];
    }
    return out;
}

void addMenu(
    const QMenu& menu, const QString& where, QList<ShortcutEntry>& out, QSet<const QAction*>& seen)
{
    for (QAction* action : menu.actions()) {
        if (action->isSeparator())
            continue;
        if (QMenu* sub = action->menu()) {
            addMenu(*sub, where + QStringLiteral(" > ") + plainText(sub->title()), out, seen);
            continue;
        }
        seen.insert(action);
        if (!action->shortcut().isEmpty())
            out.append({ where, plainText(action->text()), action->shortcut() });
    }
}

// The dock an action's widget sits in, by its title; the window otherwise.
QString placeOf(const QAction& action)
{
    for (QObject* o = action.parent(); o; o = o->parent())
        if (auto* dock = qobject_cast<QDockWidget*>(o))
            return plainText(dock->windowTitle());
    return QObject::tr("Window");
}

} // namespace

QList<ShortcutEntry> collectShortcuts(const QMainWindow& window)
{
    QList<ShortcutEntry> out;
    QSet<const QAction*> seen;
    for (QAction* top : window.menuBar()->actions())
        if (QMenu* menu = top->menu())
            addMenu(*menu, plainText(menu->title()), out, seen);
    for (QAction* action : window.findChildren<QAction*>()) {
        if (seen.contains(action) || action->shortcut().isEmpty())
            continue;
        seen.insert(action);
        out.append({ placeOf(*action), plainText(action->text()), action->shortcut() });
    }
    return out;
}

ShortcutsDialog::ShortcutsDialog(const QList<ShortcutEntry>& shortcuts, QWidget* parent)
    : QDialog(parent)
    , m_table(new QTableWidget(int(shortcuts.size()), 3))
{
    setObjectName(QStringLiteral("shortcutsDialog"));
    setWindowTitle(tr("Keyboard shortcuts"));
    m_table->setHorizontalHeaderLabels({ tr("Where"), tr("Command"), tr("Keys") });
    m_table->verticalHeader()->hide();
    m_table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->setAlternatingRowColors(true);
    m_table->setWordWrap(false);
    for (int row = 0; row < int(shortcuts.size()); ++row) {
        const ShortcutEntry& s = shortcuts[row];
        m_table->setItem(row, 0, new QTableWidgetItem(s.where));
        m_table->setItem(row, 1, new QTableWidgetItem(s.command));
        m_table->setItem(row, 2, new QTableWidgetItem(s.keys.toString(QKeySequence::NativeText)));
    }
    m_table->resizeColumnsToContents();
    m_table->resizeRowsToContents();
    m_table->horizontalHeader()->setSectionResizeMode(1, QHeaderView::Stretch);
    m_table->setFocusPolicy(Qt::NoFocus); // a list to read: no current cell drawn

    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Close);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::close);
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(m_table);
    layout->addWidget(buttons);
    // Every row and column in view without scrolling, on any usual screen.
    int width = m_table->verticalHeader()->width() + 4;
    for (int c = 0; c < m_table->columnCount(); ++c)
        width += m_table->columnWidth(c);
    int height = m_table->horizontalHeader()->height() + 4;
    for (int r = 0; r < m_table->rowCount(); ++r)
        height += m_table->rowHeight(r);
    m_table->setMinimumSize(std::min(width + 24, 900), std::min(height, 700));
}

} // namespace facet
