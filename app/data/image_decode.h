// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "util/result.h"

#include <QByteArray>
#include <QFile>
#include <QImage>
#include <QString>

namespace facet {

enum class ImageFormat { Unknown, Pnm, Png, Jpeg, Bmp, Tiff, Gif, Webp };

// The format named by the file's first bytes (at least 12 are needed for WebP). Files are
// recognised by content, never by extension: the Yale files are GIFs without any extension.
ImageFormat sniffImageFormat(const QByteArray& head);

QString imageFormatName(ImageFormat format);

// Largest image the decoders are asked for (8192 x 8192): a face set's images are far smaller,
// and the header's size is checked before decoding, so a small file cannot make them allocate
// gigabytes.
inline constexpr qint64 kMaxImagePixels = qint64(1) << 26;

// Reads and decodes one image file: OpenCV's imgcodecs for PGM/PPM, PNG, JPEG, BMP, TIFF and
// WebP, Qt's QImageReader for GIF (OpenCV 4.6 has no GIF decoder). The result is
// Format_Grayscale8, or Format_RGB888 when the colour channels differ somewhere; 16-bit files are
// reduced to 8 bits and alpha is dropped. Errors say what is wrong with the file: empty, not an
// image, truncated, too large, undecodable, unreadable; they start with `name` (default: the path).
Result<QImage> decodeImageFile(const QString& path, const QString& name = {});

// The same for a file already open for reading, named `what` (the folder loader opens files by
// the bytes of their names, which a QString path may not hold).
Result<QImage> decodeOpenImageFile(QFile& file, const QString& what);

// The same for bytes already in memory; `what` names them in messages.
Result<QImage> decodeImageBytes(const QByteArray& bytes, const QString& what);

} // namespace facet
