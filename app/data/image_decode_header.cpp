// SPDX-License-Identifier: GPL-3.0-or-later
#include "data/image_decode_header.h"

#include <algorithm>
#include <cctype>

#include <cstdint>

namespace facet {
namespace {

// Bounds-checked unsigned reads; `big` selects big-endian byte order.
std::optional<quint32> readUnsigned(const QByteArray& bytes, qsizetype at, int width, bool big)
{
    if (at < 0 || width > 4 || at > bytes.size() - width)
        return std::nullopt;
    quint32 v = 0;
    for (int b = 0; b < width; ++b) {
        const auto byte = quint32(std::uint8_t(bytes.at(at + (big ? b : width - 1 - b))));
        v = (v << 8) | byte;
    }
    return v;
}

std::optional<QSize> sizeOf(std::optional<quint32> width, std::optional<quint32> height)
{
    // QSize holds ints; a header beyond that is as refused as one just above the limit.
    constexpr quint32 kIntMax = 0x7FFFFFFF;
    if (!width || !height)
        return std::nullopt;
    return QSize(int(std::min(*width, kIntMax)), int(std::min(*height, kIntMax)));
}

std::optional<QSize> pnmSize(const QByteArray& bytes)
{
    const std::optional<PnmHeader> header = parsePnmHeader(bytes);
    if (!header)
        return std::nullopt;
    return sizeOf(quint32(header->width), quint32(header->height));
}

// The first start-of-frame (C0..CF except DHT C4, JPG C8, DAC CC: precision, height, width),
// found the way libjpeg's next_marker finds markers, since that is where OpenCV's decoder takes
// the size from: bytes other than FF before a marker are skipped (a "Corrupt JPEG data:
// extraneous bytes" warning, not an error), so are FF fill bytes and stuffed FF 00 pairs; RSTn
// and TEM stand alone; any other segment is skipped by its length, and a length below 2 skips
// only the length itself (libjpeg's skip_variable). Stopping at the first byte that was not FF,
// as this did before, let a frame after such bytes through unchecked. SOI, EOI or SOS before a
// frame end the search: libjpeg refuses those files.
std::optional<QSize> jpegSize(const QByteArray& bytes)
{
    const qsizetype size = bytes.size();
    auto byte = [&](qsizetype at) { return std::uint8_t(bytes.at(at)); };
    qsizetype at = 2;
    while (at < size) {
        while (at < size && byte(at) != 0xFF)
            ++at;
        while (at < size && byte(at) == 0xFF)
            ++at;
        if (at >= size)
            return std::nullopt;
        const std::uint8_t marker = byte(at++);
        if (marker == 0x00 || marker == 0x01 || (marker >= 0xD0 && marker <= 0xD7))
            continue; // a stuffed zero, TEM, RSTn: no length
        if (marker == 0xD8 || marker == 0xD9 || marker == 0xDA)
            return std::nullopt;
        if (marker >= 0xC0 && marker <= 0xCF && marker != 0xC4 && marker != 0xC8 && marker != 0xCC)
            return sizeOf(
                readUnsigned(bytes, at + 5, 2, true), readUnsigned(bytes, at + 3, 2, true));
        const std::optional<quint32> length = readUnsigned(bytes, at, 2, true);
        if (!length)
            return std::nullopt;
        at += std::max<qsizetype>(2, qsizetype(*length));
    }
    return std::nullopt;
}

std::optional<QSize> bmpSize(const QByteArray& bytes)
{
    const std::optional<quint32> header = readUnsigned(bytes, 14, 4, false);
    if (!header)
        return std::nullopt;
    if (*header == 12) // OS/2 BITMAPCOREHEADER: 16-bit sizes
        return sizeOf(readUnsigned(bytes, 18, 2, false), readUnsigned(bytes, 20, 2, false));
    const std::optional<quint32> width = readUnsigned(bytes, 18, 4, false);
    std::optional<quint32> height = readUnsigned(bytes, 22, 4, false);
    // A negative height means top-down rows; the magnitude is the size.
    if (height && (*height & 0x80000000u))
        height = *height == 0x80000000u ? 0x80000000u : quint32(-qint64(qint32(*height)));
    if (width && (*width & 0x80000000u))
        return QSize(0x7FFFFFFF, 0x7FFFFFFF);
    return sizeOf(width, height);
}

std::optional<QSize> webpSize(const QByteArray& bytes)
{
    const QByteArray chunk = bytes.mid(12, 4);
    if (chunk == "VP8X") {
        const auto w = readUnsigned(bytes, 24, 3, false), h = readUnsigned(bytes, 27, 3, false);
        return w && h ? sizeOf(*w + 1, *h + 1) : std::nullopt;
    }
    if (chunk == "VP8L") {
        const std::optional<quint32> bits = readUnsigned(bytes, 21, 4, false);
        return bits ? sizeOf((*bits & 0x3FFF) + 1, ((*bits >> 14) & 0x3FFF) + 1) : std::nullopt;
    }
    if (chunk == "VP8 ") {
        const auto w = readUnsigned(bytes, 26, 2, false), h = readUnsigned(bytes, 28, 2, false);
        return w && h ? sizeOf(*w & 0x3FFF, *h & 0x3FFF) : std::nullopt;
    }
    // No chunk header: libwebp (ParseVP8Header) reads the bytes after "WEBP" as a bare bitstream,
    // lossless when they carry VP8L's signature (0x2F, version bits 0), else lossy (VP8's frame
    // tag, start code, then the sizes). fuzz_image: "/\x1B\x1B\x1B\x1B" there made OpenCV
    // allocate a 6940 x 11373 image (315 MB) past the pixel limit.
    const std::optional<quint32> first = readUnsigned(bytes, 12, 1, false);
    const std::optional<quint32> version = readUnsigned(bytes, 16, 1, false);
    if (first && version && *first == 0x2F && (*version >> 5) == 0) {
        const std::optional<quint32> bits = readUnsigned(bytes, 13, 4, false);
        return bits ? sizeOf((*bits & 0x3FFF) + 1, ((*bits >> 14) & 0x3FFF) + 1) : std::nullopt;
    }
    const auto w = readUnsigned(bytes, 18, 2, false), h = readUnsigned(bytes, 20, 2, false);
    return w && h ? sizeOf(*w & 0x3FFF, *h & 0x3FFF) : std::nullopt;
}

// The first image file directory: 12-byte entries of tag, type, count, value, with ImageWidth
// (256) and ImageLength (257). The spec gives them SHORT (3) or LONG (4), but libtiff takes any
// integer type (TIFFReadDirEntryLong: BYTE, SHORT, LONG, their signed forms, and LONG8 and
// SLONG8, stored at an offset in a classic file) and the first of duplicated entries: a width
// of type SLONG made OpenCV allocate a 30000 x 30000 image past the pixel limit, and duplicates
// could disagree. So each size is the largest of its entries of any integer type (a signed one
// read as unsigned, so a negative one is huge and refused).
std::optional<QSize> tiffSize(const QByteArray& bytes)
{
    const bool big = bytes.at(0) == 'M';
    const std::optional<quint32> ifd = readUnsigned(bytes, 4, 4, big);
    if (!ifd || *ifd > quint32(bytes.size()))
        return std::nullopt;
    const std::optional<quint32> entries = readUnsigned(bytes, qsizetype(*ifd), 2, big);
    if (!entries)
        return std::nullopt;
    auto entryValue = [&](qsizetype at, quint32 type) -> std::optional<quint32> {
        switch (type) {
        case 1: // BYTE
        case 6: // SBYTE
            return readUnsigned(bytes, at + 8, 1, big);
        case 3: // SHORT
        case 8: // SSHORT
            return readUnsigned(bytes, at + 8, 2, big);
        case 4: // LONG
        case 9: // SLONG
            return readUnsigned(bytes, at + 8, 4, big);
        case 16: // LONG8
        case 17: { // SLONG8: 8 bytes at the offset the entry holds
            const std::optional<quint32> offset = readUnsigned(bytes, at + 8, 4, big);
            if (!offset)
                return std::nullopt;
            const auto high = readUnsigned(bytes, qsizetype(*offset) + (big ? 0 : 4), 4, big);
            const auto low = readUnsigned(bytes, qsizetype(*offset) + (big ? 4 : 0), 4, big);
            if (!high || !low)
                return std::nullopt;
            return *high != 0 ? 0xFFFFFFFFu : *low;
        }
        default:
            return std::nullopt;
        }
    };
    std::optional<quint32> width, height;
    for (quint32 e = 0; e < *entries; ++e) {
        const qsizetype at = qsizetype(*ifd) + 2 + qsizetype(e) * 12;
        const auto tag = readUnsigned(bytes, at, 2, big),
                   type = readUnsigned(bytes, at + 2, 2, big);
        if (!tag || !type)
            break;
        if (*tag != 256 && *tag != 257)
            continue;
        const std::optional<quint32> value = entryValue(at, *type);
        if (!value)
            continue;
        std::optional<quint32>& size = *tag == 256 ? width : height;
        size = std::max(size.value_or(0), *value);
    }
    return sizeOf(width, height);
}

} // namespace

std::optional<PnmHeader> parsePnmHeader(const QByteArray& bytes)
{
    if (bytes.size() < 3 || bytes.at(0) != 'P' || bytes.at(1) < '1' || bytes.at(1) > '6')
        return std::nullopt;
    const char kind = bytes.at(1);
    // OpenCV's ReadNumber (grfmt_pxm.cpp), byte for byte: before a number it skips runs of C
    // locale whitespace and '#' comments (to '\n' or '\r', whose next byte is then read too);
    // any other non-digit is an error; the digits end at the first non-digit byte, which is
    // consumed whatever it is. The bitmaps (P1, P4) have no maxval.
    qsizetype at = 2;
    const auto byteAt
        = [&](qsizetype i) { return i < bytes.size() ? int(uchar(bytes.at(i))) : -1; };
    const auto number = [&]() -> std::optional<qint64> {
        int code = byteAt(at++);
        while (!(code >= '0' && code <= '9')) {
            if (code == '#') {
                do
                    code = byteAt(at++);
                while (code != '\n' && code != '\r' && code >= 0);
                code = byteAt(at++);
            } else if (code >= 0 && std::isspace(code)) {
                while (code >= 0 && std::isspace(code))
                    code = byteAt(at++);
            } else {
                return std::nullopt; // an unexpected byte, or the end of the file
            }
        }
        qint64 value = 0;
        do {
            value = value * 10 + (code - '0');
            if (value > 0x7FFFFFFF)
                return std::nullopt; // OpenCV asserts the same
            code = byteAt(at++);
        } while (code >= '0' && code <= '9');
        return value;
    };
    PnmHeader header;
    header.kind = kind;
    const std::optional<qint64> width = number();
    const std::optional<qint64> height = width ? number() : std::nullopt;
    if (!height)
        return std::nullopt;
    header.width = *width;
    header.height = *height;
    if (kind != '1' && kind != '4') {
        const std::optional<qint64> maxval = number();
        if (!maxval)
            return std::nullopt;
        header.maxval = *maxval;
    }
    header.dataStart = std::min(at, bytes.size());
    return header;
}

std::optional<QSize> declaredImageSize(ImageFormat format, const QByteArray& bytes)
{
    switch (format) {
    case ImageFormat::Pnm:
        return pnmSize(bytes);
    case ImageFormat::Png: // IHDR is the first chunk: width, height big-endian at 16 and 20
        return sizeOf(readUnsigned(bytes, 16, 4, true), readUnsigned(bytes, 20, 4, true));
    case ImageFormat::Jpeg:
        return jpegSize(bytes);
    case ImageFormat::Bmp:
        return bmpSize(bytes);
    case ImageFormat::Gif: // the logical screen, little-endian at 6 and 8
        return sizeOf(readUnsigned(bytes, 6, 2, false), readUnsigned(bytes, 8, 2, false));
    case ImageFormat::Tiff:
        return tiffSize(bytes);
    case ImageFormat::Webp:
        return webpSize(bytes);
    case ImageFormat::Unknown:
        break;
    }
    return std::nullopt;
}

} // namespace facet
