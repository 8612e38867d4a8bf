// SPDX-License-Identifier: GPL-3.0-or-later
#include "util/atomic_write.h"

#include <QFileInfo>
#include <QImage>
#include <QImageWriter>
#include <QJsonDocument>
#include <QSaveFile>

namespace facet {

using namespace Qt::StringLiterals;

Result<bool> writeBytesFile(const QString& path, const QByteArray& bytes)
{
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly))
        return Error { u"cannot write %1: %2"_s.arg(path, file.errorString()) };
    if (file.write(bytes) != bytes.size() || !file.commit())
        return Error { u"cannot write %1: %2"_s.arg(path, file.errorString()) };
    return true;
}

Result<bool> writeJsonFile(const QString& path, const QJsonObject& object)
{
    return writeBytesFile(path, QJsonDocument(object).toJson(QJsonDocument::Indented));
}

Result<bool> writeImageFile(const QString& path, const QImage& image)
{
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly))
        return Error { u"cannot write %1: %2"_s.arg(path, file.errorString()) };
    QImageWriter writer(&file, QFileInfo(path).suffix().toLatin1());
    if (!writer.write(image)) {
        file.cancelWriting();
        return Error { u"cannot write %1: %2"_s.arg(path, writer.errorString()) };
    }
    if (!file.commit())
        return Error { u"cannot write %1: %2"_s.arg(path, file.errorString()) };
    return true;
}

} // namespace facet
