// SPDX-License-Identifier: GPL-3.0-or-later
// The rank survey's held-out error (issue 38): on planted X = U V^T + noise of rank r it is
// lowest at r; the folds are seeded and the same at every rank; a method without masks says why
// it has none.
#include "core/random.h"
#include "experiment/rank_survey.h"

#include <QtTest>

#include <cmath>
#include <stop_token>
#include <thread>
#include <vector>

using namespace facet;

namespace {

Matrix planted(int m, int n, int rank, std::uint64_t seed)
{
    Rng rng(seed);
    const Matrix U = rng.uniformMatrix(m, rank);
    const Matrix V = rng.uniformMatrix(n, rank);
    Matrix X = U * V.transpose();
    for (Eigen::Index i = 0; i < X.size(); ++i)
        X.data()[i] += Scalar(0.01 * rng.uniform());
    return X;
}

RankSurveyOptions surveyOptions(std::vector<int> ranks)
{
    RankSurveyOptions options;
    options.run.method = "nmf";
    options.run.driver.maxIter = 600;
    options.run.driver.seed = 3;
    options.ranks = std::move(ranks);
    options.runs = 2;
    options.folds = 3;
    options.keepConsensus = false;
    return options;
}

} // namespace

class TestRankSurvey : public QObject {
    Q_OBJECT

private slots:
    void heldOutErrorIsLowestAtThePlantedRank_data()
    {
        QTest::addColumn<int>("rank");
        QTest::newRow("rank 3") << 3;
        QTest::newRow("rank 5") << 5;
    }

    void heldOutErrorIsLowestAtThePlantedRank()
    {
        QFETCH(int, rank);
        const Matrix X = planted(30, 40, rank, 17 + std::uint64_t(rank));
        std::vector<int> ranks;
        for (int k = rank - 2; k <= rank + 3; ++k)
            ranks.push_back(k);
        const RankSurveyResult result = runRankSurvey(X, {}, surveyOptions(ranks));
        QCOMPARE(result.rows.size(), ranks.size());
        QString curve;
        for (const RankSurveyRow& row : result.rows) {
            QCOMPARE(row.heldOut.count, 3);
            curve += QStringLiteral(" k=%1: %2").arg(row.rank).arg(row.heldOut.mean, 0, 'g', 3);
        }
        QVERIFY2(result.byHeldOut.rank == rank, qPrintable(curve));
        QVERIFY2(result.byHeldOut.why.contains(QStringLiteral("lowest at k = %1").arg(rank)),
            qPrintable(result.byHeldOut.why));
        QVERIFY(result.heldOutNote.isEmpty());
    }

    // Brunet's rule reads the cophenetic curve; a fall below round-off (nested clusterings give
    // 1 - 1e-14) is none, and the dispersion decides instead.
    void suggestionIgnoresRoundOffFalls()
    {
        std::vector<RankSurveyRow> rows(3);
        const double cophenetic[] { 1.0, 1.0 - 1e-14, 1.0 };
        const double dispersion[] { 0.97, 1.0, 0.98 };
        for (int i = 0; i < 3; ++i) {
            rows[std::size_t(i)].rank = i + 2;
            rows[std::size_t(i)].consensus.cophenetic = cophenetic[i];
            rows[std::size_t(i)].consensus.dispersion = dispersion[i];
        }
        RankSuggestion s = suggestByCophenetic(rows);
        QCOMPARE(s.rank, 3);
        QVERIFY2(s.why.contains(QStringLiteral("dispersion")), qPrintable(s.why));
        rows[2].consensus.cophenetic = 0.9; // a real fall after k = 3
        s = suggestByCophenetic(rows);
        QCOMPARE(s.rank, 3);
        QVERIFY2(s.why.startsWith(QStringLiteral("the cophenetic correlation falls most")),
            qPrintable(s.why));
    }

    void foldsAreSeededAndMethodsWithoutMasksSaySo()
    {
        const Matrix a = heldOutWeights(20, 30, 0.1, 5, 0);
        QVERIFY(a == heldOutWeights(20, 30, 0.1, 5, 0));
        QVERIFY(a != heldOutWeights(20, 30, 0.1, 5, 1));
        const double held = double((a.array() == 0).count()) / double(a.size());
        QVERIFY2(held > 0.04 && held < 0.18, qPrintable(QString::number(held)));

        RankSurveyOptions cf = surveyOptions({ 2, 3 });
        cf.run.method = "cf";
        const RankSurveyResult result = runRankSurvey(planted(20, 30, 2, 1), {}, cf);
        QCOMPARE(result.rows.front().heldOut.count, 0);
        QCOMPARE(result.byHeldOut.rank, 0);
        QVERIFY2(!result.heldOutNote.isEmpty(), "no reason given");
    }

