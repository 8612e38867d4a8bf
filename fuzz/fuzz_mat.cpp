// SPDX-License-Identifier: GPL-3.0-or-later
// A MAT-file's bytes through loadMat, and through the warm start's readers of named matrices and
// of the facet_run text (readMatMatrices, readMatText). matio reads files only, so each input is
// written to this process's scratch folder first.
//
// The custom mutator knows the Level 5 layout: some of the time it rewrites the type or the byte
// count of one data element tag (inside a compressed variable too, inflating and deflating it
// again) to a reserved, unknown, boundary or random value. Byte-level mutations rarely hit a tag
// word and never one inside a zlib stream; a double array whose data tag said type 99 loaded the
// uninitialized buffer matio left unfilled (RELIABILITY.md).
#include "data/mat_loader.h"
#include "fuzz_support.h"

#include <QFile>

#include <zlib.h>

#include <algorithm>
#include <array>
#include <cstdint>
#include <cstring>
#include <random>
#include <vector>

extern "C" std::size_t LLVMFuzzerMutate(std::uint8_t* data, std::size_t size, std::size_t maxSize);

namespace {

using Bytes = std::vector<std::uint8_t>;

std::uint32_t readWord(const Bytes& b, std::size_t at, bool bigEndian)
{
    std::uint32_t v = 0;
    for (std::size_t i = 0; i < 4; ++i)
        v |= std::uint32_t(b[at + i]) << (bigEndian ? 8 * (3 - i) : 8 * i);
    return v;
}

void writeWord(Bytes& b, std::size_t at, std::uint32_t v, bool bigEndian)
{
    for (std::size_t i = 0; i < 4; ++i)
        b[at + i] = std::uint8_t(v >> (bigEndian ? 8 * (3 - i) : 8 * i));
}

// The positions of the data element tags from `at` to `end` (the subelements of a matrix, or
// the top-level elements), descending `levels` deep into matrices. Stops at a tag that leaves
// the range.
void collectTags(const Bytes& b, std::size_t at, std::size_t end, bool bigEndian, int levels,
    std::vector<std::size_t>& tags)
{
    while (at + 8 <= end && tags.size() < 4096) {
        tags.push_back(at);
        const std::uint32_t first = readWord(b, at, bigEndian);
        if (first >> 16 != 0) { // small data element: 4 bytes of data in the tag's second word
            at += 8;
            continue;
        }
        const std::uint64_t bytes = readWord(b, at + 4, bigEndian);
        if (at + 8 + bytes > end)
            return;
        if (first == 14 && levels > 0)
            collectTags(b, at + 8, std::size_t(at + 8 + bytes), bigEndian, levels - 1, tags);
        at += std::size_t(8 + (first == 15 ? bytes : (bytes + 7) / 8 * 8));
    }
}

std::uint32_t newTypeWord(std::uint32_t old, bool small, std::minstd_rand& rng)
{
    // Unknown, reserved (8, 10, 11), non-value (14, 15), text-only (16..18) and every valid type.
    static constexpr std::array<std::uint32_t, 22> kTypes { 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11,
        12, 13, 14, 15, 16, 17, 18, 19, 99, 255 };
    std::uint32_t type = 0;
    switch (rng() % 4) {
    case 0:
    case 1:
        type = kTypes[rng() % kTypes.size()];
        break;
    case 2:
        type
            = std::array<std::uint32_t, 5> { 1000, 0x7FFF, 0xFFFF, 0x10009, 0xFFFFFFFF }[rng() % 5];
        break;
    default:
        type = std::uint32_t(rng());
        break;
    }
    // A small element keeps its byte count in the upper half.
    return small ? (old & 0xFFFF0000u) | (type & 0xFFFF) : type;
}

std::uint32_t newByteCount(std::uint32_t old, std::size_t room, std::minstd_rand& rng)
{
    const std::array<std::uint32_t, 16> counts { 0, 1, 4, 7, 8, old - 1, old + 1, old - 8, old + 8,
        old * 2, old / 2, std::uint32_t(room), 0x7FFFFFFF, 0xFFFFFFF8, 0xFFFFFFFF,
        std::uint32_t(rng()) };
    return counts[rng() % counts.size()];
}

// Rewrites the type or the byte count of one tag among `tags` of `b`.
void rewriteTag(
    Bytes& b, const std::vector<std::size_t>& tags, bool bigEndian, std::minstd_rand& rng)
{
    const std::size_t at = tags[rng() % tags.size()];
    const std::uint32_t first = readWord(b, at, bigEndian);
    const bool small = first >> 16 != 0;
    if (rng() % 2 == 0) {
        writeWord(b, at, newTypeWord(first, small, rng), bigEndian);
    } else if (small) {
        const std::uint32_t count
            = std::array<std::uint32_t, 6> { 0, 1, 3, 4, 5, 0xFFFF }[rng() % 6];
        writeWord(b, at, (count << 16) | (first & 0xFFFF), bigEndian);
    } else {
        const std::uint32_t old = readWord(b, at + 4, bigEndian);
        writeWord(b, at + 4, newByteCount(old, b.size() - at - 8, rng), bigEndian);
    }
}

Bytes inflated(const std::uint8_t* data, std::size_t size, std::size_t limit)
{
    Bytes out(limit);
    z_stream z {};
    if (inflateInit(&z) != Z_OK)
        return {};
    z.next_in = const_cast<Bytef*>(data);
    z.avail_in = uInt(size);
    z.next_out = out.data();
    z.avail_out = uInt(limit);
    const int rc = inflate(&z, Z_FINISH);
    out.resize(limit - z.avail_out);
    inflateEnd(&z);
    return rc == Z_STREAM_END ? out : Bytes {};
}

// The structure-aware mutation of a Level 5 file in `b`, in place; false when it is none (then
// libFuzzer's own mutations run). A compressed top-level element is inflated, one of its tags
// rewritten, and deflated again in place of the old stream.
bool mutateLevel5(Bytes& b, std::size_t maxSize, std::minstd_rand& rng)
{
    if (b.size() < 136 || !((b[126] == 'I' && b[127] == 'M') || (b[126] == 'M' && b[127] == 'I')))
        return false;
    const bool bigEndian = b[126] == 'M';
    std::vector<std::size_t> top;
    collectTags(b, 128, b.size(), bigEndian, 0, top); // the top-level elements only
    std::vector<std::size_t> compressed;
    for (std::size_t at : top)
        if (readWord(b, at, bigEndian) == 15)
            compressed.push_back(at);
    if (!compressed.empty() && rng() % 2 == 0) {
        const std::size_t at = compressed[rng() % compressed.size()];
        const std::size_t bytes = readWord(b, at + 4, bigEndian);
        if (at + 8 + bytes > b.size())
            return false;
        Bytes inner = inflated(b.data() + at + 8, bytes, std::size_t(1) << 20);
        std::vector<std::size_t> tags;
        collectTags(inner, 0, inner.size(), bigEndian, 16, tags);
        if (tags.empty())
            return false;
        rewriteTag(inner, tags, bigEndian, rng);
        Bytes stream(compressBound(uLong(inner.size())));
        uLongf length = uLongf(stream.size());
        if (compress2(stream.data(), &length, inner.data(), uLong(inner.size()), 1) != Z_OK)
            return false;
        stream.resize(length);
        if (b.size() - bytes + length > maxSize)
            return false;
        b.erase(b.begin() + std::ptrdiff_t(at + 8), b.begin() + std::ptrdiff_t(at + 8 + bytes));
        b.insert(b.begin() + std::ptrdiff_t(at + 8), stream.begin(), stream.end());
        writeWord(b, at + 4, std::uint32_t(length), bigEndian);
        return true;
    }
    std::vector<std::size_t> tags;
    collectTags(b, 128, b.size(), bigEndian, 16, tags);
    if (tags.empty())
        return false;
    rewriteTag(b, tags, bigEndian, rng);
    return true;
}

} // namespace

