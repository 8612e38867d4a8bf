// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "util/result.h"

#include <QByteArray>
#include <QImage>
#include <QJsonObject>
#include <QString>

namespace facet {

// Both write to a temporary file beside the target and rename it over the target only when
// everything was written (QSaveFile): a full disk or a read-only folder leaves the old file
// intact and returns a message naming the file and the cause.

Result<bool> writeBytesFile(const QString& path, const QByteArray& bytes);

Result<bool> writeJsonFile(const QString& path, const QJsonObject& object);

// The format follows the file suffix (png, jpg, bmp, ...).
Result<bool> writeImageFile(const QString& path, const QImage& image);

} // namespace facet
