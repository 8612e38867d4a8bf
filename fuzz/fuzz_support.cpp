// SPDX-License-Identifier: GPL-3.0-or-later
#include "fuzz_support.h"

#include <QCoreApplication>
#include <QDir>
#include <QImage>
#include <QTemporaryDir>

#include <memory>

namespace facet::fuzz {

void initQt()
{
    static int argc = 1;
    static char name[] = "facet-fuzz";
    static char* argv[] = { name, nullptr };
    static const std::unique_ptr<QCoreApplication> app = [] {
        return QCoreApplication::instance() ? nullptr
                                            : std::make_unique<QCoreApplication>(argc, argv);
    }();
}

const QString& scratchDir()
{
    static QTemporaryDir dir(QDir::tempPath() + QStringLiteral("/facet-fuzz-XXXXXX"));
    static const QString path = dir.path();
    return path;
}

QByteArray bytesOf(const std::uint8_t* data, std::size_t size)
{
    return QByteArray::fromRawData(reinterpret_cast<const char*>(data), qsizetype(size));
}

QStringList splitArguments(const std::uint8_t* data, std::size_t size)
{
    QStringList arguments;
    QByteArray current;
    for (std::size_t i = 0; i < size; ++i) {
        const char c = char(data[i]);
        if (c == '\0' || c == '\n') {
            arguments << QString::fromUtf8(current);
            current.clear();
        } else {
            current += c;
        }
    }
    if (!current.isEmpty())
        arguments << QString::fromUtf8(current);
    return arguments;
}

void writeListImages(const QString& dir)
{
    QDir().mkpath(dir);
    QImage grey(4, 3, QImage::Format_Grayscale8);
    for (int r = 0; r < grey.height(); ++r)
        for (int c = 0; c < grey.width(); ++c)
            grey.scanLine(r)[c] = uchar(40 * r + 10 * c);
    grey.save(dir + QStringLiteral("/a.png"));
    grey.save(dir + QStringLiteral("/b.pgm"));
    QImage colour = grey.convertToFormat(QImage::Format_RGB888);
    colour.setPixelColor(1, 1, QColor(200, 10, 10));
    colour.save(dir + QStringLiteral("/c.bmp"));
    grey.save(dir + QStringLiteral("/d.jpg"));
    QFile damaged(dir + QStringLiteral("/broken.png"));
    if (damaged.open(QIODevice::WriteOnly))
        damaged.write("\x89PNG\r\n\x1a\n not really");
}

} // namespace facet::fuzz
