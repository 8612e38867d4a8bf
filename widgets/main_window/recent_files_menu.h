// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QMenu>
#include <QStringList>

namespace facet {

// File > Recent files: the last datasets opened from files, newest first, kept in QSettings.
class RecentFilesMenu : public QMenu {
    Q_OBJECT

public:
    static constexpr int kMaxFiles = 8;

    explicit RecentFilesMenu(const QString& title, QWidget* parent = nullptr);

    void add(const QString& path);
    void remove(const QString& path);
    QStringList files() const;

Q_SIGNALS:
    void fileChosen(const QString& path);

private:
    void store(const QStringList& files);
    void rebuild();
};

} // namespace facet
