// SPDX-License-Identifier: GPL-3.0-or-later
// The data elements of a Level 5 MAT-file against the array classes that hold them
// (RELIABILITY.md): a value element whose type tag is no MATLAB data type for its class, or
// whose byte count does not match the dimensions, is refused before a value is read (matio
// skipped such an element and handed back its uninitialized buffer as the data). And what
// scipy.io.savemat writes beside the data, a struct with short field names packed in their tag,
// loads. The files are built here byte by byte, as the writers lay them out.
#include "data/mat_loader.h"

#include <QFile>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QtTest>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <initializer_list>
#include <vector>

using namespace facet;

class TestMatElementTags : public QObject {
    Q_OBJECT

private:
    // The bytes of a Level 5 file, little-endian as scipy and MATLAB on x86 write them.
    static QByteArray le32(std::uint32_t v)
    {
        QByteArray b(4, '\0');
        for (int i = 0; i < 4; ++i)
            b[i] = char((v >> (8 * i)) & 0xFF);
        return b;
    }

    static QByteArray padTo8(QByteArray b)
    {
        while (b.size() % 8 != 0)
            b += '\0';
        return b;
    }

    // A data element with an 8-byte tag (type, byte count), its data padded to 8 bytes.
    static QByteArray longElement(std::uint32_t type, const QByteArray& data)
    {
        return le32(type) + le32(std::uint32_t(data.size())) + padTo8(data);
    }

    // The small data element format: byte count and type in one word, 4 bytes of data.
    static QByteArray smallElement(std::uint32_t type, const QByteArray& data)
    {
        return le32((std::uint32_t(data.size()) << 16) | type) + data.leftJustified(4, '\0');
    }

    // A name as scipy writes it: packed in its tag up to 4 bytes, an empty one as a long tag.
    static QByteArray nameElement(const QByteArray& name)
    {
        return !name.isEmpty() && name.size() <= 4 ? smallElement(1, name) : longElement(1, name);
    }

    static QByteArray fileHeader()
    {
        QByteArray h("MATLAB 5.0 MAT-file Platform: posix, written by Facet's element tag test");
        h = h.leftJustified(116, ' ');
        h += QByteArray(8, '\0'); // subsystem data offset
        h += QByteArray("\x00\x01IM", 4); // version 0x0100, little-endian
        return h;
    }

    // Array flags (class), dimensions and name: the subelements before a matrix's data.
    static QByteArray arrayHeader(
        std::uint32_t matClass, std::initializer_list<std::int32_t> dims, const QByteArray& name)
    {
        QByteArray dimensions;
        for (std::int32_t d : dims)
            dimensions += le32(std::uint32_t(d));
        return longElement(6, le32(matClass) + le32(0)) + longElement(5, dimensions)
            + nameElement(name);
    }

    static QByteArray matrixElement(const QByteArray& body) { return longElement(14, body); }

    // miCOMPRESSED: a zlib stream of one element, not padded.
    static QByteArray compressedElement(const QByteArray& element)
    {
        const QByteArray stream = qCompress(element).mid(4); // without Qt's length prefix
        return le32(15) + le32(std::uint32_t(stream.size())) + stream;
    }

    static QByteArray repeated(double value, int count)
    {
        QByteArray b;
        for (int i = 0; i < count; ++i)
            b += QByteArray(reinterpret_cast<const char*>(&value), sizeof value);
        return b;
    }

    // The 20 x 16 'fea' of the report, every value 7, as class double with its real part in a
    // data element of `type` holding `bytes` (2,560 bytes of doubles unless said otherwise).
    static QByteArray fea(std::uint32_t type, const QByteArray& data)
    {
        return matrixElement(arrayHeader(6, { 20, 16 }, "fea") + le32(type)
            + le32(std::uint32_t(data.size())) + padTo8(data));
    }

