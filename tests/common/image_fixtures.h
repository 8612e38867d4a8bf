// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Image files made by the tests themselves: PGM and GIF and TIFF are written byte by byte
// (Qt writes neither GIF nor, without a plugin, TIFF), the rest through QImage::save.

#include <QBuffer>
#include <QByteArray>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QImage>
#include <QString>

#include <cstdint>
#include <vector>

namespace fixtures {

inline bool writeBytes(const QString& path, const QByteArray& bytes)
{
    QDir().mkpath(QFileInfo(path).absolutePath());
    QFile file(path);
    if (!file.open(QIODevice::WriteOnly))
        return false;
    return file.write(bytes) == bytes.size();
}

// A grey test pattern: value (seed * 37 + r * 11 + c * 5) mod 256, so images differ and are not
// symmetric (a transposed or flipped image would not compare equal).
inline QImage pattern(int width, int height, int seed = 0)
{
    QImage image(width, height, QImage::Format_Grayscale8);
    for (int r = 0; r < height; ++r)
        for (int c = 0; c < width; ++c)
            image.scanLine(r)[c] = uchar((seed * 37 + r * 11 + c * 5) % 256);
    return image;
}

inline QByteArray pgmBytes(const QImage& grey)
{
    QByteArray bytes = QByteArray("P5\n") + QByteArray::number(grey.width()) + ' '
        + QByteArray::number(grey.height()) + "\n255\n";
    for (int r = 0; r < grey.height(); ++r)
        bytes.append(reinterpret_cast<const char*>(grey.constScanLine(r)), grey.width());
    return bytes;
}

// GIF89a with a 256-entry grey palette and LZW codes that are all literals: a Clear code every
// 250 pixels keeps the code width at 9 bits, which every decoder accepts.
inline QByteArray gifBytes(const QImage& grey)
{
    QByteArray out("GIF89a");
    auto put16 = [&out](int v) {
        out.append(char(v & 0xFF));
        out.append(char((v >> 8) & 0xFF));
    };
    put16(grey.width());
    put16(grey.height());
    out.append(char(0xF7)); // global colour table, 8 bits, 256 entries
    out.append('\0');
    out.append('\0');
    for (int i = 0; i < 256; ++i)
        out.append(QByteArray(3, char(i)));
    out.append(',');
    put16(0);
    put16(0);
    put16(grey.width());
    put16(grey.height());
    out.append('\0');
    out.append(char(8)); // LZW minimum code size
    std::vector<int> codes { 256 };
    int sinceClear = 0;
    for (int r = 0; r < grey.height(); ++r)
        for (int c = 0; c < grey.width(); ++c) {
            if (sinceClear == 250) {
                codes.push_back(256);
                sinceClear = 0;
            }
            codes.push_back(grey.constScanLine(r)[c]);
            ++sinceClear;
        }
    codes.push_back(257);
    QByteArray data;
    std::uint32_t buffer = 0;
    int bits = 0;
    for (int code : codes) {
        buffer |= std::uint32_t(code) << bits;
        bits += 9;
        while (bits >= 8) {
            data.append(char(buffer & 0xFF));
            buffer >>= 8;
            bits -= 8;
        }
    }
    if (bits > 0)
        data.append(char(buffer & 0xFF));
    for (qsizetype at = 0; at < data.size(); at += 255) {
        const QByteArray block = data.mid(at, 255);
        out.append(char(block.size()));
        out.append(block);
    }
    out.append('\0');
    out.append(';');
    return out;
}

// Baseline little-endian TIFF: one strip of 8-bit grey, uncompressed.
inline QByteArray tiffBytes(const QImage& grey)
{
    const int w = grey.width(), h = grey.height();
    QByteArray out("II*\0", 4);
    auto put16 = [&out](int v) {
        out.append(char(v & 0xFF));
        out.append(char((v >> 8) & 0xFF));
    };
    auto put32 = [&](std::uint32_t v) {
        put16(int(v & 0xFFFF));
        put16(int(v >> 16));
    };
    const int entries = 9;
    const std::uint32_t ifd = 8, pixels = ifd + 2 + entries * 12 + 4;
    put32(ifd);
    put16(entries);
    auto entry = [&](int tag, int type, std::uint32_t value) {
        put16(tag);
        put16(type);
        put32(1);
        if (type == 3) {
            put16(int(value));
            put16(0);
        } else {
            put32(value);
        }
    };
    entry(256, 4, std::uint32_t(w)); // ImageWidth
    entry(257, 4, std::uint32_t(h)); // ImageLength
    entry(258, 3, 8); // BitsPerSample
    entry(259, 3, 1); // no compression
    entry(262, 3, 1); // BlackIsZero
    entry(273, 4, pixels); // StripOffsets
    entry(277, 3, 1); // SamplesPerPixel
    entry(278, 4, std::uint32_t(h)); // RowsPerStrip
    entry(279, 4, std::uint32_t(w * h)); // StripByteCounts
    put32(0);
    for (int r = 0; r < h; ++r)
        out.append(reinterpret_cast<const char*>(grey.constScanLine(r)), w);
    return out;
}

// PNG, JPEG, BMP through Qt; returns the bytes so tests can cut them.
inline QByteArray encoded(const QImage& image, const char* format, int quality = -1)
{
    QByteArray bytes;
    QBuffer buffer(&bytes);
    buffer.open(QIODevice::WriteOnly);
    image.save(&buffer, format, quality);
    return bytes;
}

} // namespace fixtures
