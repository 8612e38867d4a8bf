// SPDX-License-Identifier: GPL-3.0-or-later
// The skinny-product kernels (core/skinny_product.h) against Eigen's product on every tail case:
// rows not a multiple of the SIMD width, columns not a multiple of the panel, every k up to the
// limits and past them (the Eigen fallback), a strided view of X, one and two threads.
#include "core/random.h"
#include "core/skinny_product.h"

#include <QtTest>

using namespace facet;
using Index = Eigen::Index;

class SkinnyProductTest : public QObject {
    Q_OBJECT

private slots:
    void matchesEigen_data()
    {
        QTest::addColumn<int>("m");
        QTest::addColumn<int>("n");
        QTest::addColumn<int>("threads");
        QTest::newRow("aligned") << 64 << 512 << 2;
        QTest::newRow("row tail") << 77 << 515 << 2;
        QTest::newRow("one thread") << 101 << 903 << 1;
        QTest::newRow("tall") << 1030 << 300 << 2;
        QTest::newRow("few columns") << 3000 << 9 << 2;
        // Under 1 MiB of X (stripUpdate's whole-X route), with enough work for two threads.
        QTest::newRow("short X, two threads") << 2048 << 60 << 2;
        QTest::newRow("tiny (Eigen)") << 5 << 7 << 2;
        // X of 17 MB in double: X^T M prefetches the next tile's columns (kPrefetchBytes).
        QTest::newRow("beyond the caches") << 1030 << 2101 << 2;
    }
    void matchesEigen()
    {
        QFETCH(int, m);
        QFETCH(int, n);
        QFETCH(int, threads);
        const int saved = Eigen::nbThreads();
        Eigen::setNbThreads(threads);
        Rng rng(7);
        const Matrix X = rng.uniformMatrix(m, n);
        for (const int k : { 1, 3, 4, 5, 10, 13, 16, 24, 25, 40, 41, 64, 65 }) {
            const Matrix V = rng.uniformMatrix(n, k);
            const Matrix U = rng.uniformMatrix(m, k);
            Matrix P, Q;
            multiplySkinny(X, V, P);
            multiplyTransposedSkinny(X, U, Q);
            const Matrix P0 = X * V, Q0 = X.transpose() * U;
            QCOMPARE(P.rows(), P0.rows());
            QCOMPARE(P.cols(), P0.cols());
            QCOMPARE(Q.rows(), Q0.rows());
            QCOMPARE(Q.cols(), Q0.cols());
            const Scalar tolerance = 64 * std::numeric_limits<Scalar>::epsilon();
            QVERIFY2((P - P0).norm() <= tolerance * P0.norm(), qPrintable(QString::number(k)));
            QVERIFY2((Q - Q0).norm() <= tolerance * Q0.norm(), qPrintable(QString::number(k)));
            // Same input, same threads: the same bits (a seed reproduces its factors).
            Matrix again;
            multiplySkinny(X, V, again);
            QVERIFY(again == P);
        }
        Eigen::setNbThreads(saved);
    }

    void sameBitsOnAnyThreads_data()
    {
        QTest::addColumn<int>("m");
        QTest::addColumn<int>("n");
        QTest::addColumn<int>("k");
        QTest::addColumn<bool>("productToo"); // X M as well: a short X below 2^21 multiply-adds
        // U^T U and U (V^T V) of the small sets (two threads from 2^17 multiply-adds), and X^T U
        // past the caches.
        QTest::newRow("rank 40") << 1024 << 40 << 40 << true;
        QTest::newRow("V, rank 40") << 400 << 40 << 40 << true;
        QTest::newRow("rank 15, row tail") << 1021 << 15 << 15 << true;
        QTest::newRow("X^T U past the caches") << 1030 << 2101 << 10 << false;
    }
    void sameBitsOnAnyThreads()
    {
        // Each entry of X^T M is one dot product, whichever thread computes it; a short X M
        // below 2^21 multiply-adds splits P's rows, each entry one chain over X's columns. So
        // both give the same bits on one and on two threads: the threads they take do not
        // change a seeded run.
        QFETCH(int, m);
        QFETCH(int, n);
        QFETCH(int, k);
        QFETCH(bool, productToo);
        Rng rng(11);
        const Matrix X = rng.uniformMatrix(m, n);
        const Matrix U = rng.uniformMatrix(m, k);
        const Matrix V = rng.uniformMatrix(n, k);
        const int saved = Eigen::nbThreads();
        Matrix one, two, oneP, twoP;
        Eigen::setNbThreads(1);
        multiplyTransposedSkinny(X, U, one);
        multiplySkinny(X, V, oneP);
        Eigen::setNbThreads(2);
        multiplyTransposedSkinny(X, U, two);
        multiplySkinny(X, V, twoP);
        Eigen::setNbThreads(saved);
        QVERIFY(one == two);
        const Matrix reference = X.transpose() * U;
        const Scalar tolerance = 64 * std::numeric_limits<Scalar>::epsilon();
        QVERIFY((one - reference).norm() <= tolerance * reference.norm());
        if (productToo)
            QVERIFY(oneP == twoP);
        const Matrix referenceP = X * V;
        QVERIFY((twoP - referenceP).norm() <= tolerance * referenceP.norm());
    }

    void stridedView()
    {
        // Gram keeps X as a view with an outer stride (a block of a larger matrix).
        Rng rng(9);
        const Matrix big = rng.uniformMatrix(300, 700);
        const MatrixCRef X = big.block(5, 3, 280, 650);
        const Matrix V = rng.uniformMatrix(650, 10);
        const Matrix U = rng.uniformMatrix(280, 10);
        Matrix P, Q;
        multiplySkinny(X, V, P);
        multiplyTransposedSkinny(X, U, Q);
        const Matrix P0 = X * V, Q0 = X.transpose() * U;
        QVERIFY((P - P0).norm() <= 64 * std::numeric_limits<Scalar>::epsilon() * P0.norm());
        QVERIFY((Q - Q0).norm() <= 64 * std::numeric_limits<Scalar>::epsilon() * Q0.norm());
    }
};

#include "facet_test.h"
FACET_TEST_APPLESS_MAIN(SkinnyProductTest)
#include "test_skinny_product.moc"
