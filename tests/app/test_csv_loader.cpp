// SPDX-License-Identifier: GPL-3.0-or-later
// Image lists: `path,label` rows, relative to the list, with or without a header, quoted
// fields, tabs; bad rows are skipped with a note or are a clear error.
#include "data/csv_loader.h"
#include "data/dataset_source.h"
#include "image_fixtures.h"

#include <QTemporaryDir>
#include <QtTest>

using namespace facet;
using namespace Qt::StringLiterals;

class TestCsvLoader : public QObject {
    Q_OBJECT

    QTemporaryDir m_dir;

    QString file(const QString& relative) const { return m_dir.filePath(relative); }
    void writeImage(const QString& relative, int seed)
    {
        QVERIFY(fixtures::writeBytes(
            file(relative), fixtures::encoded(fixtures::pattern(5, 4, seed), "PNG")));
    }
    QString writeList(const QString& name, const QByteArray& text)
    {
        fixtures::writeBytes(file(name), text);
        return file(name);
    }

private slots:
    void initTestCase()
    {
        QVERIFY(m_dir.isValid());
        writeImage(u"img/a.png"_s, 1);
        writeImage(u"img/b.png"_s, 2);
        writeImage(u"img/with, comma.png"_s, 3);
        writeImage(u"img/d"_s, 4); // no extension: recognised by content
    }

    void headerQuotesAndRelativePaths()
    {
        const QString list = writeList(u"lists/faces.csv"_s,
            "path,label\n"
            "../img/a.png,alice\n"
            "\"../img/with, comma.png\",\"bob \"\"the\"\" builder\"\n"
            "\n"
            "# a comment row\n"
                + file(u"img/b.png"_s).toUtf8() + ",alice\r\n../img/d,bob \"\"the\"\" builder\n");
        QCOMPARE(datasetKind(list), DatasetKind::ImageList);
        const Result<ImageSet> set = loadImageList(list);
        QVERIFY2(set.ok(), qPrintable(set.ok() ? QString() : set.error()));
        QCOMPARE(set->size(), 4);
        QCOMPARE(set->classNames,
            (QStringList { u"alice"_s, u"bob \"\"the\"\" builder"_s, u"bob \"the\" builder"_s }));
        QCOMPARE(set->labels, (std::vector<int> { 0, 2, 0, 1 }));
        QVERIFY(set->notes.join(u' ').contains(u"header"_s));
    }

    void tabsAndNumericLabels()
    {
        const QString list = writeList(u"t.tsv"_s, "img/a.png\t10\nimg/b.png\t2\nimg/d\t1\n");
        DatasetRequest request;
        request.spec = list;
        request.prepare = { false, false };
        const Result<Dataset> data = loadDataset(request);
        QVERIFY2(data.ok(), qPrintable(data.ok() ? QString() : data.error()));
        QCOMPARE(data->classNames, (QStringList { u"1"_s, u"2"_s, u"10"_s })); // by value
        QCOMPARE(data->labels, (std::vector<int> { 2, 1, 0 }));
        QCOMPARE(data->height, 4);
        QCOMPARE(data->width, 5);
    }

    void pathsOnlyAreUnlabelled()
    {
        const QString list = writeList(u"plain.txt"_s, "\xEF\xBB\xBFimg/a.png\nimg/b.png\n");
        const Result<ImageSet> set = loadImageList(list);
        QVERIFY2(set.ok(), qPrintable(set.ok() ? QString() : set.error()));
        QCOMPARE(set->size(), 2);
        QVERIFY(!set->hasLabels());
    }

    void missingAndDamagedRowsAreSkipped()
    {
        QVERIFY(fixtures::writeBytes(file(u"img/broken.png"_s), "\x89PNG\r\n\x1a\n-broken"));
        const QString list
            = writeList(u"some.csv"_s, "img/a.png,x\nimg/nothere.png,y\nimg/broken.png,y\n");
        const Result<ImageSet> set = loadImageList(list);
        QVERIFY(set.ok());
        QCOMPARE(set->size(), 1);
        const QString notes = set->notes.join(u' ');
        QVERIFY2(notes.contains(u"line 2 (img/nothere.png): file not found"_s), qPrintable(notes));
        QVERIFY2(notes.contains(u"line 3 (img/broken.png)"_s), qPrintable(notes));

        const QString none = writeList(u"none.csv"_s, "gone1.png,a\ngone2.png,b\n");
        const Result<ImageSet> empty = loadImageList(none);
        QVERIFY(!empty.ok());
        QVERIFY2(
            empty.error().contains(u"none of the 2 listed images"_s), qPrintable(empty.error()));
    }

    void malformedListsAreErrors_data()
    {
        QTest::addColumn<QByteArray>("text");
        QTest::addColumn<QString>("needle");
        QTest::newRow("three fields") << QByteArray("img/a.png,1,2\n") << u"line 1 has 3 fields"_s;
        QTest::newRow("label missing")
            << QByteArray("img/a.png,1\nimg/b.png\n") << u"line 2 has no label"_s;
        QTest::newRow("label extra")
            << QByteArray("img/a.png\nimg/b.png,1\n") << u"line 2 has a label"_s;
        QTest::newRow("open quote") << QByteArray("\"img/a.png,1\n") << u"not closed"_s;
        QTest::newRow("header only") << QByteArray("file,class\n") << u"no rows"_s;
        QTest::newRow("empty path") << QByteArray(",1\n") << u"empty path"_s;
        QTest::newRow("binary") << QByteArray("img/a.png\0,1\n", 13) << u"binary"_s;
    }
    void malformedListsAreErrors()
    {
        QFETCH(QByteArray, text);
        QFETCH(QString, needle);
        const Result<ImageSet> set = loadImageList(writeList(u"bad.csv"_s, text));
        QVERIFY(!set.ok());
        QVERIFY2(set.error().contains(needle), qPrintable(set.error()));
    }

    void throughLoadDatasetErrorsNameTheForms()
    {
        DatasetRequest request;
        request.spec = writeList(u"table.csv"_s, "1,2,3\n");
        const Result<Dataset> data = loadDataset(request);
        QVERIFY(!data.ok());
        QVERIFY(data.error().contains(u".mat"_s));
        QVERIFY(data.error().contains(u"builtin:swimmer"_s));
    }
};

#include "facet_test.h"
FACET_TEST_GUILESS_MAIN(TestCsvLoader)
#include "test_csv_loader.moc"
