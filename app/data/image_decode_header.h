// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "data/image_decode.h"

#include <QByteArray>
#include <QSize>

#include <optional>

namespace facet {

// The width and height a file's header declares, read without decoding anything, so a tiny file
// declaring a gigapixel image (a decompression bomb) is refused before a decoder allocates for
// it. Empty when the header is too short or damaged to say; the decoder then reports the damage.
std::optional<QSize> declaredImageSize(ImageFormat format, const QByteArray& bytes);

} // namespace facet