extern "C" int LLVMFuzzerInitialize(int*, char***)
{
    facet::fuzz::initQt();
    return 0;
}

// One mutation in three is a tag rewrite when the input is a Level 5 file.
extern "C" std::size_t LLVMFuzzerCustomMutator(
    std::uint8_t* data, std::size_t size, std::size_t maxSize, unsigned int seed)
{
    std::minstd_rand rng(seed);
    if (rng() % 3 == 0) {
        Bytes b(data, data + size);
        if (mutateLevel5(b, maxSize, rng) && b.size() <= maxSize) {
            std::memcpy(data, b.data(), b.size());
            return b.size();
        }
    }
    return LLVMFuzzerMutate(data, size, maxSize);
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    const QString path = facet::fuzz::scratchDir() + QStringLiteral("/input.mat");
    {
        QFile file(path);
        if (!file.open(QIODevice::WriteOnly | QIODevice::Truncate))
            __builtin_trap();
        file.write(reinterpret_cast<const char*>(data), qint64(size));
    }
    facet::MatLoadOptions options;
    // Far below libFuzzer's 2 GB RSS limit: a header asking for more must be refused, not tried.
    options.memoryBudgetBytes = qint64(64) << 20;
    const facet::Result<facet::Dataset> loaded = facet::loadMat(path, options);
    if (loaded.ok()) {
        const facet::Dataset& d = *loaded;
        // What the rest of Facet relies on: the image fills a column, one label per sample.
        if (d.X.size() == 0 || qint64(d.height) * d.width != d.X.rows()
            || (d.hasLabels() && qsizetype(d.labels.size()) != d.X.cols()) || !d.X.allFinite())
            __builtin_trap();
    } else if (loaded.error().isEmpty()) {
        __builtin_trap();
    }
    const auto matrices = facet::readMatMatrices(
        path, { QStringLiteral("fea") }, qint64(64) << 20, { QStringLiteral("objective") });
    if (matrices.ok() ? matrices->size() != 2 : matrices.error().isEmpty())
        __builtin_trap();
    const auto text = facet::readMatText(path, QStringLiteral("facet_run"), qint64(1) << 16);
    if (!text.ok() && text.error().isEmpty())
        __builtin_trap();
    return 0;
}
