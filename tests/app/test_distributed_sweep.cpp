// SPDX-License-Identifier: GPL-3.0-or-later
// The distributed sweep's protocol (distributed/distributed_sweep.h) with its ranks as threads of
// this process (in_process_communicator.h), so that it runs in every build, the sanitizers'
// included: the cells spread over 2-4 ranks give the numbers of one process, cell for cell and
// bit for bit, also for the cells a resumed sweep has left; a cell failing on one rank, and an
// interrupted rank, end every rank with that outcome; rank 0's check of the ranks' reports names
// the first that cannot take part. test_mpi_sweep runs facet-cli itself under mpirun.
#include "cli/sweep_ranks.h"
#include "core/random.h"
#include "distributed/distributed_sweep.h"
#include "experiment/sweep_json.h"
#include "in_process_communicator.h"

#include "planted_squares.h"

#include <QtTest>

#include <functional>
#include <thread>

using namespace facet;
using namespace facet::testing;
using namespace Qt::StringLiterals;

namespace {

ExperimentOptions protocolOptions()
{
    ExperimentOptions o;
    o.methods = { "kmeans", "nmf", "cf", "gnmf" };
    o.clusterCounts = { 2, 3, 4 };
    o.trials = 4;
    o.subruns = 2;
    o.seed = 17;
    o.base.driver.maxIter = 40;
    o.base.cluster.replicates = 3;
    return o;
}

// Bit-identical numbers (the wall time aside).
bool sameNumbers(const TrialResult& a, const TrialResult& b)
{
    if (a.subruns.size() != b.subruns.size())
        return false;
    for (std::size_t i = 0; i < a.subruns.size(); ++i)
        if (a.subruns[i].objective != b.subruns[i].objective || a.subruns[i].ac != b.subruns[i].ac
            || a.subruns[i].nmi != b.subruns[i].nmi)
            return false;
    return a.cell == b.cell && a.seed == b.seed && a.classes == b.classes && a.ac == b.ac
        && a.nmi == b.nmi && a.objective == b.objective && a.iterations == b.iterations
        && a.stopReason == b.stopReason && a.rank == b.rank && a.samples == b.samples
        && a.subrun == b.subrun && a.graphAc == b.graphAc && a.graphNmi == b.graphNmi;
}

// The one-process result of `t`'s cell.
const TrialResult& reference(const std::vector<TrialResult>& one, const TrialResult& t)
{
    for (const TrialResult& r : one)
        if (r.cell == t.cell)
            return r;
    throw std::logic_error("no such cell");
}

struct GroupRun {
    SweepRunOutcome outcome; // rank 0's
    std::vector<TrialResult> trials; // as rank 0 received them, in plan order
    std::vector<JobStatus> ends; // per rank: the job's end as that rank saw it
};

// The protocol's three steps on `plans.size()` ranks, rank r computing from plans[r] with
// `threads` slots; rank 0 hands out `todo` and ends the job with its outcome.
GroupRun runGroup(const ExperimentDataset& data, const ExperimentOptions& o,
    const std::vector<std::vector<ExperimentCell>>& plans, int threads,
    const std::vector<std::size_t>& todo, std::vector<std::stop_source>& stops,
    const std::function<void(const TrialResult&)>& onTrial = {})
{
    const int size = int(plans.size());
    InProcessGroup group(size);
    GroupRun run;
    run.ends.resize(std::size_t(size));
    {
        std::vector<std::jthread> ranks;
        for (int r = 1; r < size; ++r)
            ranks.emplace_back([&, r] {
                Communicator& comm = group.rank(r);
                RankReport report;
                report.threads = threads;
                report.host = u"host%1"_s.arg(r);
                sendRankReport(comm, report);
                run.ends[std::size_t(r)] = waitForStart(comm);
                if (run.ends[std::size_t(r)].exitCode != 0)
                    return;
                CellWorkers local(data, o, plans[std::size_t(r)], threads);
                run.ends[std::size_t(r)] = workCells(
                    comm, local, o, data.raw().classNames, stops[std::size_t(r)].get_token());
            });
        Communicator& comm = group.rank(0);
        RankReport own;
        own.threads = threads;
        const std::vector<RankReport> reports = collectRankReports(comm, own);
        sendStart(comm, {});
        {
            CellWorkers local(data, o, plans[0], threads);
            run.outcome = coordinateCells(
                comm, local, reports, todo, stops[0].get_token(), [&](const TrialResult& t) {
                    run.trials.push_back(t);
                    if (onTrial)
                        onTrial(t);
                });
        }
        run.ends[0] = { run.outcome.error.empty() ? (run.outcome.stopped ? 130 : 0) : 1,
            QString::fromStdString(run.outcome.error) };
        sendFinish(comm, run.ends[0]);
    } // joins the other ranks
    sortTrials(run.trials, o);
    return run;
}

std::vector<std::size_t> allCells(std::size_t n)
{
    std::vector<std::size_t> todo(n);
    for (std::size_t i = 0; i < n; ++i)
        todo[i] = i;
    return todo;
}

} // namespace

