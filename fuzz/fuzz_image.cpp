// SPDX-License-Identifier: GPL-3.0-or-later
// One image file's bytes through the decoder every folder and list loader uses.
#include "data/image_decode.h"
#include "fuzz_support.h"

extern "C" int LLVMFuzzerInitialize(int*, char***)
{
    facet::fuzz::initQt();
    return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    const facet::Result<QImage> image
        = facet::decodeImageBytes(facet::fuzz::bytesOf(data, size), QStringLiteral("input"));
    // A decoded image is never empty; a failure always says why.
    if (image.ok() ? image->isNull() : image.error().isEmpty())
        __builtin_trap();
    return 0;
}
