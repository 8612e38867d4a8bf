// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QFileDialog>

namespace facet {

// A folder chooser that also takes a folder that does not exist yet, as `facet-cli sweep --out
// DIR` does: QFileDialog's Directory mode refuses a typed new name ("Directory not found"), so
// accept() lets such a path through and the caller creates it (QDir::mkpath). An existing file
// is still refused. Qt's own dialog (native ones offer "New folder" themselves).
class ExportFolderDialog : public QFileDialog {
    Q_OBJECT

public:
    explicit ExportFolderDialog(QWidget* parent = nullptr, const QString& caption = {});

    // The chosen folder, absolute; empty when cancelled.
    QString folder() const;

public Q_SLOTS:
    void accept() override;

private:
    QString m_folder;
};

} // namespace facet
