// SPDX-License-Identifier: GPL-3.0-or-later
// The Euclidean projection onto the probability simplex (graph/simplex.h), checked against its
// optimality (KKT) conditions and against an independent reference that finds the threshold by
// bisection instead of sorting.
#include "core/random.h"
#include "graph/simplex.h"

#include "test_printers.h"

#include <QtTest>

#include <cmath>
#include <vector>

using namespace facet;

namespace {

// tau with sum_j max(y_j - tau, 0) = 1 by bisection: the sum is continuous and non-increasing in
// tau, >= 1 at tau = max(y) - 1 and 0 at tau = max(y).
double bisectionThreshold(const Vector& y)
{
    double lo = double(y.maxCoeff()) - 1;
    double hi = double(y.maxCoeff());
    for (int it = 0; it < 200; ++it) {
        const double mid = 0.5 * (lo + hi);
        const double sum = (y.cast<double>().array() - mid).max(0.0).sum();
        (sum > 1 ? lo : hi) = mid;
    }
    return 0.5 * (lo + hi);
}

// q = argmin ||q - y||^2 on the simplex iff q is on the simplex and, with one tau,
// y_j - q_j = tau where q_j > 0 and y_j <= tau where q_j = 0.
void verifyKkt(const Vector& y, const Vector& q)
{
    const double scale = std::max(1.0, double(y.cwiseAbs().maxCoeff()));
    const double tol = 1e-12 * scale * double(y.size());
    QVERIFY((q.array() >= 0).all());
    QVERIFY2(std::abs(double(q.sum()) - 1) < 1e-12 * double(y.size()),
        qPrintable(QStringLiteral("sum %1").arg(double(q.sum()), 0, 'g', 17)));
    double tau = 0;
    bool haveTau = false;
    for (Eigen::Index j = 0; j < y.size(); ++j) {
        if (q(j) > 0) {
            const double shift = double(y(j) - q(j));
            if (!haveTau) {
                tau = shift;
                haveTau = true;
            }
            QVERIFY2(std::abs(shift - tau) < tol,
                qPrintable(QStringLiteral("shift %1 vs %2").arg(shift).arg(tau)));
        }
    }
    QVERIFY(haveTau); // some entry is positive since the sum is 1
    for (Eigen::Index j = 0; j < y.size(); ++j)
        if (q(j) == 0)
            QVERIFY(double(y(j)) <= tau + tol);
}

Vector randomVector(Rng& rng, Eigen::Index d, double scale, double offset)
{
    Vector y(d);
    for (Eigen::Index j = 0; j < d; ++j)
        y(j) = Scalar(offset + scale * (2 * rng.uniform() - 1));
    return y;
}

} // namespace

class TestSimplex : public QObject {
    Q_OBJECT
private slots:
    void kktAndBisection_data()
    {
        QTest::addColumn<int>("size");
        QTest::addColumn<double>("scale");
        QTest::addColumn<double>("offset");
        for (int size : { 1, 2, 3, 7, 50, 400 })
            for (double scale : { 1e-3, 0.3, 5.0, 1e3 })
                for (double offset : { -10.0, 0.0, 0.4 })
                    QTest::newRow(qPrintable(
                        QStringLiteral("d=%1 scale=%2 offset=%3").arg(size).arg(scale).arg(offset)))
                        << size << scale << offset;
    }
    void kktAndBisection()
    {
        QFETCH(int, size);
        QFETCH(double, scale);
        QFETCH(double, offset);
        Rng rng(deriveSeed(size, std::uint64_t(scale * 1000 + offset * 7 + 100)));
        for (int trial = 0; trial < 20; ++trial) {
            const Vector y = randomVector(rng, size, scale, offset);
            const Vector q = projectOntoSimplex(y);
            verifyKkt(y, q);
            const double tau = bisectionThreshold(y);
            const Vector reference = (y.cast<double>().array() - tau).max(0.0).cast<Scalar>();
            QVERIFY2((q - reference).cwiseAbs().maxCoeff() < 1e-9 * std::max(1.0, scale),
                qPrintable(QStringLiteral("max deviation %1")
                               .arg(double((q - reference).cwiseAbs().maxCoeff()))));
        }
    }
    void knownProjections()
    {
        // A point of the simplex is its own projection.
        Vector y(4);
        y << 0.1, 0.2, 0.3, 0.4;
        QVERIFY((projectOntoSimplex(y) - y).cwiseAbs().maxCoeff() < 1e-15);
        // Equal entries: the centre, whatever their value.
        QVERIFY(
            (projectOntoSimplex(Vector::Constant(5, 7.0)).array() - 0.2).abs().maxCoeff() < 1e-15);
        // One entry far above the rest: a vertex.
        y << -1, 3, 0.5, 0.2;
        const Vector vertex = projectOntoSimplex(y);
        QCOMPARE(vertex(1), Scalar(1));
        QCOMPARE(vertex.sum(), Scalar(1));
        // A single entry is always 1.
        QCOMPARE(projectOntoSimplex(Vector::Constant(1, -4.0))(0), Scalar(1));
        // Ties at the threshold: (1, 1, 0) -> (1/2, 1/2, 0).
        Vector t(3);
        t << 1, 1, 0;
        const Vector half = projectOntoSimplex(t);
        QVERIFY(std::abs(half(0) - 0.5) < 1e-15 && std::abs(half(1) - 0.5) < 1e-15);
        QCOMPARE(half(2), Scalar(0));
    }
    void emptyVectorThrows()
    {
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, projectOntoSimplex(Vector()));
    }
    void sparseColumnsOnTheirSupport()
    {
        // Each column is projected over its stored entries only; the pattern is kept.
        Rng rng(9);
        const Eigen::Index n = 30;
        std::vector<Eigen::Triplet<Scalar, Eigen::Index>> triplets;
        for (Eigen::Index j = 0; j < n; ++j)
            for (Eigen::Index i = 0; i < n; ++i)
                if (i == j || rng.uniform() < 0.2)
                    triplets.emplace_back(i, j, Scalar(3 * rng.uniform() - 1));
        SparseMatrix M(n, n);
        M.setFromTriplets(triplets.begin(), triplets.end());
        const SparseMatrix before = M;
        projectColumnsOntoSimplex(M);
        QCOMPARE(M.nonZeros(), before.nonZeros());
        for (Eigen::Index j = 0; j < n; ++j) {
            std::vector<Scalar> values;
            for (SparseMatrix::InnerIterator it(before, j); it; ++it)
                values.push_back(it.value());
            const Vector y = Eigen::Map<Vector>(values.data(), Eigen::Index(values.size()));
            const Vector expected = projectOntoSimplex(y);
            Eigen::Index e = 0;
            for (SparseMatrix::InnerIterator it(M, j), ref(before, j); it; ++it, ++ref, ++e) {
                QCOMPARE(it.row(), ref.row());
                QCOMPARE(it.value(), expected(e));
            }
            verifyKkt(y, expected);
        }
    }
    void emptyColumnThrows()
    {
        SparseMatrix M(3, 3);
        M.insert(0, 0) = 1;
        M.insert(1, 2) = 1;
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, projectColumnsOntoSimplex(M));
    }
};

#include "facet_test.h"
FACET_TEST_APPLESS_MAIN(TestSimplex)
#include "test_simplex.moc"
