// SPDX-License-Identifier: GPL-3.0-or-later
#include "util/atomic_write.h"

#include <QFileInfo>
#include <QImage>
#include <QImageWriter>
#include <QJsonDocument>

#include <sys/stat.h>

namespace facet {

using namespace Qt::StringLiterals;

QString outputTargetProblem(const QString& path)
{
    struct stat status { };
    if (::stat(QFile::encodeName(path).constData(), &status) != 0)
        return {}; // absent (or unreachable: opening the temporary file says why)
    if (S_ISDIR(status.st_mode))
        return u"%1: is a folder; give a file name"_s.arg(path);
    if (!S_ISREG(status.st_mode))
        return u"%1: is not a regular file (a device, pipe or socket); Facet replaces its output "
               "files whole, so give the path of a file"_s.arg(path);
    return {};
}

QString outputPathProblem(const QString& path, bool imageSuffix)
{
    if (path.isEmpty())
        return u"an output path is empty"_s;
    if (const QString problem = outputTargetProblem(path); !problem.isEmpty())
        return problem;
    const QFileInfo info(path);
    if (!QFileInfo(info.absolutePath()).isDir())
        return u"%1: the folder %2 does not exist"_s.arg(path, info.absolutePath());
    if (imageSuffix) {
        const QByteArray suffix = info.suffix().toLower().toLatin1();
        if (!QImageWriter::supportedImageFormats().contains(suffix))
            return u"%1: '%2' is not an image format Facet can write; use .png"_s.arg(
                path, QString::fromLatin1(suffix));
    }
    return {};
}

Result<bool> openOutputFile(QSaveFile& file, const QString& path)
{
    if (const QString problem = outputTargetProblem(path); !problem.isEmpty())
        return Error { problem };
    if (!file.open(QIODevice::WriteOnly))
        return Error { u"cannot write %1: %2"_s.arg(path, file.errorString()) };
    return true;
}

Result<bool> commitOutputFile(QSaveFile& file, const QString& path)
{
    if (!file.flush()) {
        const QString reason = file.errorString();
        file.cancelWriting(); // the destructor removes the temporary file
        return Error { u"cannot write %1: %2"_s.arg(path, reason) };
    }
    if (!file.commit())
        return Error { u"cannot write %1: %2"_s.arg(path, file.errorString()) };
    return true;
}

Result<bool> writeBytesFile(const QString& path, const QByteArray& bytes)
{
    QSaveFile file(path);
    if (Result<bool> opened = openOutputFile(file, path); !opened)
        return opened;
    if (file.write(bytes) != bytes.size()) {
        const QString reason = file.errorString();
        file.cancelWriting();
        return Error { u"cannot write %1: %2"_s.arg(path, reason) };
    }
    return commitOutputFile(file, path);
}

Result<bool> writeJsonFile(const QString& path, const QJsonObject& object)
{
    return writeBytesFile(path, QJsonDocument(object).toJson(QJsonDocument::Indented));
}

Result<bool> writeImageFile(const QString& path, const QImage& image)
{
    QSaveFile file(path);
    if (Result<bool> opened = openOutputFile(file, path); !opened)
        return opened;
    QImageWriter writer(&file, QFileInfo(path).suffix().toLatin1());
    if (!writer.write(image)) {
        const QString reason = writer.errorString();
        file.cancelWriting();
        return Error { u"cannot write %1: %2"_s.arg(path, reason) };
    }
    return commitOutputFile(file, path);
}

} // namespace facet