    void dataMissingEntriesStayOutOfEveryRun()
    {
        // Data with missing entries (the explorer's missing pixels): the survey's runs and its
        // held-out folds never read them, so what stands in for them changes nothing.
        const Matrix X = planted(20, 30, 2, 4);
        Matrix weights = Matrix::Ones(20, 30);
        for (Eigen::Index j = 0; j < 30; ++j)
            weights(j % 20, j) = weights((j + 7) % 20, j) = 0;
        RankSurveyOptions options = surveyOptions({ 1, 2, 3 });
        options.run.driver.maxIter = 200;
        options.run.params.weights = std::make_shared<const Matrix>(weights);
        Matrix zeros = X, garbage = X;
        for (Eigen::Index i = 0; i < X.size(); ++i)
            if (weights.data()[i] == 0) {
                zeros.data()[i] = 0;
                garbage.data()[i] = 50;
            }
        const RankSurveyResult a = runRankSurvey(zeros, {}, options);
        const RankSurveyResult b = runRankSurvey(garbage, {}, options);
        QCOMPARE(a.rows.size(), std::size_t(3));
        for (std::size_t r = 0; r < a.rows.size(); ++r) {
            QCOMPARE(a.rows[r].heldOut.count, options.folds);
            QCOMPARE(a.rows[r].heldOut.mean, b.rows[r].heldOut.mean);
            QCOMPARE(a.rows[r].reconstruction.mean, b.rows[r].reconstruction.mean);
        }
        QCOMPARE(a.byHeldOut.rank, 2);
    }

    void workersGiveTheSameBitsAndReportOnTheCaller()
    {
        // The fits run side by side, each with one inner thread: one worker or three give the same
        // rows, and every finished fit is reported once, on the calling thread, counting up.
        const Matrix X = planted(24, 30, 3, 8);
        RankSurveyOptions options = surveyOptions({ 2, 3, 4 });
        options.keepConsensus = true;
        options.workers = 1;
        const RankSurveyResult one = runRankSurvey(X, {}, options);
        options.workers = 3;
        const std::thread::id caller = std::this_thread::get_id();
        std::vector<int> dones;
        bool elsewhere = false;
        const RankSurveyResult three = runRankSurvey(X, {}, options, [&](int done, int, int, int) {
            elsewhere = elsewhere || std::this_thread::get_id() != caller;
            dones.push_back(done);
        });
        QVERIFY(!elsewhere);
        const int fits = 3 * (options.runs + options.folds);
        QCOMPARE(int(dones.size()), fits + 2); // the start, each fit, the end
        for (int i = 0; i <= fits; ++i)
            QCOMPARE(dones[std::size_t(i)], i);
        QCOMPARE(dones.back(), fits);
        QCOMPARE(one.rows.size(), three.rows.size());
        for (std::size_t r = 0; r < one.rows.size(); ++r) {
            QCOMPARE(one.rows[r].heldOut.mean, three.rows[r].heldOut.mean);
            QCOMPARE(one.rows[r].reconstruction.mean, three.rows[r].reconstruction.mean);
            QCOMPARE(one.rows[r].sparsenessV.mean, three.rows[r].sparsenessV.mean);
            QVERIFY(one.rows[r].consensus.matrix == three.rows[r].consensus.matrix);
        }
    }

    void aStopKeepsTheFinishedRanks()
    {
        // A stop once the first rank's fits have all finished (later ranks' fits finish in any
        // order meanwhile): the survey ends with the complete ranks only, in order, cancelled.
        const Matrix X = planted(24, 30, 3, 9);
        RankSurveyOptions options = surveyOptions({ 2, 3, 4, 5 });
        options.workers = 2;
        std::stop_source source;
        const int perRank = options.runs + options.folds;
        int firstRankDone = 0;
        const RankSurveyResult result = runRankSurvey(
            X, {}, options,
            [&](int done, int, int k, int) {
                if (done > 0 && k == 2 && ++firstRankDone == perRank)
                    source.request_stop();
            },
            source.get_token());
        QVERIFY(result.cancelled);
        QVERIFY(!result.rows.empty() && result.rows.size() < 4);
        for (std::size_t r = 0; r < result.rows.size(); ++r)
            QCOMPARE(result.rows[r].rank, int(r) + 2);
        QCOMPARE(result.rows.front().heldOut.count, options.folds);
    }
};

#include "facet_test.h"
FACET_TEST_GUILESS_MAIN(TestRankSurvey)
#include "test_rank_survey.moc"
