// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// A labelled image folder written by the tests: class "a" with three images, class "b" with two,
// each 30 high and 40 wide, grey patterns that no face detector takes for a face.

#include "image_fixtures.h"

#include <QDir>
#include <QImage>
#include <QString>

namespace fixtures {

constexpr int kFolderImageHeight = 30;
constexpr int kFolderImageWidth = 40;

// The image of file `index` (0..4 in the folder's order: a/1, a/2, a/3, b/1, b/2).
inline QImage folderImage(int index)
{
    return pattern(kFolderImageWidth, kFolderImageHeight, index + 1);
}

inline bool writeClassFolder(const QString& root)
{
    const QDir dir(root);
    const QStringList files { QStringLiteral("a/1.png"), QStringLiteral("a/2.png"),
        QStringLiteral("a/3.png"), QStringLiteral("b/1.png"), QStringLiteral("b/2.png") };
    for (int i = 0; i < files.size(); ++i) {
        const QString path = dir.filePath(files[i]);
        QDir().mkpath(QFileInfo(path).absolutePath());
        if (!folderImage(i).save(path, "PNG"))
            return false;
    }
    return true;
}

} // namespace fixtures
