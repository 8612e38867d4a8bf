// SPDX-License-Identifier: GPL-3.0-or-later
// Image lists from strangers (RELIABILITY.md): encodings, sizes and rows naming things that are
// not image files (devices, folders, FIFOs, the list itself, paths leaving the list's folder)
// give a clear error or a skipped row with a note, never a hang or a crash.
#include "data/csv_loader.h"
#include "image_fixtures.h"

#include <QDir>
#include <QFile>
#include <QTemporaryDir>
#include <QtTest>

#include <sys/stat.h>

using namespace facet;
using namespace Qt::StringLiterals;

class TestCsvHostile : public QObject {
    Q_OBJECT

    QTemporaryDir m_dir;

    QString file(const QString& relative) const { return m_dir.filePath(relative); }
    QString writeList(const QString& name, const QByteArray& text)
    {
        fixtures::writeBytes(file(name), text);
        return file(name);
    }

private slots:
    void initTestCase()
    {
        QVERIFY(m_dir.isValid());
        QVERIFY(QDir().mkpath(file(u"lists/inner"_s)));
        QVERIFY(fixtures::writeBytes(
            file(u"good.png"_s), fixtures::encoded(fixtures::pattern(5, 4, 1), "PNG")));
    }

    void badEncodingsAreErrors_data()
    {
        QTest::addColumn<QByteArray>("text");
        QTest::addColumn<QString>("needle");
        QTest::newRow("zero-length") << QByteArray() << u"no rows"_s;
        QTest::newRow("latin-1") << QByteArray("caf\xE9.png,1\n") << u"not UTF-8"_s;
        QTest::newRow("utf-16") << QByteArray("\xFF\xFEg\0o\0o\0d\0", 10) << u"binary"_s;
        QTest::newRow("blank lines only") << QByteArray("\n\n\r\n# nothing\n") << u"no rows"_s;
    }
    void badEncodingsAreErrors()
    {
        QFETCH(QByteArray, text);
        QFETCH(QString, needle);
        const Result<ImageSet> set = loadImageList(writeList(u"bad.csv"_s, text));
        QVERIFY(!set.ok());
        QVERIFY2(set.error().startsWith(u"bad.csv"_s) || set.error().contains(u"bad.csv"_s),
            qPrintable(set.error()));
        QVERIFY2(set.error().contains(needle), qPrintable(set.error()));
    }

    // A list above 64 MiB is refused from its size, before it is read (a sparse file here).
    void hugeListIsRefusedUnread()
    {
        QFile huge(file(u"huge.csv"_s));
        QVERIFY(huge.open(QIODevice::WriteOnly));
        QVERIFY(huge.resize((qint64(64) << 20) + 1));
        huge.close();
        const Result<ImageSet> set = loadImageList(huge.fileName());
        QVERIFY(!set.ok());
        QVERIFY2(set.error().contains(u"too large"_s), qPrintable(set.error()));
    }

    // Rows naming a device, a folder, a FIFO (reading it would block forever), the list itself
    // and a missing file are skipped with a note; the one real image loads. Relative paths,
    // including ../, resolve against the list's folder, as the header documents; absolute paths
    // are taken as they are.
    void nonImageRowsAreSkipped()
    {
        const QString fifo = file(u"lists/fifo"_s);
        QCOMPARE(::mkfifo(QFile::encodeName(fifo).constData(), 0600), 0);
        const QString list = writeList(u"lists/inner/list.csv"_s,
            "/dev/zero,a\n"
            "..,a\n"
            "../fifo,a\n"
            "list.csv,a\n"
            "../../nothere.png,a\n"
            "../../good.png,b\n"
                + QFile::encodeName(file(u"good.png"_s)) + ",c\n");
        const Result<ImageSet> set = loadImageList(list);
        QVERIFY2(set.ok(), qPrintable(set.ok() ? QString() : set.error()));
        QCOMPARE(set->size(), 2);
        QCOMPARE(set->classNames, QStringList({ u"b"_s, u"c"_s }));
        const QString notes = set->notes.join(u' ');
        QVERIFY2(notes.contains(u"skipped 5 listed image(s)"_s), qPrintable(notes));
        QVERIFY2(notes.contains(u"line 4 (list.csv)"_s), qPrintable(notes));
    }
};

#include "facet_test.h"
FACET_TEST_GUILESS_MAIN(TestCsvHostile)
#include "test_csv_hostile.moc"
