// SPDX-License-Identifier: GPL-3.0-or-later
// One-image decoding on hostile bytes (RELIABILITY.md): headers declaring gigapixel images are
// refused before any decoder allocates, cut-off and empty files get a clear error, and the input
// libFuzzer found (fuzz/fuzz_image.cpp) that reached a decoder which aborts the process is
// refused as "not an image".
#include "data/image_decode.h"

#include <QBuffer>
#include <QImage>
#include <QtTest>

#include <cstdint>

using namespace facet;

namespace {

QByteArray encoded(const char* format)
{
    QImage image(6, 4, QImage::Format_Grayscale8);
    image.fill(128);
    QByteArray bytes;
    QBuffer buffer(&bytes);
    buffer.open(QIODevice::WriteOnly);
    image.save(&buffer, format);
    return bytes;
}

void putBig32(QByteArray& b, qsizetype at, std::uint32_t v)
{
    for (int i = 0; i < 4; ++i)
        b[at + i] = char((v >> (8 * (3 - i))) & 0xFF);
}

void putLittle(QByteArray& b, qsizetype at, std::uint32_t v, int width)
{
    for (int i = 0; i < width; ++i)
        b[at + i] = char((v >> (8 * i)) & 0xFF);
}

QByteArray pngBomb()
{
    QByteArray png = encoded("png");
    putBig32(png, 16, 50000); // IHDR width
    putBig32(png, 20, 50000); // IHDR height
    return png;
}

// `beforeFrame` goes just before the start-of-frame segment.
QByteArray jpegBomb(const QByteArray& beforeFrame = {})
{
    QByteArray jpeg = encoded("jpg");
    // The first start-of-frame marker (FF C0 or FF C2): height and width follow precision.
    qsizetype sof = jpeg.indexOf(QByteArray("\xFF\xC0", 2));
    if (sof < 0)
        sof = jpeg.indexOf(QByteArray("\xFF\xC2", 2));
    jpeg[sof + 5] = char(0xFF);
    jpeg[sof + 6] = char(0xFF);
    jpeg[sof + 7] = char(0xFF);
    jpeg[sof + 8] = char(0xFF);
    return jpeg.insert(sof, beforeFrame);
}

QByteArray gifBomb()
{
    QByteArray gif("GIF89a", 6);
    gif += QByteArray("\xFF\xFF\xFF\xFF\x00\x00\x00", 7); // 65535 x 65535 logical screen
    gif += QByteArray("\x2C\x00\x00\x00\x00\xFF\xFF\xFF\xFF\x00\x02\x02\x44\x01\x00\x3B", 16);
    return gif;
}

QByteArray bmpBomb()
{
    QByteArray bmp = encoded("bmp");
    putLittle(bmp, 18, 40000, 4);
    putLittle(bmp, 22, std::uint32_t(-40000), 4); // top-down rows: a negative height
    return bmp;
}

QByteArray tiffBomb()
{
    QByteArray tiff("II*\0", 4);
    tiff += QByteArray("\x08\x00\x00\x00", 4); // first directory at byte 8
    tiff += QByteArray("\x02\x00", 2); // two entries
    tiff += QByteArray("\x00\x01\x04\x00\x01\x00\x00\x00\xA0\x86\x01\x00", 12); // width 100000
    tiff += QByteArray("\x01\x01\x04\x00\x01\x00\x00\x00\xA0\x86\x01\x00", 12); // height 100000
    tiff += QByteArray(4, '\0');
    return tiff;
}

QByteArray tiffEntry(std::uint16_t tag, std::uint16_t type, std::uint32_t value)
{
    QByteArray e(12, '\0');
    putLittle(e, 0, tag, 2);
    putLittle(e, 2, type, 2);
    putLittle(e, 4, 1, 4);
    putLittle(e, 8, value, type == 3 ? 2 : 4);
    return e;
}

// A little-endian TIFF of 8-bit grey pixels whose ImageWidth and ImageLength entries are `sizes`,
// then the fields libtiff needs before OpenCV allocates the image; `tail` follows the directory
// (at byte 8 + 2 + 12 * entries + 4: 122 for two size entries).
QByteArray tiffWith(const QList<QByteArray>& sizes, const QByteArray& tail = {})
{
    QList<QByteArray> entries = sizes;
    entries << tiffEntry(258, 3, 8) << tiffEntry(259, 3, 1) << tiffEntry(262, 3, 1)
            << tiffEntry(273, 4, 8) << tiffEntry(277, 3, 1) << tiffEntry(278, 4, 30000)
            << tiffEntry(279, 4, 100);
    QByteArray count(2, '\0');
    putLittle(count, 0, std::uint32_t(entries.size()), 2);
    return QByteArray("II*\0\x08\0\0\0", 8) + count + entries.join() + QByteArray(4, '\0') + tail
        + QByteArray(100, '\0');
}

QByteArray webpBomb()
{
    QByteArray webp("RIFF\0\0\0\0WEBPVP8X", 16);
    webp += QByteArray("\x0A\x00\x00\x00", 4); // chunk size 10
    webp += QByteArray(4, '\0'); // flags
    webp += QByteArray("\xFF\xFF\x00\xFF\xFF\x00", 6); // (65535 + 1) x (65535 + 1)
    putLittle(webp, 4, std::uint32_t(webp.size() - 8), 4);
    return webp;
}

} // namespace

