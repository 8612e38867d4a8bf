// SPDX-License-Identifier: GPL-3.0-or-later
// The .mat loader on files built byte by byte to lie about their structure (RELIABILITY.md): every
// one is refused with a message naming the file and the problem, before matio allocates what the
// headers claim. The "fuzz" rows are inputs libFuzzer found (fuzz/fuzz_mat.cpp) that made matio
// allocate gigabytes or hit undefined behaviour in the loader's own message.
#include "core/sanitizers.h"
#include "data/mat_loader.h"
#include "data/mat_loader_matio.h"

#include <QFile>
#include <QTemporaryDir>
#include <QtTest>

#include <matio.h>

#include <algorithm>
#include <array>
#include <cstdint>
#include <initializer_list>

using namespace facet;

namespace {

QByteArray le32(std::uint32_t v)
{
    QByteArray b(4, '\0');
    for (int i = 0; i < 4; ++i)
        b[i] = char((v >> (8 * i)) & 0xFF);
    return b;
}

QByteArray padded(QByteArray b)
{
    while (b.size() % 8 != 0)
        b += '\0';
    return b;
}

// A Level 5 data element: 8-byte tag (type, byte count), data padded to 8 bytes.
QByteArray element(std::uint32_t type, const QByteArray& data)
{
    return le32(type) + le32(std::uint32_t(data.size())) + padded(data);
}

// miCOMPRESSED: a zlib stream of elements; unlike the others it is not padded.
QByteArray compressed(const QByteArray& elements)
{
    const QByteArray stream = qCompress(elements).mid(4); // without Qt's length prefix
    return le32(15) + le32(std::uint32_t(stream.size())) + stream;
}

QByteArray level5Header(const char mark[2] = "IM", std::uint16_t version = 0x0100)
{
    QByteArray h("MATLAB 5.0 MAT-file, written by Facet's hostile input test");
    h = h.leftJustified(116, ' ');
    h += QByteArray(8, '\0');
    h += char(version & 0xFF);
    h += char(version >> 8);
    h += mark[0];
    h += mark[1];
    return h;
}

// miMATRIX: array flags (class), dimensions, name, then the class's own subelements.
QByteArray matrix(std::uint32_t matClass, std::initializer_list<std::int32_t> dims,
    const QByteArray& name, const QByteArray& rest = {})
{
    QByteArray dimensions;
    for (std::int32_t d : dims)
        dimensions += le32(std::uint32_t(d));
    const QByteArray body
        = element(6, le32(matClass) + le32(0)) + element(5, dimensions) + element(1, name) + rest;
    return element(14, body);
}

QByteArray doubles(std::initializer_list<double> values)
{
    QByteArray data;
    for (double v : values)
        data += QByteArray(reinterpret_cast<const char*>(&v), sizeof v);
    return element(9, data);
}

} // namespace

