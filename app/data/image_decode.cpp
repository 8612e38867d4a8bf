// SPDX-License-Identifier: GPL-3.0-or-later
#include "data/image_decode.h"

#include "data/image_decode_header.h"

#include <QBuffer>
#include <QFile>
#include <QFileInfo>
#include <QImageReader>

#include <opencv2/core.hpp>
#include <opencv2/core/utils/logger.hpp>
#include <opencv2/imgcodecs.hpp>
#include <opencv2/imgproc.hpp>

#include <cstdint>
#include <mutex>

namespace facet {
namespace {

// The C locale's isspace, as OpenCV's PNM reader tests it; QChar::isSpace also takes Latin-1's
// 0x85 and 0xA0, so a file could pass as PNM here and be handed by imdecode's own signature
// search to another decoder (the fuzzer reached GDCM's DICOM reader, which aborts on bad input).
bool isAsciiSpace(char c)
{
    return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f';
}

bool startsWith(const QByteArray& bytes, const char* prefix)
{
    return bytes.startsWith(QByteArrayView(prefix));
}

quint32 littleEndian32(const QByteArray& bytes, qsizetype at)
{
    quint32 v = 0;
    for (int b = 3; b >= 0; --b)
        v = (v << 8) | std::uint8_t(bytes.at(at + b));
    return v;
}

// PNM: for the binary kinds (P4 bitmap, P5 grey, P6 colour) the header's size fixes the pixel
// byte count, so a cut-off file is recognised exactly (OpenCV would otherwise fill the missing
// rows silently); for the ASCII kinds it gives a lower bound. The header is read the way OpenCV
// reads it, so the size checked here is the size the decoder would allocate.
QString pnmTruncation(const QByteArray& bytes)
{
    const std::optional<PnmHeader> header = parsePnmHeader(bytes);
    if (!header)
        return QStringLiteral("the PNM header is incomplete or damaged");
    const qint64 width = header->width, height = header->height, maxval = header->maxval;
    if (width <= 0 || height <= 0 || maxval <= 0 || maxval > 65535)
        return QStringLiteral("the PNM header gives an impossible size %1 x %2 (maxval %3)")
            .arg(width)
            .arg(height)
            .arg(maxval);
    const char kind = header->kind;
    // The ASCII variants' length depends on their digits, but every sample takes at least one
    // digit and (P2, P3) the byte that ends it, so a lower bound still refuses a tiny file that
    // declares a large image before the decoder allocates it.
    const qint64 rowBytes = kind == '1' ? width
        : kind == '2'                   ? 2 * width
        : kind == '3'                   ? 6 * width
        : kind == '4'                   ? (width + 7) / 8
                                        : width * (kind == '6' ? 3 : 1) * (maxval > 255 ? 2 : 1);
    // width * 6 * height can pass 2^63 for a hostile header: the product is checked.
    qint64 pixelBytes = 0;
    if (__builtin_mul_overflow(rowBytes, height, &pixelBytes)
        || bytes.size() - header->dataStart < pixelBytes)
        return QStringLiteral("truncated: a %1 x %2 PNM needs at least %3 bytes of pixels "
                              "after its header, the file has %4")
            .arg(width)
            .arg(height)
            .arg(double(rowBytes) * double(height), 0, 'g', 15)
            .arg(bytes.size() - header->dataStart);
    return {};
}

// Cheap end-of-file checks: decoders of PNG, JPEG and GIF often return the rows they managed
// to read from a cut-off file as if it were whole.
QString truncation(ImageFormat format, const QByteArray& bytes)
{
    const QByteArrayView tail = QByteArrayView(bytes).last(std::min<qsizetype>(bytes.size(), 1024));
    switch (format) {
    case ImageFormat::Pnm:
        return pnmTruncation(bytes);
    case ImageFormat::Png:
        // IEND is the last chunk; only its 4-byte CRC follows it.
        return tail.indexOf(QByteArrayView("IEND")) < 0
            ? QStringLiteral("truncated: the PNG has no IEND chunk")
            : QString();
    case ImageFormat::Jpeg:
        // In entropy-coded data every 0xFF is stuffed, so FF D9 near the end is the EOI marker.
        return tail.indexOf(QByteArrayView("\xFF\xD9")) < 0
            ? QStringLiteral("truncated: the JPEG has no end-of-image marker")
            : QString();
    case ImageFormat::Gif: {
        qsizetype end = bytes.size();
        while (end > 0 && (bytes.at(end - 1) == '\0' || bytes.at(end - 1) == '\n'))
            --end;
        return end == 0 || bytes.at(end - 1) != ';'
            ? QStringLiteral("truncated: the GIF has no trailer byte")
            : QString();
    }
    case ImageFormat::Bmp: {
        const quint32 declared = bytes.size() >= 6 ? littleEndian32(bytes, 2) : 0;
        return declared > quint32(bytes.size())
            ? QStringLiteral("truncated: the BMP header declares %1 bytes, the file has %2")
                  .arg(declared)
                  .arg(bytes.size())
            : QString();
    }
    case ImageFormat::Webp: {
        const quint32 declared = littleEndian32(bytes, 4) + 8;
        return declared > quint32(bytes.size())
            ? QStringLiteral("truncated: the WebP header declares %1 bytes, the file has %2")
                  .arg(declared)
                  .arg(bytes.size())
            : QString();
    }
    case ImageFormat::Tiff:
    case ImageFormat::Unknown:
        break;
    }
    return {};
}

// A colour file whose channels agree everywhere (a grey picture saved as RGB) is grey.
QImage fromColour(const cv::Mat& rgb)
{
    std::vector<cv::Mat> channels;
    cv::split(rgb, channels);
    if (cv::countNonZero(channels[0] != channels[1]) == 0
        && cv::countNonZero(channels[1] != channels[2]) == 0) {
        QImage grey(rgb.cols, rgb.rows, QImage::Format_Grayscale8);
        for (int r = 0; r < rgb.rows; ++r)
            std::copy_n(channels[0].ptr<uchar>(r), rgb.cols, grey.scanLine(r));
        return grey;
    }
    QImage image(rgb.cols, rgb.rows, QImage::Format_RGB888);
    for (int r = 0; r < rgb.rows; ++r)
        std::copy_n(rgb.ptr<uchar>(r), std::size_t(rgb.cols) * 3, image.scanLine(r));
    return image;
}

Result<QImage> decodeWithOpenCv(const QByteArray& bytes, const QString& what)
{
    // OpenCV logs every failed decode to stderr; the loader reports failures itself.
    static std::once_flag quiet;
    std::call_once(
        quiet, [] { cv::utils::logging::setLogLevel(cv::utils::logging::LOG_LEVEL_SILENT); });
    cv::Mat decoded;
    try {
        const cv::Mat raw(1, int(bytes.size()), CV_8UC1, const_cast<char*>(bytes.constData()));
        decoded = cv::imdecode(raw, cv::IMREAD_ANYDEPTH | cv::IMREAD_ANYCOLOR);
    } catch (const cv::Exception& e) {
        return Error { QStringLiteral("%1: could not be decoded (%2)")
                           .arg(what, QString::fromStdString(e.msg).trimmed()) };
    }
    if (decoded.empty())
        return Error { QStringLiteral("%1: could not be decoded; the file is damaged").arg(what) };
    if (decoded.depth() == CV_16U)
        decoded.convertTo(decoded, CV_8U, 1.0 / 257.0);
    else if (decoded.depth() != CV_8U)
        cv::normalize(decoded, decoded, 0, 255, cv::NORM_MINMAX, CV_8U);
    if (decoded.channels() == 1) {
        QImage grey(decoded.cols, decoded.rows, QImage::Format_Grayscale8);
        for (int r = 0; r < decoded.rows; ++r)
            std::copy_n(decoded.ptr<uchar>(r), decoded.cols, grey.scanLine(r));
        return grey;
    }
    cv::Mat rgb;
    cv::cvtColor(decoded, rgb, decoded.channels() == 4 ? cv::COLOR_BGRA2RGB : cv::COLOR_BGR2RGB);
    return fromColour(rgb);
}

Result<QImage> decodeWithQt(const QByteArray& bytes, const QString& what)
{
    QByteArray copy = bytes;
    QBuffer buffer(&copy);
    buffer.open(QIODevice::ReadOnly);
    QImageReader reader(&buffer, "gif");
    QImage image = reader.read();
    if (image.isNull())
        return Error {
            QStringLiteral("%1: could not be decoded (%2)").arg(what, reader.errorString())
        };
    if (image.allGray())
        return image.convertToFormat(QImage::Format_Grayscale8);
    return image.convertToFormat(QImage::Format_RGB888);
}

} // namespace

ImageFormat sniffImageFormat(const QByteArray& head)
{
    if (head.size() >= 3 && head.at(0) == 'P' && head.at(1) >= '1' && head.at(1) <= '6'
        && isAsciiSpace(head.at(2)))
        return ImageFormat::Pnm;
    if (startsWith(head, "\x89PNG\r\n\x1a\n"))
        return ImageFormat::Png;
    if (startsWith(head, "\xFF\xD8\xFF"))
        return ImageFormat::Jpeg;
    if (startsWith(head, "GIF87a") || startsWith(head, "GIF89a"))
        return ImageFormat::Gif;
    // "BM" alone starts plenty of text files; the four reserved bytes after the size are zero.
    if (startsWith(head, "BM") && head.size() >= 10 && head.mid(6, 4) == QByteArray(4, '\0'))
        return ImageFormat::Bmp;
    if (head.size() >= 4
        && (head.first(4) == QByteArrayView("II*\0", 4)
            || head.first(4) == QByteArrayView("MM\0*", 4)))
        return ImageFormat::Tiff;
    if (startsWith(head, "RIFF") && head.size() >= 12 && head.mid(8, 4) == "WEBP")
        return ImageFormat::Webp;
    return ImageFormat::Unknown;
}

QString imageFormatName(ImageFormat format)
{
    switch (format) {
    case ImageFormat::Pnm:
        return QStringLiteral("PNM");
    case ImageFormat::Png:
        return QStringLiteral("PNG");
    case ImageFormat::Jpeg:
        return QStringLiteral("JPEG");
    case ImageFormat::Bmp:
        return QStringLiteral("BMP");
    case ImageFormat::Tiff:
        return QStringLiteral("TIFF");
    case ImageFormat::Gif:
        return QStringLiteral("GIF");
    case ImageFormat::Webp:
        return QStringLiteral("WebP");
    case ImageFormat::Unknown:
        break;
    }
    return QStringLiteral("unknown");
}

Result<QImage> decodeImageBytes(const QByteArray& bytes, const QString& what)
{
    if (bytes.isEmpty())
        return Error { QStringLiteral("%1: empty file (0 bytes)").arg(what) };
    const ImageFormat format = sniffImageFormat(bytes.first(std::min<qsizetype>(bytes.size(), 16)));
    if (format == ImageFormat::Unknown)
        return Error { QStringLiteral("%1: not an image (no PNM, PNG, JPEG, BMP, TIFF, GIF or "
                                      "WebP signature)")
                           .arg(what) };
    // cv::imdecode picks its decoder by signature, not by our sniffing, and GDCM's DICOM reader
    // (which aborts the process on damaged input) is asked before the PNM and TIFF readers and
    // whenever the one we sniffed turns the file down. DICOM's signature, "DICM" at byte 128, can
    // sit inside any of the accepted formats, so such a file is refused whatever its first bytes.
    if (bytes.mid(128, 4) == "DICM")
        return Error { QStringLiteral("%1: carries a DICOM signature (\"DICM\" at byte 128); "
                                      "DICOM files are not read")
                           .arg(what) };
    if (const QString problem = truncation(format, bytes); !problem.isEmpty())
        return Error { QStringLiteral("%1: %2").arg(what, problem) };
    if (const std::optional<QSize> size = declaredImageSize(format, bytes)) {
        if (qint64(size->width()) * size->height() > kMaxImagePixels)
            return Error { QStringLiteral("%1: the %2 header declares %3 x %4 pixels, above the "
                                          "limit of %5 pixels for one image")
                               .arg(what, imageFormatName(format))
                               .arg(size->width())
                               .arg(size->height())
                               .arg(kMaxImagePixels) };
    }
    return format == ImageFormat::Gif ? decodeWithQt(bytes, what) : decodeWithOpenCv(bytes, what);
}

Result<QImage> decodeImageFile(const QString& path, const QString& name)
{
    const QString what = name.isEmpty() ? path : name;
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return Error { QStringLiteral("%1: cannot be read (%2)").arg(what, file.errorString()) };
    return decodeOpenImageFile(file, what);
}

Result<QImage> decodeOpenImageFile(QFile& file, const QString& what)
{
    // Image files of a face set are small; anything above 256 MiB is refused before reading.
    constexpr qint64 kMaxBytes = qint64(256) << 20;
    if (file.size() > kMaxBytes)
        return Error { QStringLiteral("%1: %2 bytes is too large for an image of a set")
                           .arg(what)
                           .arg(file.size()) };
    const QByteArray bytes = file.readAll();
    if (bytes.isEmpty() && file.error() != QFileDevice::NoError)
        return Error { QStringLiteral("%1: cannot be read (%2)").arg(what, file.errorString()) };
    return decodeImageBytes(bytes, what);
}

} // namespace facet