class TestImageHostile : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void refused_data()
    {
        QTest::addColumn<QByteArray>("bytes");
        QTest::addColumn<QString>("expected");
        const QString tooLarge
            = QStringLiteral("above the limit of %1 pixels").arg(kMaxImagePixels);
        QTest::newRow("empty") << QByteArray() << QStringLiteral("empty file");
        QTest::newRow("zeros") << QByteArray(64, '\0') << QStringLiteral("not an image");
        QTest::newRow("png bomb") << pngBomb() << tooLarge;
        QTest::newRow("jpeg bomb") << jpegBomb() << tooLarge;
        // libjpeg skips bytes other than FF before a marker, RSTn has no length, and a segment
        // length below 2 skips only itself: the size check stopped at each and let the frame
        // after it through.
        QTest::newRow("jpeg bomb after junk") << jpegBomb("junk") << tooLarge;
        QTest::newRow("jpeg bomb after RST0") << jpegBomb("\xFF\xD0") << tooLarge;
        QTest::newRow("jpeg bomb after short segment")
            << jpegBomb(QByteArray("\xFF\xE1\x00\x00", 4)) << tooLarge;
        QTest::newRow("gif bomb") << gifBomb() << tooLarge;
        QTest::newRow("bmp bomb") << bmpBomb() << tooLarge;
        QTest::newRow("tiff bomb") << tiffBomb() << tooLarge;
        QTest::newRow("webp bomb") << webpBomb() << tooLarge;
        // libtiff takes any integer type for the sizes, and the first of duplicated entries; a
        // check that knew only SHORT and LONG let OpenCV allocate 900 MB for the first of these.
        QTest::newRow("tiff slong sizes")
            << tiffWith({ tiffEntry(256, 9, 30000), tiffEntry(257, 9, 30000) }) << tooLarge;
        QTest::newRow("tiff duplicate width") << tiffWith(
            { tiffEntry(256, 4, 30000), tiffEntry(256, 3, 10), tiffEntry(257, 4, 30000) })
                                              << tooLarge;
        // LONG8: the 8-byte value sits at an offset (here just after the directory, byte 122).
        QTest::newRow("tiff long8 sizes") << [] {
            QByteArray value(8, '\0');
            putLittle(value, 0, 30000, 4);
            return tiffWith({ tiffEntry(256, 16, 122), tiffEntry(257, 16, 122) }, value);
        }() << tooLarge;
        QTest::newRow("png cut") << encoded("png").chopped(20) << QStringLiteral("truncated");
        QTest::newRow("jpeg cut") << encoded("jpg").chopped(40) << QStringLiteral("truncated");
        QTest::newRow("pgm cut") << encoded("pgm").chopped(3) << QStringLiteral("truncated");
        QTest::newRow("pgm huge header")
            << QByteArray("P5\n100000 100000\n255\n\x01\x02", 23) << QStringLiteral("truncated");
        // fuzz_image (CI, 30 s): "P3\f905\xB5755169\x01905..." - OpenCV ends a number at any
        // non-digit and reads 905 x 755169; the size check used to stop at the \xB5 and pass
        // the file on, and the decoder's 2 GB allocation stopped the fuzzer.
        QTest::newRow("fuzz ascii pnm bomb")
            << QByteArray::fromBase64("UDMMOTA1tTc1NTE2OQE5MDW1NzU1MTY5AAAAAAAAADI4")
            << QStringLiteral("truncated: a 905 x 755169 PNM");
        QTest::newRow("ascii pnm cut")
            << QByteArray("P2\n300 200\n255\n1 2 3 4\n") << QStringLiteral("truncated");
        QTest::newRow("pnm number past int") << QByteArray("P5\n99999999999 2\n255\n\x01\x02", 23)
                                             << QStringLiteral("header is incomplete or damaged");
        // fuzz_image: "P2" and a Latin-1 no-break space passed as PNM, then OpenCV's own
        // signature search found "DICM" at byte 128 and GDCM's reader aborted the process.
        QTest::newRow("fuzz dicom") << QByteArray::fromBase64(
            "UDKgIz9SR0lJKkJFNQAWAAAwZwAAAAAAAAAAAQACgkGgsAAAAAAAAQAAAAAAAAAAAAAAAAAAAAAAAA"
            "AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAEAwA"
            "AAEDANkAAAAAAAAAAABESUNNAgAAABcBBAAADi8AAAGQkJCQkJCQkJCQkJCQkJCQkJCQkJCQkJCQkJ"
            "CQkJCQkJCQkJCQkJCQkJCQkJCQkJCQkJCQkJCQkJCQkJCQkAAAABwBAwABAJCQkJCQkJCQkJCQkJAA"
            "AAAcAQMAAQAAAAEA//8AV////wEDICAgIAABoAABACA2ICAK")
                                    << QStringLiteral("not an image");
        // fuzz_image (7 min): a RIFF/WEBP header with a damaged chunk passed the sniffing,
        // OpenCV's WebP reader turned it down, and its signature search reached GDCM again
        // through "DICM" at byte 128 - now refused for any format.
        QTest::newRow("fuzz webp dicom") << QByteArray::fromBase64(
            "UklGRgMAAABXRUJQVlA4UDYKMXI2ADU6Ojo6Ojp9fX19fX19fX19fX19fX19fX19fX19fX19fX19fX"
            "19fX19fX19fX19fX19fX19fX19fX19fX19fX19fX19fX19fX19fX19fX19fX19fX19fX06OgEVOjo6"
            "Okw6Ojo6FxEAAABESUNN/wD/") << QStringLiteral("DICOM signature");
        // fuzz_image (malloc limit 256 MB): no chunk header after "WEBP", so libwebp reads a bare
        // VP8L bitstream there, 6940 x 11373 pixels; the size check knew only the three chunks.
        QTest::newRow("fuzz webp bare bitstream") << QByteArray::fromBase64(
            "UklGRh4AAABXRUJQLxsbGxsbGxsbGxsbGxsbGxsbGxsbGxsbGxsbGxsbGxsbGxsCQFsAB1DkelSh/4H//wAAYb"
            "AAOQI3//////////////////iIfw==") << tooLarge;
        QTest::newRow("pgm dicom") << [] {
            QByteArray pgm = "P5\n16 16\n255\n" + QByteArray(256, '\x40');
            pgm.replace(128, 4, "DICM");
            return pgm;
        }() << QStringLiteral("DICOM signature");
    }

    void refused()
    {
        QFETCH(QByteArray, bytes);
        QFETCH(QString, expected);
        const Result<QImage> image = decodeImageBytes(bytes, QStringLiteral("hostile.img"));
        QVERIFY2(!image.ok(), "a hostile image was decoded");
        QVERIFY2(
            image.error().startsWith(QStringLiteral("hostile.img: ")), qPrintable(image.error()));
        QVERIFY2(image.error().contains(expected), qPrintable(image.error()));
    }

    // The same encoders' honest output decodes, so the refusals above are about the patches.
    // Hand-written ASCII and binary PNM with comments in the header: the size check reads the
    // header as the decoder does, so honest files with comments still pass it.
    void pnmWithCommentsDecodes_data()
    {
        QTest::addColumn<QByteArray>("bytes");
        QTest::addColumn<int>("grey"); // the last pixel's value
        QTest::newRow("P2") << QByteArray("P2\n# made by hand\n3 2\n# max\n255\n0 1 2\n3 4 200\n")
                            << 200;
        QTest::newRow("P5") << QByteArray("P5 3 #c\n2 255\n\x00\x01\x02\x03\x04\x07", 20) << 7;
    }

    void pnmWithCommentsDecodes()
    {
        QFETCH(QByteArray, bytes);
        QFETCH(int, grey);
        const Result<QImage> image = decodeImageBytes(bytes, QStringLiteral("hand.pnm"));
        QVERIFY2(image.ok(), qPrintable(image.ok() ? QString() : image.error()));
        QCOMPARE(image->size(), QSize(3, 2));
        QCOMPARE(qGray(image->pixel(2, 1)), grey);
    }

    void honestImagesDecode_data()
    {
        QTest::addColumn<QByteArray>("format");
        for (const char* format : { "png", "jpg", "bmp", "pgm" })
            QTest::newRow(format) << QByteArray(format);
    }

    void honestImagesDecode()
    {
        QFETCH(QByteArray, format);
        const Result<QImage> image
            = decodeImageBytes(encoded(format.constData()), QStringLiteral("ok"));
        QVERIFY2(image.ok(), qPrintable(image.ok() ? QString() : image.error()));
        QCOMPARE(image->size(), QSize(6, 4));
    }
};

#include "facet_test.h"
FACET_TEST_GUILESS_MAIN(TestImageHostile)
#include "test_image_hostile.moc"
