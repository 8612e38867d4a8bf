// SPDX-License-Identifier: GPL-3.0-or-later
#include "util/atomic_write.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QImage>
#include <QImageWriter>
#include <QJsonDocument>

#include <cerrno>
#include <cstring>
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
    static constexpr const char* kStreams[]
        = { "standard input", "standard output", "standard error" };
    for (int fd = 0; fd < 3; ++fd) {
        struct stat stream { };
        if (::fstat(fd, &stream) == 0 && stream.st_dev == status.st_dev
            && stream.st_ino == status.st_ino)
            return u"%1: is this program's %2 (%3); Facet replaces its output files whole, which "
                   "would lose what the file held before: give another file, or --json - to "
                   "write the JSON to standard output"_s.arg(path,
                       QString::fromLatin1(kStreams[fd]), QFileInfo(path).canonicalFilePath());
    }
    return {};
}

QString sameOutputProblem(const std::vector<std::pair<QString, QString>>& outputs)
{
    const auto usable = [](const QString& path) {
        return !path.isEmpty() && path != QLatin1String(kStandardOutputPath);
    };
    for (std::size_t i = 0; i < outputs.size(); ++i)
        for (std::size_t j = i + 1; j < outputs.size(); ++j) {
            const auto& [flagA, a] = outputs[i];
            const auto& [flagB, b] = outputs[j];
            if (!usable(a) || !usable(b))
                continue;
            std::error_code error;
            const bool linked = std::filesystem::equivalent(
                std::filesystem::path(QFile::encodeName(a).toStdString()),
                std::filesystem::path(QFile::encodeName(b).toStdString()), error);
            if (QDir::cleanPath(QFileInfo(a).absoluteFilePath())
                    == QDir::cleanPath(QFileInfo(b).absoluteFilePath())
                || (!error && linked))
                return u"%1 and %2 name the same file (%3): one output would replace the other; "
                       "give each its own file"_s.arg(flagA, flagB, b);
        }
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

namespace {

// Qt's reason, or the system's where Qt has none: on a full disk QSaveFile says "Unknown
// error" while errno holds ENOSPC (issue 36, item 9). `code` is errno right after the call.
QString failureReason(const QSaveFile& file, int code)
{
    const QString reason = file.errorString();
    if (code != 0 && (reason.isEmpty() || reason == u"Unknown error"_s))
        return QString::fromLocal8Bit(std::strerror(code));
    return reason;
}

} // namespace

Result<bool> commitOutputFile(QSaveFile& file, const QString& path)
{
    errno = 0;
    if (!file.flush()) {
        const QString reason = failureReason(file, errno);
        file.cancelWriting(); // the destructor removes the temporary file
        return Error { u"cannot write %1: %2"_s.arg(path, reason) };
    }
    errno = 0;
    if (!file.commit())
        return Error { u"cannot write %1: %2"_s.arg(path, failureReason(file, errno)) };
    return true;
}

Result<bool> writeBytesFile(const QString& path, const QByteArray& bytes)
{
    QSaveFile file(path);
    if (Result<bool> opened = openOutputFile(file, path); !opened)
        return opened;
    errno = 0;
    if (file.write(bytes) != bytes.size()) {
        const QString reason = failureReason(file, errno);
        file.cancelWriting();
        return Error { u"cannot write %1: %2"_s.arg(path, reason) };
    }
    return commitOutputFile(file, path);
}

Result<bool> writeJsonFile(const QString& path, const QJsonObject& object)
{
    const QByteArray bytes = QJsonDocument(object).toJson(QJsonDocument::Indented);
    if (path != QLatin1String(kStandardOutputPath))
        return writeBytesFile(path, bytes);
    // A stream, appended to whatever standard output already holds; nothing is replaced.
    QFile out;
    if (!out.open(stdout, QIODevice::WriteOnly) || out.write(bytes) != bytes.size() || !out.flush())
        return Error { u"cannot write the JSON to standard output: %1"_s.arg(out.errorString()) };
    return true;
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
