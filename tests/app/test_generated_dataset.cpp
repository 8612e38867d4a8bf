// SPDX-License-Identifier: GPL-3.0-or-later
// gen:NxM, the bench's generated low-rank set, as a dataset of run, sweep and the GUI.

#include "data/dataset_source.h"

#include <QtTest>

using namespace facet;

class TestGeneratedDataset : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void loadsLikeTheBenchSet()
    {
        DatasetRequest request;
        request.spec = QStringLiteral("gen:300x64");
        QCOMPARE(datasetKind(request.spec), DatasetKind::Builtin);
        const Result<Dataset> a = loadDataset(request);
        QVERIFY2(a, qPrintable(a ? QString() : a.error()));
        QCOMPARE(a->samples(), Eigen::Index(300));
        QCOMPARE(a->features(), Eigen::Index(64));
        QCOMPARE(a->height, 8); // 64 = 8 x 8: drawn as tiles
        QCOMPARE(a->width, 8);
        QCOMPARE(a->classCount(), 10);
        QCOMPARE(int(a->labels.size()), 300);
        QVERIFY(a->X.minCoeff() >= 0);
        QVERIFY(a->X.maxCoeff() <= 1);
        const Result<Dataset> b = loadDataset(request);
        QVERIFY(b && b->X == a->X); // deterministic

        request.spec = QStringLiteral("GEN:50x30");
        const Result<Dataset> flat = loadDataset(request);
        QVERIFY2(flat, qPrintable(flat ? QString() : flat.error()));
        QCOMPARE(flat->height, 1); // 30 is not a square
        QCOMPARE(flat->width, 30);
    }
    void badSizesAreRefused_data()
    {
        QTest::addColumn<QString>("spec");
        QTest::newRow("zero") << QStringLiteral("gen:0x5");
        QTest::newRow("no size") << QStringLiteral("gen:");
        QTest::newRow("letters") << QStringLiteral("gen:axb");
        QTest::newRow("too large") << QStringLiteral("gen:100000000x100000");
    }
    void badSizesAreRefused()
    {
        QFETCH(QString, spec);
        DatasetRequest request;
        request.spec = spec;
        const Result<Dataset> data = loadDataset(request);
        QVERIFY(!data);
        QVERIFY2(data.error().contains(QStringLiteral("gen:")), qPrintable(data.error()));
    }
};

#include "facet_test.h"
FACET_TEST_GUILESS_MAIN(TestGeneratedDataset)
#include "test_generated_dataset.moc"