class TestMatHostile : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void initTestCase() { QVERIFY(m_dir.isValid()); }

    void refused_data()
    {
        QTest::addColumn<QByteArray>("bytes");
        QTest::addColumn<QStringList>("expected");

        QTest::newRow("zero-length") << QByteArray() << QStringList { QStringLiteral("empty") };
        QTest::newRow("text") << QByteArray("x,y\n1,2\n")
                              << QStringList { QStringLiteral("not a MATLAB MAT-file") };
        // Version 4: type 0 (little-endian doubles), 2 x 2, a name of 1.6 GB in a 114-byte file.
        QTest::newRow("v4 huge name")
            << (le32(0) + le32(2) + le32(2) + le32(0) + le32(0x62206465) + QByteArray(94, 'x'))
            << QStringList { QStringLiteral("truncated or damaged"), QStringLiteral("matrix 1") };
        // fuzz_mat: a version 4 header whose size does not fit 64 bits (UBSan: float to int).
        // A MAT 7.3 (HDF5) file fuzz_mat changed from its v7.3 seed, on which Debian's libhdf5
        // crashes (SEGV in H5Gget_info under Mat_Open): read in facet-mat-reader, the crash is
        // this message. Its 3419 bytes, mostly zeros, are kept zlib-compressed (qCompress).
        QTest::newRow("fuzz hdf5 crash")
            << qUncompress(
                   QByteArray::fromBase64("AAANW3ja83UM8XF0UjDXM1bwdQzRTcvMSdVRCMhJLEnLL8q1UqiwMIs3"
                                          "M9EtSNbNycwrrdBNzyvVUXAuSk0sSU1R"
                                          "SKq0UsjJTMpNLMnMVygz1DPVMzJWyM9TCClNVfDLL1MwMlEwtLQysLAy"
                                          "NlQwMjAy41LwcHEzVWBQgAIGJk9fhlEw"
                                          "oKATGCW8XFJcYA4HBwMLgwBEgglC/YeCAF5UPkx/"
                                          "ApRmhNIdUHoFE0ycESwnARUXhJqPri4kyNUVpPo/GkC1FSxg"
                                          "wAIRFBiNvREJPFwdA0B0BJQPS1onmFDVpaUmgun0vBSUJOpApr2MDOwQ"
                                          "MxhhfA0IzcSInGNw0sxAl4JUCirYM3BA"
                                          "XWLCzWDynxkizwoUBckzMUEM5ID6jJlRgRuiQgHFPUJQU0CK1z9gzeZh"
                                          "MIDyeYEyHAy+4KI9PjknsbgYJC4MxGxI"
                                          "4ZCSX5qUkwpiGZAVHsF+/i6MQN9xQPkKzPjVw/"
                                          "JrBetoGiYlXTGipSNGItKVEVHpyoEbW0k60OlqFIyCUTAKBif4"
                                          "YI/ajOCA0gIO6PIAWZN3eA=="))
            << QStringList { QStringLiteral("damaged"), QStringLiteral("crashed") };
        QTest::newRow("fuzz v4 overflow") << QByteArray::fromBase64("AgAAAAEAAGQAbgBnAAAAAAAAAEA=")
                                          << QStringList { QStringLiteral("truncated or damaged") };
        // fuzz_mat (CI, 30 s): the type word 1000 read little-endian says "big-endian" (M = 1).
        // The check read the other words little-endian, as the order it had tried, while matio
        // switched to big-endian for them and allocated a name of 0x7F000000 bytes.
        const QByteArray littleBody = le32(1) + le32(1) + le32(0) + le32(0x7F)
            + QByteArray(126, 'x') + '\0' + QByteArray(8, '\0');
        QTest::newRow("fuzz v4 order")
            << (le32(1000) + littleBody) << QStringList { QStringLiteral("not a MATLAB MAT-file") };
        // The same header as the second matrix, after an honest one.
        QTest::newRow("fuzz v4 order, matrix 2")
            << (le32(0) + le32(1) + le32(1) + le32(0) + le32(4) + QByteArray("fea", 4)
                   + QByteArray(8, '\0') + le32(1000) + littleBody)
            << QStringList { QStringLiteral("matrix 2 at byte 32"), QStringLiteral("damaged") };
        // A Level 5 mark with an unknown version: matio reads it as version 4.
        QTest::newRow("bad version") << (level5Header("MI", 0) + QByteArray(64, '\0'))
                                     << QStringList { QStringLiteral("not a MATLAB MAT-file") };
        // fuzz_mat: array flags in the small format claiming 65533 bytes (matio: 2.6 GB malloc).
        QTest::newRow("fuzz subelement size") << QByteArray::fromBase64(
            "TUFUTEFCIDUuMCBNQVQtZmlsZSwgUGxhdGZvcm06IHg4Nl82NC1wYy1saW51eC1nbnUsIENyZWF0ZW"
            "QgYnk6IGxpYm1hdGlvIHYwLjUuMjMgb24gU3VuIE5vdiAyMiAwNToxNToxMyAyMDI2CgAgICAgICAg"
            "ICAgICAgIAABSU0OAAAAOAAAAAYAAAAIAAAACgAAAAAAAAAFAAAACAAAAAMAAAABAAAAAQABAFgAAA"
            "ADAAAABgAAAP//AAABAAAADgAAAEgAAAAGAP/9////////AAAAAAAABQAAAAgASU0AAAMAAAABAAAA"
            "AQADAGduZAAJAAAAGAAAAAAAAAAAAPA/AAAAAAAAAEAAAAAAAADwPw==")
                                              << QStringList { QStringLiteral("damaged") };
        // fuzz_mat (CI, 30 s): a matrix of 57 bytes, off the 8-byte boundary. The structure walk
        // stepped to byte 0xC8, matio to 0xC1, where it found another "matrix" whose dimensions
        // it allocated 4 GB for.
        QTest::newRow("fuzz unpadded matrix") << QByteArray::fromBase64(
            "TUFUTEFCIDUuMCBNQVQtZmlsZSwBAmxhdGZvcm06IHg4Nl82NC1wYy1saW51eC1nbnUsIENyZWF0ZWQg"
            "Ynk6IGz//21hdGlvIHYxLjUuMjMgb24gU3VuIE5vdiAyMiAxMDowODozOSAyMDI2CgAgICAgICAgICAg"
            "ICAgIAABSU0OAAAAOQAAAAYAAAAIAAAACQAAAAAAAAAFAAAACAAAAAIAAAAEAAAAAQADAGZlYQACAACN"
            "AAgAAAAAMmSWyPoKFA4AAABAAAAABgAAAAgAAAAGAAAAAAAAAAUAAAAITm92IDIyIDEwOjA4OjM5IDIw"
            "MjYKACAg4N/f39/f3+ggICAgAAFJTQ4AAAAAAgAAAAEAAEEAAQADAGduZAAJAAAAEAAAAAAAAAAAAPA/"
            "AAAAAAAAAEA=") << QStringList { QStringLiteral("not a multiple of 8") };
        // fuzz_mat (readMatText, 60 s): a 1 x 28 char whose data tag declares 0x2F000034 bytes
        // inside a 120-byte matrix; matio allocated 788 MB for it.
        QTest::newRow("fuzz char data size") << QByteArray::fromBase64(
            "TUFUTEFCIDUuMCBNQVQtZmlsZSwgUGxhdGZvcm06IHg4Nl82NC1wYy1saW51eC1nbnVDLHIgZWF0ZWQg"
            "Ynk6IGxpYm1hdGlvIHYxLjUuMjMgb24gVHVlIE5vdiAyNCAyMzozODo1NCAyMDI2CgAgICAgICAgICAg"
            "ICAgIAABSU0OAAAAeAAAAAYAAAAIAAAABAAAAAAAAAAFAAAACAAAAAEAAAAcAAAAAQAAAAkAAABmYWNl"
            "dF9ydW4AAAAAAAAABAAAADQAAC97ACIAbQBlAHQAaABvAGQAIgA6ACAAIgBuAG0AZgAiACwAIAAiAHMA"
            "ZQBlAGQAIgA6ACAAMwB9AA==") << QStringList { QStringLiteral("runs past its matrix") };
        // A struct whose field name length is an 8-byte tag and its value (MATLAB writes the
        // small form). matio reads that length as two words, so it took the tag's size (4) as the
        // length and the value (1, miINT8) and padding as the names' tag: 0xFFFFFFF8 bytes of
        // names, a 4 GB malloc. The structure walk had read the same bytes as one valid field.
        QTest::newRow("long-form field name length") << (level5Header()
            + matrix(2, { 1, 1 }, "s",
                le32(5) + le32(4) + le32(1) + le32(0xFFFFFFF8u) + element(1, "a")
                    + element(14, {}))) << QStringList { QStringLiteral("field name length") };
        // A 100000 x 100000 cell in a few bytes: matio would allocate 80 GB of element pointers.
        QTest::newRow("cell count") << (level5Header() + matrix(1, { 100000, 100000 }, "c"))
                                    << QStringList { QStringLiteral("does not fit") };
        QTest::newRow("negative dimension")
            << (level5Header() + matrix(6, { 2, -1 }, "fea", doubles({ 1, 2 })))
            << QStringList { QStringLiteral("negative dimension") };
        QTest::newRow("rank 40") << (level5Header()
            + matrix(6,
                { 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
                    1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1 },
                "fea", doubles({ 1 })))
                                 << QStringList { QStringLiteral("damaged dimensions") };
        QTest::newRow("function handle") << (level5Header() + matrix(16, { 1, 1 }, "f"))
                                         << QStringList { QStringLiteral("class 16") };
        QByteArray nested = matrix(6, { 1, 1 }, "", doubles({ 1 }));
        for (int depth = 0; depth < 40; ++depth)
            nested = matrix(1, { 1, 1 }, depth == 39 ? "c" : "", nested);
        QTest::newRow("deep nesting")
            << (level5Header() + nested) << QStringList { QStringLiteral("nest") };
        // A compressed struct whose inner tag claims 100 MB: more than the loader inflates.
        QByteArray big = matrix(2, { 1, 1 }, "s");
        big.replace(4, 4, le32(100u << 20));
        QTest::newRow("compressed container")
            << (level5Header() + compressed(big))
            << QStringList { QStringLiteral("cell or struct of") };
        // A compressed variable whose stream stops inside its header.
        QTest::newRow("compressed cut header")
            << (level5Header() + compressed(matrix(6, { 2, 2 }, "fea")).left(22))
            << QStringList { QStringLiteral("damaged") };
        // A 40 x 64 'fea' whose data holds 10 values: matio read them and left 2,550 zeros.
        const QByteArray shortFea
            = matrix(6, { 40, 64 }, "fea", doubles({ 1, 2, 3, 4, 5, 6, 7, 8, 9, 10 }));
        QTest::newRow("data cut short")
            << (level5Header() + shortFea)
            << QStringList { QStringLiteral("'fea' (40 x 64) has 2560 elements"),
                   QStringLiteral("holds 10") };
        QTest::newRow("compressed data cut short")
            << (level5Header() + compressed(shortFea))
            << QStringList { QStringLiteral("2560 elements"), QStringLiteral("cut short") };
        // The stream cut and the element's size made to match the bytes left, as matio writes a
        // file on a full disk (it sizes the element by the position it reached): matio inflated
        // what there was and left the rest of 'fea' zero.
        QByteArray feaBytes;
        for (int i = 0; i < 2560; ++i) {
            const double v = (i * 7919) % 1000;
            feaBytes += QByteArray(reinterpret_cast<const char*>(&v), sizeof v);
        }
        QByteArray cut = compressed(matrix(6, { 40, 64 }, "fea", element(9, feaBytes)));
        cut = cut.left(cut.size() / 2);
        cut.replace(4, 4, le32(std::uint32_t(cut.size() - 8)));
        QTest::newRow("compressed stream cut, size matching")
            << (level5Header() + cut)
            << QStringList { QStringLiteral("'fea'"), QStringLiteral("truncated") };
        QByteArray corrupt = compressed(matrix(6, { 40, 64 }, "fea", element(9, feaBytes)));
        for (qsizetype i = corrupt.size() / 2; i < corrupt.size() / 2 + 16; ++i)
            corrupt[i] = char(0xFF);
        QTest::newRow("compressed stream corrupt")
            << (level5Header() + corrupt) << QStringList { QStringLiteral("damaged") };
    }

    void refused()
    {
        QFETCH(QByteArray, bytes);
        QFETCH(QStringList, expected);
        const QString path = m_dir.filePath(QStringLiteral("%1.mat").arg(
            QString::fromLatin1(QTest::currentDataTag()).replace(u' ', u'_')));
        QFile file(path);
        QVERIFY(file.open(QIODevice::WriteOnly | QIODevice::Truncate));
        file.write(bytes);
        file.close();
        const Result<Dataset> loaded = loadMat(path);
        QVERIFY2(!loaded.ok(), "a hostile file was accepted");
        QVERIFY2(loaded.error().contains(QFileInfo(path).fileName()), qPrintable(loaded.error()));
        for (const QString& needle : expected)
            QVERIFY2(
                loaded.error().contains(needle, Qt::CaseInsensitive), qPrintable(loaded.error()));
        qInfo().noquote() << loaded.error();
    }

    // The byte builder above makes files matio and the checks accept when they are honest, so
    // the refusals above are about the lies, not about the builder.
    void honestHandBuiltFileLoads()
    {
        const QString path = m_dir.filePath(QStringLiteral("honest.mat"));
        QFile file(path);
        QVERIFY(file.open(QIODevice::WriteOnly | QIODevice::Truncate));
        const QByteArray fea = matrix(6, { 2, 2 }, "fea", doubles({ 1, 2, 3, 4 }));
        const QByteArray cell = matrix(1, { 1, 2 }, "notes",
            matrix(6, { 1, 1 }, "", doubles({ 5 })) + matrix(6, { 1, 1 }, "", doubles({ 6 })));
        file.write(level5Header() + compressed(fea) + cell);
        file.close();
        const Result<Dataset> loaded = loadMat(path);
        QVERIFY2(loaded.ok(), qPrintable(loaded.ok() ? QString() : loaded.error()));
        QCOMPARE(loaded->X.cols(), 2);
        QCOMPARE(loaded->X.rows(), 2);
    }

    // The stream check inflates a numeric variable only through its data: a matrix padded with
    // a megabyte of zeros after its data (a zip bomb behind a 2 x 2 'fea' would be gigabytes),
    // whose stream is damaged only at its end, loads, because neither the check nor matio reads
    // that far. Inflating to the end found the damaged checksum.
    void inflatesOnlyWhatTheVariableNeeds()
    {
        const QString path = m_dir.filePath(QStringLiteral("padded.mat"));
        QByteArray stream = compressed(matrix(
            6, { 2, 2 }, "fea", doubles({ 1, 2, 3, 4 }) + element(1, QByteArray(1 << 20, 0))));
        for (qsizetype i = stream.size() - 4; i < stream.size(); ++i) // the Adler-32 at its end
            stream[i] = char(~stream[i]);
        QFile file(path);
        QVERIFY(file.open(QIODevice::WriteOnly | QIODevice::Truncate));
        file.write(level5Header() + stream);
        file.close();
        const Result<Dataset> loaded = loadMat(path);
        QVERIFY2(loaded.ok(), qPrintable(loaded.ok() ? QString() : loaded.error()));
        QCOMPARE(loaded->X.cols(), 2);
        QCOMPARE(loaded->X(1, 1), Scalar(4));
    }

    // A version 4 file written big-endian (type 1000: M = 1), as SPARC and PowerPC MATLABs did,
    // still loads: the order check refuses only a header read in the order its M does not name.
    void bigEndianVersion4Loads()
    {
        auto be32 = [](std::uint32_t v) {
            QByteArray b = le32(v);
            std::reverse(b.begin(), b.end());
            return b;
        };
        QByteArray bytes
            = be32(1000) + be32(2) + be32(2) + be32(0) + be32(4) + QByteArray("fea", 4);
        for (double v : { 1.0, 2.0, 3.0, 4.0 }) {
            QByteArray b(reinterpret_cast<const char*>(&v), sizeof v);
            std::reverse(b.begin(), b.end());
            bytes += b;
        }
        const QString path = m_dir.filePath(QStringLiteral("big_endian_v4.mat"));
        QFile file(path);
        QVERIFY(file.open(QIODevice::WriteOnly | QIODevice::Truncate));
        file.write(bytes);
        file.close();
        MatLoadOptions options;
        options.height = 1;
        const Result<Dataset> loaded = loadMat(path, options);
        QVERIFY2(loaded.ok(), qPrintable(loaded.ok() ? QString() : loaded.error()));
        // Two samples (rows of the 2 x 2 file, column-major: 1 3 / 2 4) of two features each.
        QCOMPARE(loaded->X.cols(), 2);
        QCOMPARE(double(loaded->X(0, 0)), 1.0);
        QCOMPARE(double(loaded->X(1, 0)), 3.0);
        QCOMPARE(double(loaded->X(0, 1)), 2.0);
        QCOMPARE(double(loaded->X(1, 1)), 4.0);
    }

    // A struct as matio writes it (small-form field name length, long-form names), compressed or
    // not, passes the structure walk beside the data.
    void honestStructLoads_data()
    {
        QTest::addColumn<int>("compression");
        QTest::newRow("plain") << int(MAT_COMPRESSION_NONE);
        QTest::newRow("zlib") << int(MAT_COMPRESSION_ZLIB);
    }

    void honestStructLoads()
    {
        QFETCH(int, compression);
        const QString path = m_dir.filePath(QStringLiteral("struct_%1.mat").arg(compression));
        mat_t* mat = Mat_CreateVer(QFile::encodeName(path).constData(), nullptr, MAT_FT_MAT5);
        QVERIFY(mat);
        std::array<std::size_t, 2> one { 1, 1 };
        const char* fieldNames[] = { "name", "longer_field_name" };
        matvar_t* info = Mat_VarCreateStruct("info", 2, one.data(), fieldNames, 2);
        char text[] = "abc";
        std::array<std::size_t, 2> textDims { 1, 3 };
        double size = 2;
        Mat_VarSetStructFieldByName(info, "name", 0,
            Mat_VarCreate(nullptr, MAT_C_CHAR, MAT_T_UINT8, 2, textDims.data(), text, 0));
        Mat_VarSetStructFieldByName(info, "longer_field_name", 0,
            Mat_VarCreate(nullptr, MAT_C_DOUBLE, MAT_T_DOUBLE, 2, one.data(), &size, 0));
        std::array<double, 4> values { 1, 2, 3, 4 };
        std::array<std::size_t, 2> dims { 2, 2 };
        matvar_t* fea
            = Mat_VarCreate("fea", MAT_C_DOUBLE, MAT_T_DOUBLE, 2, dims.data(), values.data(), 0);
        const auto how = matio_compression(compression);
        const bool written = Mat_VarWrite(mat, info, how) == 0 && Mat_VarWrite(mat, fea, how) == 0;
        Mat_VarFree(info);
        Mat_VarFree(fea);
        Mat_Close(mat);
        QVERIFY(written);
        const Result<Dataset> loaded = loadMat(path);
        QVERIFY2(loaded.ok(), qPrintable(loaded.ok() ? QString() : loaded.error()));
        QCOMPARE(loaded->X.cols(), 2);
    }

    // Every cut of a real file is refused or loads; none crashes (the ASan build runs this).
    void everyTruncation()
    {
        const QString path = m_dir.filePath(QStringLiteral("whole.mat"));
        QFile file(path);
        QVERIFY(file.open(QIODevice::WriteOnly | QIODevice::Truncate));
        const QByteArray head = level5Header()
            + compressed(
                matrix(6, { 3, 4 }, "fea", doubles({ 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12 })));
        const QByteArray whole = head + matrix(6, { 3, 1 }, "gnd", doubles({ 1, 2, 1 }));
        file.write(whole);
        file.close();
        QVERIFY(loadMat(path).ok());
        for (qsizetype cut = 0; cut < whole.size(); ++cut) {
            QVERIFY(file.open(QIODevice::WriteOnly | QIODevice::Truncate));
            file.write(whole.left(cut));
            file.close();
            const Result<Dataset> loaded = loadMat(path);
            if (cut == head.size()) { // exactly the data without its labels: a whole file
                QVERIFY(loaded.ok() && !loaded->hasLabels());
                continue;
            }
            QVERIFY2(!loaded.ok(), qPrintable(QStringLiteral("cut at %1 bytes loaded").arg(cut)));
            QVERIFY(!loaded.error().isEmpty());
        }
    }

    // libhdf5's error stack reached the user as twelve frames of source files and line numbers
    // (a damaged MAT 7.3 file from fuzzing); it now reads as the failed call and the deepest
    // reason, and matio's own messages stay as they are.
    void hdf5ErrorStackIsOneLine()
    {
        matio::MatioMessages log;
        Mat_Critical("Could not read the header");
        Mat_Critical("HDF5 error #000 in H5Dread()\n      file : ../../../src/H5Dio.c:186\n"
                     "      major: Dataset\n      minor: Read failed");
        Mat_Critical("HDF5 error #001 in H5D__read()\n      file : ../../../src/H5Dio.c:584\n"
                     "      major: Dataset\n      minor: Read failed");
        Mat_Critical("HDF5 error #002 in H5FD_read()\n      file : ../../../src/H5FDint.c:182\n"
                     "      major: Invalid arguments to routine\n      minor: Address overflowed");
        QCOMPARE(log.count(), 4);
        QCOMPARE(log.since(0),
            QStringLiteral(
                "Could not read the header; HDF5: H5Dread() failed: Address overflowed"));
        QCOMPARE(log.since(1), QStringLiteral("HDF5: H5Dread() failed: Address overflowed"));
        QCOMPARE(log.since(4), QString());
    }

    // A 3,408-byte MAT 7.3 file from fuzz_mat: libhdf5 zeroed a 4 GB conversion buffer (4-9 s of
    // system time, a 4.2 GB resident set) before its read failed. The helper now caps its
    // address space at what the declared variables need plus a margin, so the allocation fails
    // at once; the reason libhdf5 gives then says so (without the cap: "Address overflowed").
    void hdf5HelperCapsItsAddressSpace()
    {
#if defined(FACET_SANITIZE_ADDRESS) || defined(FACET_SANITIZE_THREAD)
        QSKIP("the sanitizers' shadow memory rules out an address-space cap");
#endif
        // The file as its non-zero runs of bytes (offset, base64) over 3,408 zero bytes.
        const std::pair<int, const char*> runs[] = {
            { 0,
                "TUFUTEFCIDcuMyBNQVQtZmlsZSwgUGxhdGZvcm06IHg4Nl82NC1wYy1saW51eC1n"
                "bnUsIENyZWF0ZWQgYnk6IGxpYm1hdGlvIHYxLjUuMjMgb24gV2VkIE5vdiAyNSAw"
                "NDoxNDozMCAyMDI2CiBIREY1IAAgICAgICAgIAACSU0=" },
            { 512,
                "iUhERg0KGgoAAAAAAAgIAAQAEAAAAAAAAAIAAAAAAAD//////////1ANAAAAAAAA"
                "//////////8=" },
            { 576,
                "YAAAAAAAAAABAAAAAAAAAIgAAAAAAAAAqAIAAAAAAAABAAEAAQAAABgAAAAAAAAA"
                "EQAQAAAAAACIAAAAAAAAAKgCAAAAAAAAVFJFRQAAAQD/////////////////////" },
            { 680, "MAQAAAAAAAAQ" },
            { 1192, "SEVBUAAAAABYAAAAAAAAABgAAAAAAAAAyAI=" },
            { 1232, "ZmVhAAAAAABnbmQAAAAAAAEAAAAAAAAAQA==" },
            { 1312,
                "AQAHAAEAAAAAAQAAAAAAAAEAKAAAAAAAAQIBAAAAAAACAAAAAAAAAAIAAAAAAAAA"
                "AgAAAAAAAAACAAAAAAAAAAMAGAABAAAAESA/AAgAAAAAAEAANAsANP8DAAAAAAAA"
                "BQAIAAEAAAACAgIBAAAAAAgAGAAAAAAAAwEgCwAAAAAAACA=" },
            { 1456,
                "EgAIAAAAAAABAAAApmAGawwAMAAACgAAAQANAAgACABNQVRMQUJfY2xhc3MAAAAA"
                "EwAAAAYAAAABAAAAAAAAAGRvdWJsZQAAAAAw" },
            { 1584, "U05PRAEAAgAIAAAAAAAAACAD" },
            { 1632, "EAAAAAAAAAB4BQ==" },
            { 1774, "Bw==" },
            { 1912,
                "AQAHAAEAAAAAAQAAAAAAAAEAKAAAAAAAAQIBAAAAAAABAAAAAAAAAAIAAAAAAAAA"
                "AQAAAAAAAAACAAAAAAAAAAMAGAABAAAAESA/AAgA////BEAANAsANP8DAAAAAAAA"
                "BQAIAAEAAAACAgIBAAAAAAgAGAAAAAAAAwFACwAAAAAAABA=" },
            { 2056,
                "EgAIAAAAAAABAAAApmAGawwAMAAAAAAAAQANAAgACABNQVRMQUJfY2xhc3MAAAAA"
                "EwAAAAYAAAABAAAAAAAAAGRvdWJsZQAAAAAw" },
            { 3366, "8D8AAAAAAAAAQAAAAAAAAAhAAAAAAAAAEEAAAAAAAADwPwAAAAAAAABA" },
        };
        QByteArray bytes(3408, 0);
        for (const auto& [offset, data] : runs) {
            const QByteArray run = QByteArray::fromBase64(data);
            bytes.replace(offset, run.size(), run);
        }
        QCOMPARE(bytes.size(), 3408);
        const QString path = m_dir.filePath(QStringLiteral("fuzz_slow_73.mat"));
        QFile file(path);
        QVERIFY(file.open(QIODevice::WriteOnly | QIODevice::Truncate));
        file.write(bytes);
        file.close();
        const Result<Dataset> loaded = loadMat(path);
        QVERIFY(!loaded.ok());
        QVERIFY2(loaded.error().contains(QStringLiteral("No space available for allocation")),
            qPrintable(loaded.error()));
    }

private:
    QTemporaryDir m_dir;
};

#include "facet_test.h"
FACET_TEST_GUILESS_MAIN(TestMatHostile)
#include "test_mat_hostile.moc"
