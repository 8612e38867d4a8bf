// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "util/result.h"

#include <QByteArray>
#include <QImage>
#include <QJsonObject>
#include <QSaveFile>
#include <QString>

#include <memory>
#include <utility>
#include <vector>

namespace facet {

// Every writer here goes through a temporary file beside the target and renames it over the
// target only when everything was written (QSaveFile): a full disk or a read-only folder leaves
// the old file intact and returns a message naming the file and the cause.

// Refuses a target that exists and is not a regular file (a device, a FIFO, a socket): renaming
// the temporary file over it would replace /dev/null or a pipe with a plain file. Refuses too a
// regular file that is this process's standard input, output or error (/dev/stdout while the
// output is appended to a log): the log would be replaced whole. Empty when the target is another
// regular file, a link to one, or absent.
QString outputTargetProblem(const QString& path);

// The path that names standard output in --json: the JSON is written there as a stream.
inline constexpr const char* kStandardOutputPath = "-";

// Refuses two outputs that name the same file (through any spelling, link or hard link): the
// second would replace the first. `outputs` pairs each option's flag with its path; empty
// paths are ignored, as is "-". Empty when every path names a file of its own.
QString sameOutputProblem(const std::vector<std::pair<QString, QString>>& outputs);

// Whether `path` can be written before any work is done for it: outputTargetProblem; its folder
// must exist and take a new file under a name as long as the writers' temporary files (a file
// is made there and removed again, which finds a read-only folder or file system and a missing
// permission); the name, with the 8 bytes a temporary file adds, must fit the file system's
// limit (255 bytes on most); an existing file must be writable. With `imageSuffix`, its suffix
// must name an image format Qt writes. Empty when it can.
QString outputPathProblem(const QString& path, bool imageSuffix = false);

// Refuses an output that is the input file itself (the same file through any path, link or hard
// link): the input would be replaced by what was made from it, and whatever else it held (a MAT
// file's other variables, the original 0..255 values) lost. Empty when either does not exist
// or they differ.
QString overwritesInputProblem(const QString& outputPath, const QString& inputPath);

// openOutputFile, then write what it likes, then commitOutputFile. commitOutputFile flushes
// Qt's write buffer itself before QSaveFile::commit(): in Qt 6.4 commit() renames the file over
// the target even when the flush of that buffer fails (a full disk: a 0-byte file, reported as
// written), because only QSaveFile::writeData records errors and the flush does not go through it.
Result<bool> openOutputFile(QSaveFile& file, const QString& path);
Result<bool> commitOutputFile(QSaveFile& file, const QString& path);

// An output written whole to a temporary file beside its target (and flushed, so a full disk
// has already shown) but not yet in its place: commit() renames it over the target; destroyed
// uncommitted, it removes the temporary file and leaves the target as it was. A command with
// several outputs stages every one before it commits any (commitOutputs): a failure in any of
// them leaves every old file, and no new one, in place (all outputs or none).
class StagedOutput {
public:
    explicit StagedOutput(QString target)
        : m_target(std::move(target))
    {
    }
    virtual ~StagedOutput() = default;
    const QString& target() const { return m_target; }
    virtual Result<bool> commit() = 0;

private:
    QString m_target;
};
using StagedOutputPtr = std::unique_ptr<StagedOutput>;

Result<StagedOutputPtr> stageBytesFile(const QString& path, const QByteArray& bytes);
// A file path only; "-" (standard output) is a stream and is written by writeJsonFile.
Result<StagedOutputPtr> stageJsonFile(const QString& path, const QJsonObject& object);
// The format follows the file suffix (png, jpg, bmp, ...).
Result<StagedOutputPtr> stageImageFile(const QString& path, const QImage& image);

// Commits each staged output in turn. Only a rename can fail here (every byte was written when
// it was staged); should one fail, the error names the outputs already renamed into place.
Result<bool> commitOutputs(std::vector<StagedOutputPtr>& outputs);

Result<bool> writeBytesFile(const QString& path, const QByteArray& bytes);

Result<bool> writeJsonFile(const QString& path, const QJsonObject& object);

// The format follows the file suffix (png, jpg, bmp, ...).
Result<bool> writeImageFile(const QString& path, const QImage& image);

} // namespace facet
