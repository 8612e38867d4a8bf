// SPDX-License-Identifier: GPL-3.0-or-later
// Swimmer: every image is exactly the torso plus its four limbs, and the 17 parts are linearly
// independent, so the set has the unique parts-based factorization NMF is tested against.
#include "data/dataset.h"
#include "data/synthetic.h"

#include <QtTest>

#include <Eigen/LU>

#include <set>
#include <vector>

using namespace facet;

class TestSynthetic : public QObject {
    Q_OBJECT

private slots:
    void shape()
    {
        const Dataset swimmer = makeSwimmer();
        QCOMPARE(int(swimmer.samples()), 256);
        QCOMPARE(int(swimmer.features()), 1024);
        QCOMPARE(swimmer.height, 32);
        QCOMPARE(swimmer.width, 32);
        QVERIFY(!swimmer.hasLabels());
        QCOMPARE(swimmer.source, QStringLiteral("builtin:swimmer"));
        QVERIFY((swimmer.X.array() == 0 || swimmer.X.array() == 1).all());
    }

    void partsReconstructEveryImage()
    {
        const Dataset swimmer = makeSwimmer();
        const Matrix parts = swimmerParts();
        QCOMPARE(int(parts.rows()), 1024);
        QCOMPARE(int(parts.cols()), 17);
        QVERIFY((parts.array() == 0 || parts.array() == 1).all());
        for (Eigen::Index j = 0; j < parts.cols(); ++j)
            QVERIFY(parts.col(j).sum() > 0);

        // Image k holds limb l in position (k / 4^l) mod 4.
        for (int k = 0; k < 256; ++k) {
            Vector sum = parts.col(0);
            for (int l = 0, code = k; l < 4; ++l, code /= 4)
                sum += parts.col(1 + 4 * l + code % 4);
            QVERIFY2(sum == swimmer.X.col(k), qPrintable(QStringLiteral("image %1").arg(k)));
        }
    }

    void partsAreIndependent()
    {
        const Matrix parts = swimmerParts();
        QCOMPARE(int(Eigen::FullPivLU<Matrix>(parts).rank()), 17);
        // The torso and the limbs of different limbs never touch, so sums stay 0/1.
        const Matrix overlap = parts.transpose() * parts;
        for (int a = 0; a < 17; ++a)
            for (int b = 0; b < 17; ++b) {
                const bool sameLimb = a > 0 && b > 0 && (a - 1) / 4 == (b - 1) / 4;
                if (a != b && !sameLimb)
                    QCOMPARE(overlap(a, b), Scalar(0));
            }
    }

    void imagesAreDistinct()
    {
        const Dataset swimmer = makeSwimmer();
        std::set<std::vector<Scalar>> seen;
        for (Eigen::Index k = 0; k < swimmer.samples(); ++k)
            seen.insert(std::vector<Scalar>(
                swimmer.X.col(k).data(), swimmer.X.col(k).data() + swimmer.X.rows()));
        QCOMPARE(int(seen.size()), 256);
    }

    // Upright: the head is above the torso, arms in the top half and legs in the bottom half.
    void upright()
    {
        const Matrix parts = swimmerParts();
        auto rowsOf = [&](int part) {
            std::set<int> rows;
            for (int p = 0; p < 1024; ++p)
                if (parts(p, part) != 0)
                    rows.insert(p / 32);
            return rows;
        };
        for (int p = 0; p < 4; ++p) {
            QVERIFY(*rowsOf(1 + p).rbegin() < 16); // left arm
            QVERIFY(*rowsOf(5 + p).rbegin() < 16); // right arm
            QVERIFY(*rowsOf(9 + p).begin() > 16); // left leg
            QVERIFY(*rowsOf(13 + p).begin() > 16); // right leg
        }
        QVERIFY(*rowsOf(0).begin() < 10);
    }
};

#include "facet_test.h"
FACET_TEST_APPLESS_MAIN(TestSynthetic)
#include "test_synthetic.moc"