class TestDistributedSweep : public QObject {
    Q_OBJECT

private:
    const ExperimentDataset m_data { plantedSquares(23), SampleNormalization::Auto };
    const ExperimentOptions m_options = protocolOptions();
    const std::vector<ExperimentCell> m_plan = planCells(m_options);
    std::vector<TrialResult> m_one; // every cell, one process, one thread

private slots:
    void initTestCase()
    {
        runCellsInParallel(
            m_data, m_options, m_plan, 1, {}, [this](const TrialResult& t) { m_one.push_back(t); });
        QCOMPARE(m_one.size(), m_plan.size());
    }

    void spreadCellsEqualOneProcess_data()
    {
        QTest::addColumn<int>("ranks");
        QTest::addColumn<int>("threads");
        QTest::addColumn<bool>("resumed");
        QTest::newRow("2 ranks") << 2 << 1 << false;
        QTest::newRow("3 ranks") << 3 << 1 << false;
        QTest::newRow("4 ranks of 2 threads") << 4 << 2 << false;
        QTest::newRow("3 ranks, every other cell left") << 3 << 1 << true;
    }
    void spreadCellsEqualOneProcess()
    {
        QFETCH(int, ranks);
        QFETCH(int, threads);
        QFETCH(bool, resumed);
        std::vector<std::size_t> todo;
        for (std::size_t i = 0; i < m_plan.size(); ++i)
            if (!resumed || i % 2 == 1)
                todo.push_back(i);
        std::vector<std::stop_source> stops(static_cast<std::size_t>(ranks));
        const GroupRun run = runGroup(m_data, m_options,
            std::vector<std::vector<ExperimentCell>>(std::size_t(ranks), m_plan), threads, todo,
            stops);
        QVERIFY2(run.outcome.error.empty(), run.outcome.error.c_str());
        QVERIFY(!run.outcome.stopped);
        QCOMPARE(run.outcome.finished, int(todo.size()));
        QCOMPARE(run.trials.size(), todo.size());
        for (std::size_t i = 0; i < todo.size(); ++i) {
            QVERIFY(run.trials[i].cell == m_plan[todo[i]]);
            QVERIFY2(sameNumbers(run.trials[i], reference(m_one, run.trials[i])),
                qPrintable(u"cell %1 differs from one process's"_s.arg(todo[i])));
        }
        for (const JobStatus& end : run.ends)
            QCOMPARE(end.exitCode, 0);
    }

