// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "data/image_decode.h"

#include <QByteArray>
#include <QSize>

#include <optional>

namespace facet {

// A PNM header as OpenCV's reader parses it (the pixel-limit and truncation checks must agree
// with the decoder about the size, or a header they cannot read still reaches its allocation).
struct PnmHeader {
    char kind = '0'; // '1'..'6'
    qint64 width = 0;
    qint64 height = 0;
    qint64 maxval = 1; // 1 for the bitmaps P1 and P4
    qsizetype dataStart = 0; // the first byte after the header's last number and its terminator
};
// Empty when the header is damaged or incomplete (OpenCV would refuse it too).
std::optional<PnmHeader> parsePnmHeader(const QByteArray& bytes);

// The width and height a file's header declares, read without decoding anything, so a tiny file
// declaring a gigapixel image (a decompression bomb) is refused before a decoder allocates for
// it. Empty when the header is too short or damaged to say; the decoder then reports the damage.
std::optional<QSize> declaredImageSize(ImageFormat format, const QByteArray& bytes);

} // namespace facet
