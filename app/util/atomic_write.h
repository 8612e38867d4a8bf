// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "util/result.h"

#include <QByteArray>
#include <QImage>
#include <QJsonObject>
#include <QSaveFile>
#include <QString>

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

// Whether `path` can be written before any work is done for it: outputTargetProblem, and its
// folder must exist. With `imageSuffix`, its suffix must name an image format Qt writes.
// Empty when it can.
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

Result<bool> writeBytesFile(const QString& path, const QByteArray& bytes);

Result<bool> writeJsonFile(const QString& path, const QJsonObject& object);

// The format follows the file suffix (png, jpg, bmp, ...).
Result<bool> writeImageFile(const QString& path, const QImage& image);

} // namespace facet