    // 'gnd': 20 labels, 1..4.
    static QByteArray gnd(std::uint32_t type = 9)
    {
        QByteArray labels;
        for (int i = 0; i < 20; ++i)
            labels += repeated(double(i % 4 + 1), 1);
        return matrixElement(arrayHeader(6, { 20, 1 }, "gnd") + le32(type)
            + le32(std::uint32_t(labels.size())) + labels);
    }

    // Where the data element of fea() starts in a file: after the header, the matrix tag and
    // the array header.
    static qsizetype feaDataAt() { return 128 + 8 + arrayHeader(6, { 20, 16 }, "fea").size(); }

    // {'opts': {'k': 5}} as scipy.io.savemat 1.10 writes it: a 1 x 1 struct whose field name
    // length (2) and names ("k\0") are packed in their tags, and whose field is an int64 scalar
    // with an empty name in a long tag.
    static QByteArray scipyStruct(const QList<QByteArray>& fields)
    {
        int length = 0;
        for (const QByteArray& f : fields)
            length = std::max(length, int(f.size()) + 1);
        QByteArray names;
        QByteArray values;
        for (const QByteArray& f : fields) {
            names += f.leftJustified(length, '\0');
            const qint64 five = 5;
            values += matrixElement(arrayHeader(14, { 1, 1 }, {})
                + longElement(12, QByteArray(reinterpret_cast<const char*>(&five), 8)));
        }
        const QByteArray lengthElement = smallElement(5, le32(std::uint32_t(length)));
        const QByteArray namesElement
            = names.size() <= 4 ? smallElement(1, names) : longElement(1, names);
        return matrixElement(
            arrayHeader(2, { 1, 1 }, "opts") + lengthElement + namesElement + values);
    }

    QString write(const QString& name, const QByteArray& bytes)
    {
        const QString path = m_dir.filePath(name);
        QFile file(path);
        if (!file.open(QIODevice::WriteOnly | QIODevice::Truncate))
            return {};
        file.write(bytes);
        return path;
    }

    QTemporaryDir m_dir;

private Q_SLOTS:
    void initTestCase() { QVERIFY(m_dir.isValid()); }

    // One row per type word that is no data type MATLAB writes for a double array's values:
    // unknown (0, 19, 99, 255, 1000), reserved (8, 10, 11), miMATRIX and miCOMPRESSED (14, 15)
    // and the text types only a char array holds (16..18). Before the check, every one loaded:
    // matio skipped the element and returned its buffer unfilled.
    void invalidTypeRefused_data()
    {
        QTest::addColumn<QByteArray>("bytes");
        QTest::addColumn<QStringList>("expected");
        const QByteArray doubles = repeated(7, 320);
        const QString at = QStringLiteral("byte %1").arg(feaDataAt());
        for (std::uint32_t type :
            { 0u, 8u, 10u, 11u, 14u, 15u, 16u, 17u, 18u, 19u, 99u, 255u, 1000u }) {
            QTest::addRow("type %u", type)
                << (fileHeader() + fea(type, doubles) + gnd())
                << QStringList { QStringLiteral("'fea'"), QStringLiteral("type %1").arg(type), at };
        }
        QTest::newRow("type 99, compressed")
            << (fileHeader() + compressedElement(fea(99, doubles)) + gnd())
            << QStringList { QStringLiteral("'fea'"), QStringLiteral("type 99"),
                   QStringLiteral("compressed") };
        QTest::newRow("type 0, compressed")
            << (fileHeader() + compressedElement(fea(0, doubles)) + gnd())
            << QStringList { QStringLiteral("'fea'"), QStringLiteral("type 0") };
        // A valid type in a class that cannot hold its values exactly.
        QTest::newRow("miINT64 in a double array")
            << (fileHeader() + fea(12, repeated(7, 320)) + gnd())
            << QStringList { QStringLiteral("'fea'"), QStringLiteral("type 12"), at };
        // One double more than 20 x 16: matio read 320 and ignored the rest.
        QTest::newRow("2,568 bytes for 320 doubles")
            << (fileHeader() + fea(9, repeated(7, 321)) + gnd())
            << QStringList { QStringLiteral("'fea'"), QStringLiteral("2568 bytes"),
                   QStringLiteral("2560"), at };
        QTest::newRow("321 bytes of miUINT8 for 320 values")
            << (fileHeader() + fea(2, QByteArray(321, '\x07')) + gnd())
            << QStringList { QStringLiteral("'fea'"), QStringLiteral("321 bytes"), at };
        QTest::newRow("labels of type 99")
            << (fileHeader() + fea(9, doubles) + gnd(99))
            << QStringList { QStringLiteral("'gnd'"), QStringLiteral("type 99") };
    }

