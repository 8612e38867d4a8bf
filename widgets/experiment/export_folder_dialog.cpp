// SPDX-License-Identifier: GPL-3.0-or-later
#include "experiment/export_folder_dialog.h"

#include <QDir>
#include <QFileInfo>
#include <QLineEdit>

namespace facet {

using namespace Qt::StringLiterals;

ExportFolderDialog::ExportFolderDialog(QWidget* parent, const QString& caption)
    : QFileDialog(parent, caption)
{
    setObjectName(u"exportFolderDialog"_s);
    setFileMode(QFileDialog::Directory);
    setOption(QFileDialog::ShowDirsOnly);
    setOption(QFileDialog::DontUseNativeDialog);
    setAcceptMode(QFileDialog::AcceptOpen);
    setLabelText(QFileDialog::Accept, tr("Export"));
    setToolTip(tr("Choose a folder, or type the name of a new one: it is created"));
}

QString ExportFolderDialog::folder() const
{
    return m_folder;
}

void ExportFolderDialog::accept()
{
    // The typed name, relative to the folder shown, wins over a selected entry, as in QFileDialog.
    const auto* edit = findChild<QLineEdit*>(u"fileNameEdit"_s);
    const QString typed = edit ? edit->text().trimmed() : QString();
    const QString path = typed.isEmpty() ? selectedFiles().value(0)
                                         : QDir(directory().absolutePath()).absoluteFilePath(typed);
    if (path.isEmpty() || QFileInfo(path).isDir()) {
        m_folder = path.isEmpty() ? directory().absolutePath() : path;
        QFileDialog::accept();
        return;
    }
    if (QFileInfo::exists(path)) {
        QFileDialog::accept(); // a file: QFileDialog says why it cannot be the folder
        return;
    }
    m_folder = QDir::cleanPath(path);
    QDialog::accept(); // new: the caller creates it
}

} // namespace facet
