// SPDX-License-Identifier: GPL-3.0-or-later
// The multiplicative update M <- max(M o P / max(N, eps), floor) (core/update.h): a large factor
// is split by columns over the threads and must give the serial rule's bits, including the
// eps and floor cases; and Method::saveState reuses the storage of the saved factors.
#include "core/method.h"
#include "core/random.h"
#include "core/update.h"
#include "methods/nmf.h"

#include <QtTest>

#include <omp.h>

using namespace facet;
using Index = Eigen::Index;

class UpdateRuleTest : public QObject {
    Q_OBJECT

private slots:
    void parallelUpdateEqualsSerialRule()
    {
        Rng rng(5);
        const Index n = 20000, k = 7; // 140,000 entries: the parallel path
        QVERIFY(n * k >= kParallelUpdateEntries);
        Matrix M = rng.uniformMatrix(n, k);
        Matrix P = rng.uniformMatrix(n, k);
        Matrix N = rng.uniformMatrix(n, k);
        N(3, 2) = 0; // below eps: divided by eps
        P(5, 4) = 0; // the result would be 0: the floor keeps it positive
        const Matrix expected
            = (M.array() * P.array() / N.array().max(kUpdateEps)).max(kPositiveFloor).matrix();
        for (const int threads : { 1, 2, 3 }) {
            omp_set_num_threads(threads);
            Matrix updated = M;
            multiplicativeUpdate(updated, P, N);
            QVERIFY2(updated == expected, qPrintable(QString::number(threads)));
        }
        omp_set_num_threads(2);
        QCOMPARE(double(expected(5, 4)), double(kPositiveFloor));
    }

    void saveStateReusesStorage()
    {
        Rng rng(9);
        const Matrix X = rng.uniformMatrix(30, 40);
        Nmf nmf(X, 4);
        nmf.initialize(rng);
        std::vector<Matrix> saved;
        nmf.saveState(saved);
        QCOMPARE(saved.size(), std::size_t(2));
        const Scalar* u = saved[0].data();
        const Scalar* v = saved[1].data();
        nmf.step();
        nmf.saveState(saved);
        QCOMPARE(saved[0].data(), u); // the same buffers, new values
        QCOMPARE(saved[1].data(), v);
        const std::vector<Matrix> fresh = nmf.state();
        QVERIFY(saved[0] == fresh[0]);
        QVERIFY(saved[1] == fresh[1]);
    }
};

#include "facet_test.h"
FACET_TEST_MAIN(UpdateRuleTest)
#include "test_update_rule.moc"
