// SPDX-License-Identifier: GPL-3.0-or-later
#include "util/atomic_write.h"

#include <QFile>
#include <QFileInfo>
#include <QImage>
#include <QImageWriter>
#include <QJsonDocument>

#include <filesystem>
#include <system_error>

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

QString overwritesInputProblem(const QString& outputPath, const QString& inputPath)
{
    if (outputPath.isEmpty() || inputPath.isEmpty())
        return {};
    std::error_code error;
    const bool same = std::filesystem::equivalent(std::filesystem::path(outputPath.toStdString()),
        std::filesystem::path(inputPath.toStdString()), error);
    if (error || !same)
        return {};
    return u"%1 is the input %2: writing it would replace the data it was made from; choose another file"_s
        .arg(outputPath, inputPath);
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
