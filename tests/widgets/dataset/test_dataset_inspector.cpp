// SPDX-License-Identifier: GPL-3.0-or-later
// The Dataset panel: classes and their sizes, thumbnails, and the pixel-order reload of .mat files.

#include "common/image_grid.h"
#include "dataset/dataset_inspector.h"
#include "folder_fixture.h"
#include "main_window/main_window.h"
#include "main_window_fixture.h"
#include "screenshot.h"
#include "test_data.h"

#include <QComboBox>
#include <QDir>
#include <QGroupBox>
#include <QSettings>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QtTest>

#include <memory>

using namespace facet;
using namespace facet::testing;

namespace {

QList<QPair<QString, int>> counts(std::initializer_list<QPair<QString, int>> rows)
{
    return QList<QPair<QString, int>>(rows);
}

} // namespace

class TestDatasetInspector : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void swimmerIsOneUnlabelledGroup();
    void gaussiansHaveThreeClassesAndNoImages();
    void aLabelledFolderIsGroupedByClass();
    void pixelOrderToggleTransposesOrl();
};

void TestDatasetInspector::initTestCase()
{
    useTestSettings(QStringLiteral("widgets_dataset_inspector"));
}

void TestDatasetInspector::swimmerIsOneUnlabelledGroup()
{
    auto window = makeWindow();
    QVERIFY(load(*window, QStringLiteral("builtin:swimmer")));
    DatasetInspector* inspector = window->datasetInspector();
    QVERIFY(inspector->isVisible()); // the Dataset tab is raised after a load
    QCOMPARE(inspector->classCounts(), counts({ { QStringLiteral("All images"), 256 } }));
    QVERIFY2(inspector->classesText().contains(QStringLiteral("unlabelled")),
        qPrintable(inspector->classesText()));
    const auto& sections = inspector->grid()->sections();
    QCOMPARE(sections.size(), 1);
    QVERIFY2(sections[0].title.contains(QStringLiteral("256")), qPrintable(sections[0].title));
    QCOMPARE(int(sections[0].tiles.size()), DatasetInspector::kMaxPerClass);
    QCOMPARE(sections[0].tiles[0].image.size(), QSize(32, 32));
    QVERIFY(!inspector->pixelOrderBox()->isVisible()); // not a .mat file
    QVERIFY(!inspector->noFaceGroup()->isVisible());
    saveScreenshot(*window, QStringLiteral("dataset_inspector_swimmer.png"));
}

void TestDatasetInspector::gaussiansHaveThreeClassesAndNoImages()
{
    auto window = makeWindow();
    QVERIFY(load(*window, QStringLiteral("builtin:gaussians")));
    DatasetInspector* inspector = window->datasetInspector();
    const auto& rows = inspector->classCounts();
    QCOMPARE(rows.size(), 3);
    int total = 0;
    for (const auto& row : rows) {
        QCOMPARE(row.second, 50);
        total += row.second;
    }
    QCOMPARE(total, 150);
    QVERIFY2(inspector->classesText().startsWith(QStringLiteral("3")),
        qPrintable(inspector->classesText()));
    QCOMPARE(inspector->grid()->tileCount(), 0); // 2-D points are no images
}

void TestDatasetInspector::aLabelledFolderIsGroupedByClass()
{
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    QVERIFY(fixtures::writeClassFolder(dir.path()));
    auto window = makeWindow();
    DatasetRequest request;
    request.spec = dir.path();
    QVERIFY(load(*window, request));
    DatasetInspector* inspector = window->datasetInspector();
    QCOMPARE(inspector->classCounts(),
        counts({ { QStringLiteral("a"), 3 }, { QStringLiteral("b"), 2 } }));
    const auto& sections = inspector->grid()->sections();
    QCOMPARE(sections.size(), 2);
    QCOMPARE(int(sections[0].tiles.size()), 3);
    QCOMPARE(int(sections[1].tiles.size()), 2);
    // No size asked: the files' own 30x40, upright.
    QCOMPARE(sections[0].tiles[0].image.size(),
        QSize(fixtures::kFolderImageWidth, fixtures::kFolderImageHeight));
}

void TestDatasetInspector::pixelOrderToggleTransposesOrl()
{
    const QString path = facetDataFile(QStringLiteral("ORL_32x32.mat"));
    FACET_REQUIRE_DATA(path);
    auto window = makeWindow();
    QVERIFY(load(*window, path));
    DatasetInspector* inspector = window->datasetInspector();
    QCOMPARE(inspector->classCounts().size(), 40);
    for (const auto& row : inspector->classCounts())
        QCOMPARE(row.second, 10);
    QComboBox* order = inspector->pixelOrderBox();
    QVERIFY(order->isVisible());
    QCOMPARE(PixelOrder(order->currentData().toInt()), PixelOrder::Auto);
    const auto before = window->dataset();
    const QImage thumbBefore = inspector->grid()->sections()[0].tiles[0].image;
    saveScreenshot(*window, QStringLiteral("dataset_inspector_orl.png"));

    // The last entry is row-major, the wrong order for this file: each image comes out transposed.
    QSignalSpy loaded(window.get(), &MainWindow::datasetLoaded);
    order->setFocus();
    QTest::keyClick(order, Qt::Key_End);
    QVERIFY(loaded.wait(kLoadTimeoutMs));
    QCOMPARE(window->datasetRequest().mat.pixelOrder, PixelOrder::RowMajor);
    QCOMPARE(PixelOrder(order->currentData().toInt()), PixelOrder::RowMajor);
    const auto after = window->dataset();
    QVERIFY(after != before);
    const int side = 32;
    for (int j : { 0, 123, 399 })
        for (int r = 0; r < side; ++r)
            for (int c = 0; c < side; ++c)
                QCOMPARE(after->X(r * side + c, j), before->X(c * side + r, j));
    const QImage thumbAfter = inspector->grid()->sections()[0].tiles[0].image;
    for (int r = 0; r < side; ++r)
        for (int c = 0; c < side; ++c)
            QCOMPARE(thumbAfter.pixel(c, r), thumbBefore.pixel(r, c));
    saveScreenshot(*window, QStringLiteral("dataset_inspector_orl_row_major.png"));
}

#include "facet_test.h"
FACET_TEST_MAIN(TestDatasetInspector)
#include "test_dataset_inspector.moc"
