// SPDX-License-Identifier: GPL-3.0-or-later
#include "util/atomic_write.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QImage>
#include <QImageWriter>
#include <QJsonDocument>
#include <QTemporaryFile>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <system_error>

#include <sys/stat.h>
#include <unistd.h>

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

namespace {

// What the writers add to a name for their temporary file: "." + name + ".XXXXXX" (the MAT
// writers; QSaveFile adds 7).
constexpr qsizetype kTemporaryNameExtra = 8;

// Whether a file named like `path`'s temporary file can be made in its folder: made and removed
// again, which is the one test that covers a read-only folder or file system, a missing
// permission (not for root) and a name too long for the file system alike.
QString creatableProblem(const QString& path)
{
    const QFileInfo info(path);
    const QString folder = info.absolutePath();
    const qsizetype nameBytes = QFile::encodeName(info.fileName()).size();
    long limit = ::pathconf(QFile::encodeName(folder).constData(), _PC_NAME_MAX);
    if (limit <= 0)
        limit = 255;
    if (nameBytes + kTemporaryNameExtra > limit)
        return u"%1: the file name is %2 bytes long; this folder's file system takes names of at "
               "most %3 bytes, and Facet writes each output to a temporary file whose name is %4 "
               "bytes longer first: give a name of at most %5 bytes"_s.arg(path)
                   .arg(nameBytes)
                   .arg(limit)
                   .arg(kTemporaryNameExtra)
                   .arg(limit - kTemporaryNameExtra);
    if (info.exists() && !info.isWritable())
        return u"%1: the file is read-only; Facet would replace it, so make it writable or give "
               "another name"_s.arg(path);
    QTemporaryFile probe(QDir(folder).filePath(u"."_s + info.fileName() + u".XXXXXX"_s));
    if (!probe.open())
        return u"%1: cannot create a file in %2 (%3)"_s.arg(path, folder, probe.errorString());
    return {};
}

} // namespace

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
    return creatableProblem(path);
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

namespace {

// A QSaveFile written and flushed, waiting for its rename.
class SaveFileOutput final : public StagedOutput {
public:
    explicit SaveFileOutput(const QString& path)
        : StagedOutput(path)
        , m_file(path)
    {
    }
    QSaveFile& file() { return m_file; }
    Result<bool> commit() override { return commitOutputFile(m_file, target()); }

private:
    QSaveFile m_file;
};

// Flushes Qt's buffer of a staged file, so a full disk shows before any output is committed.
Result<StagedOutputPtr> flushed(std::unique_ptr<SaveFileOutput> output)
{
    errno = 0;
    if (!output->file().flush()) {
        const QString reason = failureReason(output->file(), errno);
        output->file().cancelWriting();
        return Error { u"cannot write %1: %2"_s.arg(output->target(), reason) };
    }
    return StagedOutputPtr(std::move(output));
}

} // namespace

Result<StagedOutputPtr> stageBytesFile(const QString& path, const QByteArray& bytes)
{
    auto output = std::make_unique<SaveFileOutput>(path);
    if (Result<bool> opened = openOutputFile(output->file(), path); !opened)
        return Error { opened.error() };
    errno = 0;
    if (output->file().write(bytes) != bytes.size()) {
        const QString reason = failureReason(output->file(), errno);
        output->file().cancelWriting();
        return Error { u"cannot write %1: %2"_s.arg(path, reason) };
    }
    return flushed(std::move(output));
}

Result<StagedOutputPtr> stageJsonFile(const QString& path, const QJsonObject& object)
{
    return stageBytesFile(path, QJsonDocument(object).toJson(QJsonDocument::Indented));
}

Result<StagedOutputPtr> stageImageFile(const QString& path, const QImage& image)
{
    auto output = std::make_unique<SaveFileOutput>(path);
    if (Result<bool> opened = openOutputFile(output->file(), path); !opened)
        return Error { opened.error() };
    QImageWriter writer(&output->file(), QFileInfo(path).suffix().toLatin1());
    if (!writer.write(image)) {
        const QString reason = writer.errorString();
        output->file().cancelWriting();
        return Error { u"cannot write %1: %2"_s.arg(path, reason) };
    }
    return flushed(std::move(output));
}

Result<bool> commitOutputs(std::vector<StagedOutputPtr>& outputs)
{
    QStringList committed;
    for (const StagedOutputPtr& output : outputs) {
        if (const Result<bool> done = output->commit(); !done)
            return Error { committed.isEmpty()
                    ? done.error()
                    : u"%1 (already written: %2)"_s.arg(done.error(), committed.join(u", "_s)) };
        committed << output->target();
    }
    return true;
}

Result<bool> writeBytesFile(const QString& path, const QByteArray& bytes)
{
    Result<StagedOutputPtr> staged = stageBytesFile(path, bytes);
    if (!staged)
        return Error { staged.error() };
    return (*staged)->commit();
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
    Result<StagedOutputPtr> staged = stageImageFile(path, image);
    if (!staged)
        return Error { staged.error() };
    return (*staged)->commit();
}

} // namespace facet
