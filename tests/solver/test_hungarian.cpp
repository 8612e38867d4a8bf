// SPDX-License-Identifier: GPL-3.0-or-later
#include "cluster/hungarian.h"
#include "core/random.h"

#include <QtTest>

#include <algorithm>
#include <cmath>
#include <functional>
#include <limits>
#include <set>
#include <stdexcept>

using namespace facet;

namespace {

// Exhaustive optimum over every one-to-one map of the shorter side into the longer one.
double bruteForceBest(const Eigen::MatrixXd& w)
{
    if (w.rows() > w.cols())
        return bruteForceBest(w.transpose());
    const int rows = int(w.rows());
    const int cols = int(w.cols());
    std::vector<char> used(std::size_t(cols), 0);
    double best = -std::numeric_limits<double>::infinity();
    std::function<void(int, double)> extend = [&](int row, double sum) {
        if (row == rows) {
            best = std::max(best, sum);
            return;
        }
        for (int c = 0; c < cols; ++c) {
            if (used[std::size_t(c)])
                continue;
            used[std::size_t(c)] = 1;
            extend(row + 1, sum + w(row, c));
            used[std::size_t(c)] = 0;
        }
    };
    extend(0, 0.0);
    return best;
}

// Checks the shape of the answer (one-to-one, min(r, c) pairs) and returns its total weight.
double checkedTotal(const Eigen::MatrixXd& w, const std::vector<int>& assignment)
{
    if (assignment.size() != std::size_t(w.rows()))
        return std::numeric_limits<double>::quiet_NaN();
    std::set<int> columns;
    double total = 0;
    for (std::size_t r = 0; r < assignment.size(); ++r) {
        const int c = assignment[r];
        if (c == -1)
            continue;
        if (c < 0 || c >= w.cols() || !columns.insert(c).second)
            return std::numeric_limits<double>::quiet_NaN();
        total += w(Eigen::Index(r), c);
    }
    if (Eigen::Index(columns.size()) != std::min(w.rows(), w.cols()))
        return std::numeric_limits<double>::quiet_NaN();
    return total;
}

} // namespace

class TestHungarian : public QObject {
    Q_OBJECT

private slots:
    void squareKnownOptimum()
    {
        // All 3! maps (column of rows 0, 1, 2): 012 = 9+5+1 = 15, 021 = 9+2+2 = 13,
        // 102 = 8+7+1 = 16, 120 = 8+2+3 = 13, 201 = 1+7+2 = 10, 210 = 1+5+3 = 9. Greedy on the
        // largest entry (9) cannot reach the unique optimum 16.
        Eigen::MatrixXd w(3, 3);
        w << 9, 8, 1, //
            7, 5, 2, //
            3, 2, 1;
        const std::vector<int> a = maximumWeightAssignment(w);
        QCOMPARE(a, (std::vector<int> { 1, 0, 2 }));
        QCOMPARE(checkedTotal(w, a), 16.0);
    }

    void wideAndTall()
    {
        Eigen::MatrixXd wide(2, 4);
        wide << 1, 5, 0, 0, //
            2, 6, 1, 4;
        // Greedy takes the 6 and is left with 6 + 1 = 7; the unique optimum is 5 + 4 = 9.
        QCOMPARE(maximumWeightAssignment(wide), (std::vector<int> { 1, 3 }));

        const Eigen::MatrixXd tall = wide.transpose();
        const std::vector<int> a = maximumWeightAssignment(tall);
        QCOMPARE(a, (std::vector<int> { -1, 0, -1, 1 }));
    }

    void randomAgainstBruteForce_data()
    {
        QTest::addColumn<int>("rows");
        QTest::addColumn<int>("cols");
        for (int r = 1; r <= 6; ++r) {
            for (int c = 1; c <= 6; ++c)
                QTest::addRow("%dx%d", r, c) << r << c;
        }
        QTest::addRow("3x8") << 3 << 8;
        QTest::addRow("8x2") << 8 << 2;
    }

    void randomAgainstBruteForce()
    {
        QFETCH(int, rows);
        QFETCH(int, cols);
        Rng rng(deriveSeed(2024, std::uint64_t(rows * 16 + cols)));
        for (int trial = 0; trial < 25; ++trial) {
            Eigen::MatrixXd w = rng.uniformMatrix(rows, cols).cast<double>();
            // Half the trials use small integers so ties are common, and some negatives.
            if (trial % 2 == 1)
                w = (w.array() * 6 - 2).floor().matrix();
            const double got = checkedTotal(w, maximumWeightAssignment(w));
            QVERIFY2(std::abs(got - bruteForceBest(w)) <= 1e-9,
                qPrintable(QStringLiteral("trial %1: %2 vs brute force %3")
                               .arg(trial)
                               .arg(got)
                               .arg(bruteForceBest(w))));
        }
    }

    void degenerateShapes()
    {
        QVERIFY(maximumWeightAssignment(Eigen::MatrixXd(0, 3)).empty());
        QCOMPARE(maximumWeightAssignment(Eigen::MatrixXd(2, 0)), (std::vector<int> { -1, -1 }));
        QCOMPARE(maximumWeightAssignment(Eigen::MatrixXd::Constant(1, 1, -3.0)),
            (std::vector<int> { 0 }));
    }

    void nonFiniteThrows()
    {
        Eigen::MatrixXd w = Eigen::MatrixXd::Ones(2, 2);
        w(1, 0) = std::numeric_limits<double>::quiet_NaN();
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, maximumWeightAssignment(w));
        w(1, 0) = std::numeric_limits<double>::infinity();
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, maximumWeightAssignment(w));
    }
};

#include "facet_test.h"
FACET_TEST_APPLESS_MAIN(TestHungarian)
#include "test_hungarian.moc"
