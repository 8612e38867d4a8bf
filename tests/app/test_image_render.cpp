// SPDX-License-Identifier: GPL-3.0-or-later
// Columns become upright images (row r of the picture is values r * w .. r * w + w - 1), and the
// mosaic lays tiles out left to right, top to bottom.
#include "data/image_render.h"

#include <QtTest>

#include <limits>

using namespace facet;

class TestImageRender : public QObject {
    Q_OBJECT

private slots:
    void orientation()
    {
        // 2 high x 3 wide: only the top-left pixel is bright, the one to its right mid.
        Vector column = Vector::Zero(6);
        column(0) = 1;
        column(1) = 0.5;
        const QImage image = columnToImage(column, 2, 3);
        QCOMPARE(image.format(), QImage::Format_Grayscale8);
        QCOMPARE(image.width(), 3);
        QCOMPARE(image.height(), 2);
        QCOMPARE(qGray(image.pixel(0, 0)), 255);
        QCOMPARE(qGray(image.pixel(1, 0)), 128);
        QCOMPARE(qGray(image.pixel(0, 1)), 0);
        QCOMPARE(qGray(image.pixel(2, 1)), 0);
    }

    void constantAndNonFinite()
    {
        const QImage flat = columnToImage(Vector::Constant(4, 3.0), 2, 2);
        for (int y = 0; y < 2; ++y)
            for (int x = 0; x < 2; ++x)
                QCOMPARE(qGray(flat.pixel(x, y)), 128);

        Vector holes(4);
        holes << std::numeric_limits<Scalar>::quiet_NaN(), 2, -2,
            std::numeric_limits<Scalar>::infinity();
        const QImage image = columnToImage(holes, 2, 2);
        QCOMPARE(qGray(image.pixel(0, 0)), 128); // NaN drawn as 0, half way from -2 to 2
        QCOMPARE(qGray(image.pixel(1, 0)), 255);
        QCOMPARE(qGray(image.pixel(0, 1)), 0);
        QCOMPARE(qGray(image.pixel(1, 1)), 128);
    }

    void signedScale()
    {
        Vector column(3);
        column << -2, 0, 1;
        const QImage image = columnToImage(column, 1, 3, ImageScaling::Signed);
        QCOMPARE(image.format(), QImage::Format_RGB32);
        const QColor negative = image.pixelColor(0, 0), zero = image.pixelColor(1, 0),
                     positive = image.pixelColor(2, 0);
        QVERIFY(negative.blue() > negative.red());
        QCOMPARE(zero, QColor(Qt::white));
        QVERIFY(positive.red() > positive.blue());
        QVERIFY(positive.blue() > 100); // half of |max|: lighter than the full red
    }

    void mosaic()
    {
        // 5 tiles of 4 high x 3 wide, 2 per row, zoom 2, gap 1: 3 rows of tiles.
        Matrix M = Matrix::Zero(12, 5);
        for (int t = 0; t < 5; ++t)
            M(0, t) = 1; // each tile's top-left pixel
        const QImage image = imageMosaic(M, 4, 3, 2, 2, 1);
        QCOMPARE(image.width(), 2 * 6 + 1);
        QCOMPARE(image.height(), 3 * 8 + 2);
        QCOMPARE(qGray(image.pixel(0, 0)), 255);
        QCOMPARE(qGray(image.pixel(1, 1)), 255); // zoomed: a 2x2 block
        QCOMPARE(qGray(image.pixel(2, 0)), 0);
        QCOMPARE(qGray(image.pixel(7, 0)), 255); // second tile starts after 6 pixels + gap
        QCOMPARE(qGray(image.pixel(0, 9)), 255); // second row of tiles
        QCOMPARE(qGray(image.pixel(6, 0)), 255); // the gap is white
        QCOMPARE(qGray(image.pixel(12, 20)), 255); // the empty sixth slot stays background

        QVERIFY(imageMosaic(Matrix(12, 0), 4, 3, 2).isNull());
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, imageMosaic(M, 5, 3, 2));
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, columnToImage(Vector::Zero(5), 2, 3));
    }
};

#include "facet_test.h"
FACET_TEST_GUILESS_MAIN(TestImageRender)
#include "test_image_render.moc"
