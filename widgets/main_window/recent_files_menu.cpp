// SPDX-License-Identifier: GPL-3.0-or-later
#include "main_window/recent_files_menu.h"

#include <QDir>
#include <QFileInfo>
#include <QSettings>

namespace facet {

namespace {
const QString kSettingsKey = QStringLiteral("recentFiles");
} // namespace

RecentFilesMenu::RecentFilesMenu(const QString& title, QWidget* parent)
    : QMenu(title, parent)
{
    rebuild();
}

QStringList RecentFilesMenu::files() const
{
    return QSettings().value(kSettingsKey).toStringList();
}

void RecentFilesMenu::add(const QString& path)
{
    const QString absolute = QFileInfo(path).absoluteFilePath();
    QStringList list = files();
    list.removeAll(absolute);
    list.prepend(absolute);
    while (list.size() > kMaxFiles)
        list.removeLast();
    store(list);
}

void RecentFilesMenu::remove(const QString& path)
{
    QStringList list = files();
    if (list.removeAll(QFileInfo(path).absoluteFilePath()) > 0)
        store(list);
}

void RecentFilesMenu::store(const QStringList& list)
{
    QSettings().setValue(kSettingsKey, list);
    rebuild();
}

void RecentFilesMenu::rebuild()
{
    QMenu::clear();
    const QStringList list = files();
    for (int i = 0; i < list.size(); ++i) {
        const QString path = list[i];
        // &1..&8 give each entry a keyboard accelerator.
        QAction* action = addAction(tr("&%1 %2").arg(i + 1).arg(QFileInfo(path).fileName()));
        action->setToolTip(QDir::toNativeSeparators(path));
        action->setStatusTip(QDir::toNativeSeparators(path));
        connect(action, &QAction::triggered, this, [this, path] { Q_EMIT fileChosen(path); });
    }
    if (list.isEmpty()) {
        addAction(tr("(none)"))->setEnabled(false);
        return;
    }
    addSeparator();
    connect(addAction(tr("&Clear list")), &QAction::triggered, this, [this] { store({}); });
}

} // namespace facet