    // Rank 2's cells throw (an index outside the parameter grid: runCell's own check): the
    // first failure stops every rank, the error names the rank, and every rank ends with it.
    void failingCellStopsEveryRank()
    {
        std::vector<std::vector<ExperimentCell>> plans(3, m_plan);
        for (ExperimentCell& c : plans[2])
            c.parameterIndex = 7;
        std::vector<std::stop_source> stops(3);
        const GroupRun run = runGroup(m_data, m_options, plans, 1, allCells(m_plan.size()), stops);
        QVERIFY2(run.outcome.error.starts_with("on rank 2 of 3 (host2): ")
                && run.outcome.error.find("parameter index out of range") != std::string::npos,
            run.outcome.error.c_str());
        QVERIFY(run.outcome.finished < int(m_plan.size()));
        for (const JobStatus& end : run.ends) {
            QCOMPARE(end.exitCode, 1);
            QCOMPARE(end.message, run.ends[0].message);
        }
        for (const TrialResult& t : run.trials)
            QVERIFY(sameNumbers(t, reference(m_one, t)));
    }

    // Ctrl+C (or SIGTERM) on one rank stops the sweep on every rank; the cells finished before
    // are kept and equal one process's.
    void interruptedRankStopsEveryRank_data()
    {
        QTest::addColumn<int>("interrupted");
        QTest::newRow("rank 0") << 0;
        QTest::newRow("rank 2") << 2;
    }
    void interruptedRankStopsEveryRank()
    {
        QFETCH(int, interrupted);
        std::vector<std::stop_source> stops(3);
        const GroupRun run = runGroup(m_data, m_options,
            std::vector<std::vector<ExperimentCell>>(3, m_plan), 1, allCells(m_plan.size()), stops,
            [&](const TrialResult&) { stops[std::size_t(interrupted)].request_stop(); });
        QVERIFY2(run.outcome.error.empty(), run.outcome.error.c_str());
        QVERIFY(run.outcome.stopped);
        QVERIFY(run.outcome.finished >= 1);
        QVERIFY(run.outcome.finished < int(m_plan.size()));
        for (const JobStatus& end : run.ends)
            QCOMPARE(end.exitCode, 130);
        for (const TrialResult& t : run.trials)
            QVERIFY(sameNumbers(t, reference(m_one, t)));
    }

    // What rank 0 makes of the reports (cli/sweep_ranks.h): the first rank that failed, was
    // started with other options or loaded other data stops the job, named with its host.
    void checkRanksNamesTheFirstRankThatDiffers()
    {
        RankReport ready;
        ready.options = experimentOptionsToJson(m_options, SampleNormalization::Auto);
        ready.dataset = QJsonObject { { u"checksum"_s, u"0123"_s } };
        QVERIFY(!cli::checkRanks({ ready, ready, ready }));

        RankReport failed;
        failed.exitCode = 1;
        failed.host = u"node07"_s;
        failed.error = u"x.mat: file not found"_s;
        RankReport otherOptions = ready;
        ExperimentOptions more = m_options;
        more.trials = 5;
        otherOptions.options = experimentOptionsToJson(more, SampleNormalization::Auto);
        RankReport otherData = ready;
        otherData.dataset = QJsonObject { { u"checksum"_s, u"4567"_s } };

        std::optional<JobStatus> end = cli::checkRanks({ ready, ready, failed, otherOptions });
        QVERIFY(end);
        QCOMPARE(end->exitCode, 1);
        QCOMPARE(
            end->message, u"rank 2 of 4 (node07) could not take part: x.mat: file not found"_s);
        end = cli::checkRanks({ ready, otherOptions, otherData });
        QVERIFY(end);
        QVERIFY2(end->message.startsWith(u"rank 1 of 3 was started with other sweep options"_s)
                && end->message.endsWith(u"\n  trials: 4 on rank 0, 5 on rank 1"_s),
            qPrintable(end->message));
        end = cli::checkRanks({ ready, ready, otherData });
        QVERIFY(end);
        QVERIFY2(end->message.endsWith(u"\n  dataset.checksum: 0123 on rank 0, 4567 on rank 2"_s),
            qPrintable(end->message));
    }
};

#include "facet_test.h"
FACET_TEST_APPLESS_MAIN(TestDistributedSweep)
#include "test_distributed_sweep.moc"