    void invalidTypeRefused()
    {
        QFETCH(QByteArray, bytes);
        QFETCH(QStringList, expected);
        const QString path = write(
            QStringLiteral("%1.mat").arg(
                QString::fromLatin1(QTest::currentDataTag())
                    .replace(QRegularExpression(QStringLiteral("\\W+")), QStringLiteral("_"))),
            bytes);
        QVERIFY(!path.isEmpty());
        const Result<Dataset> loaded = loadMat(path);
        if (loaded.ok())
            QFAIL(qPrintable(QStringLiteral("loaded; first value %1, range %2..%3")
                                 .arg(double(loaded->X(0, 0)))
                                 .arg(double(loaded->X.minCoeff()))
                                 .arg(double(loaded->X.maxCoeff()))));
        QVERIFY2(loaded.error().contains(QFileInfo(path).fileName()), qPrintable(loaded.error()));
        for (const QString& needle : expected)
            QVERIFY2(loaded.error().contains(needle), qPrintable(loaded.error()));
        // The warm start's reader takes the same path to the values.
        const QString variable = expected.front().mid(1, 3);
        const auto matrices = readMatMatrices(path, { variable });
        QVERIFY2(!matrices.ok(), "readMatMatrices read the damaged variable");
        QVERIFY2(matrices.error().contains(expected.at(1)), qPrintable(matrices.error()));
        qInfo().noquote() << loaded.error();
    }

    // What MATLAB writes and the check must keep: a double array's values in the smallest type
    // that holds them, a single array's in a smaller integer type, an integer class in its own.
    void storedTypesLoad_data()
    {
        QTest::addColumn<uint>("matClass");
        QTest::addColumn<uint>("type");
        QTest::addColumn<int>("width");
        const struct {
            const char* name;
            uint matClass, type;
            int width;
        } rows[] = { { "double as miINT8", 6, 1, 1 }, { "double as miUINT8", 6, 2, 1 },
            { "double as miINT16", 6, 3, 2 }, { "double as miUINT16", 6, 4, 2 },
            { "double as miINT32", 6, 5, 4 }, { "double as miUINT32", 6, 6, 4 },
            { "double as miSINGLE", 6, 7, 4 }, { "double as miDOUBLE", 6, 9, 8 },
            { "single as miUINT8", 7, 2, 1 }, { "single as miSINGLE", 7, 7, 4 },
            { "uint8 as miUINT8", 9, 2, 1 }, { "int16 as miINT16", 10, 3, 2 },
            { "uint64 as miUINT64", 15, 13, 8 } };
        for (const auto& row : rows)
            QTest::newRow(row.name) << row.matClass << row.type << row.width;
    }

