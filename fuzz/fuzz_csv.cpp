// SPDX-License-Identifier: GPL-3.0-or-later
// An image list's text through loadImageListBytes, resolved in a scratch folder holding a few
// good and one damaged image.
#include "data/csv_loader.h"
#include "fuzz_support.h"

extern "C" int LLVMFuzzerInitialize(int*, char***)
{
    facet::fuzz::initQt();
    facet::fuzz::writeListImages(facet::fuzz::scratchDir());
    return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    static const QString path = facet::fuzz::scratchDir() + QStringLiteral("/list.csv");
    const facet::Result<facet::ImageSet> set
        = facet::loadImageListBytes(facet::fuzz::bytesOf(data, size), path);
    if (set.ok()) {
        if (set->images.empty() || qsizetype(set->images.size()) != set->files.size()
            || (set->hasLabels() && set->labels.size() != set->images.size()))
            __builtin_trap();
        for (int label : set->labels)
            if (label < 0 || label >= set->classNames.size())
                __builtin_trap();
    } else if (set.error().isEmpty()) {
        __builtin_trap();
    }
    return 0;
}