    void storedTypesLoad()
    {
        QFETCH(uint, matClass);
        QFETCH(uint, type);
        QFETCH(int, width);
        QByteArray seven;
        for (int i = 0; i < 320; ++i) {
            QByteArray value(width, '\0');
            if (type == 7) {
                const float f = 7;
                std::memcpy(value.data(), &f, sizeof f);
            } else if (type == 9) {
                const double d = 7;
                std::memcpy(value.data(), &d, sizeof d);
            } else {
                value[0] = 7; // little-endian integers
            }
            seven += value;
        }
        const QByteArray body = arrayHeader(matClass, { 20, 16 }, "fea") + longElement(type, seven);
        const QString path = write(QStringLiteral("stored_%1_%2.mat").arg(matClass).arg(type),
            fileHeader() + matrixElement(body) + gnd());
        const Result<Dataset> loaded = loadMat(path);
        QVERIFY2(loaded.ok(), qPrintable(loaded.ok() ? QString() : loaded.error()));
        QCOMPARE(loaded->X.size(), Eigen::Index(320));
        QCOMPARE(double(loaded->X.minCoeff()), 7.0);
        QCOMPARE(double(loaded->X.maxCoeff()), 7.0);
    }

    // A variable Facet does not read is stepped over by its size, whatever its data elements
    // say: only the variables read are held to the data rules.
    void unreadVariableIsNotChecked()
    {
        const QByteArray junk = matrixElement(
            arrayHeader(6, { 2, 2 }, "junk") + le32(99) + le32(32) + repeated(1, 4));
        const QString path = write(QStringLiteral("unread_junk.mat"),
            fileHeader() + junk + fea(9, repeated(7, 320)) + gnd());
        const Result<Dataset> loaded = loadMat(path);
        QVERIFY2(loaded.ok(), qPrintable(loaded.ok() ? QString() : loaded.error()));
        QCOMPARE(double(loaded->X.maxCoeff()), 7.0);
    }

    // scipy.io.savemat({'fea': ..., 'gnd': ..., 'opts': {'k': 5}}), with and without
    // do_compression: refused as "damaged struct field names at byte 56" before.
    void scipyStructLoads_data()
    {
        QTest::addColumn<bool>("compress");
        QTest::addColumn<QList<QByteArray>>("fields");
        const QList<QByteArray> one { "k" };
        const QList<QByteArray> two { "k", "m" }; // "k\0m\0": still packed in the tag
        const QList<QByteArray> long_ { "k", "iterations" }; // names in a long element
        QTest::newRow("opts.k") << false << one;
        QTest::newRow("opts.k, compressed") << true << one;
        QTest::newRow("opts.k and opts.m") << false << two;
        QTest::newRow("opts.k and opts.m, compressed") << true << two;
        QTest::newRow("long field name") << false << long_;
        QTest::newRow("long field name, compressed") << true << long_;
    }

    void scipyStructLoads()
    {
        QFETCH(bool, compress);
        QFETCH(QList<QByteArray>, fields);
        QByteArray bytes = fileHeader();
        for (const QByteArray& element : { fea(9, repeated(7, 320)), gnd(), scipyStruct(fields) })
            bytes += compress ? compressedElement(element) : element;
        const QString path = write(QStringLiteral("savemat_%1_%2.mat")
                                       .arg(compress)
                                       .arg(fields.size() * 10 + fields.last().size()),
            bytes);
        const Result<Dataset> loaded = loadMat(path);
        QVERIFY2(loaded.ok(), qPrintable(loaded.ok() ? QString() : loaded.error()));
        QCOMPARE(loaded->X.rows(), Eigen::Index(16));
        QCOMPARE(loaded->X.cols(), Eigen::Index(20));
        QCOMPARE(double(loaded->X.minCoeff()), 7.0);
        QCOMPARE(double(loaded->X.maxCoeff()), 7.0);
        QCOMPARE(loaded->classCount(), 4);
        const auto matrices = readMatMatrices(path, { QStringLiteral("gnd") });
        QVERIFY2(matrices.ok(), qPrintable(matrices.ok() ? QString() : matrices.error()));
        QCOMPARE((*matrices)[0](3, 0), 4.0);
    }
};

#include "facet_test.h"
FACET_TEST_GUILESS_MAIN(TestMatElementTags)
#include "test_mat_element_tags.moc"
