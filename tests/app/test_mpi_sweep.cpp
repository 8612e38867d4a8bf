// SPDX-License-Identifier: GPL-3.0-or-later
// `mpirun -np N facet-cli sweep` end to end (issue 40; docs/cluster.md): for N = 2, 3 and 4 on
// this machine (oversubscribed), results.json holds the cells of the same sweep run by one
// process, bit for bit, and only rank 0 prints; a distributed sweep interrupted on one rank
// keeps its finished cells and `--resume` under mpirun finishes it to the same numbers; a cell
// that fails on some rank ends every rank with a clear error, keeping the cells saved before;
// ranks that cannot start (arguments that do not parse, data not found) end every rank with a
// clear error and leave the results.json that was there. Registered only when facet-cli is
// built with MPI (FACET_MPI); skipped when mpirun is not installed (openmpi-bin, which CI
// installs).
#include "cli_process.h"
#include "core/random.h"
#include "data/mat_writer.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QRegularExpression>
#include <QSysInfo>
#include <QTemporaryDir>
#include <QtTest>

#include <csignal>
#include <sys/types.h>

#ifndef FACET_MPIEXEC
#error "test_mpi_sweep.cpp needs FACET_MPIEXEC (tests/app/CMakeLists.txt sets it)"
#endif

using namespace facet;
using namespace facet::testing;
using namespace Qt::StringLiterals;

namespace {

// 4 planted classes of 50 samples, 32x32 pixels, shifted down by `shift` and scaled by `scale`.
Dataset plantedFaces(double shift, double scale)
{
    Dataset d;
    d.name = u"Planted"_s;
    Rng rng(31);
    const int classes = 4, per = 50, m = 1024;
    d.X = rng.uniformMatrix(m, classes * per);
    for (int j = 0; j < classes * per; ++j) {
        d.X.block((m / classes) * (j % classes), j, m / classes, 1).array() += 2.0;
        d.labels.push_back(j % classes);
    }
    d.X = (d.X.array() - shift) * scale;
    d.classNames = { u"a"_s, u"b"_s, u"c"_s, u"d"_s };
    d.height = 32;
    d.width = 32;
    return d;
}

QString mpiexec()
{
    return QStringLiteral(FACET_MPIEXEC);
}

// The environment the tests start mpirun with: root is allowed (CI's container); the transports
// are the two a single machine needs (shared memory and self), so no network device is probed;
// and OpenMP's wait policy is the one facet-cli sets itself, so that no rank starts itself again
// to set it (util/openmp_environment.h): a cell uses one inner thread anyway.
const QStringList kMpiEnvironment { u"OMPI_ALLOW_RUN_AS_ROOT=1"_s,
    u"OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1"_s, u"OMPI_MCA_btl=self,vader"_s,
    u"OMPI_MCA_rmaps_base_oversubscribe=1"_s, u"OMP_WAIT_POLICY=passive"_s };

// `mpirun -np N facet-cli ARGS` (or several such groups, MPMD), started in `process`.
bool startMpi(ChildProcess& process, const QList<std::pair<int, QStringList>>& groups)
{
    QStringList arguments { u"--oversubscribe"_s, u"--bind-to"_s, u"none"_s };
    for (const auto& [n, cli] : groups) {
        if (arguments.size() > 3)
            arguments << u":"_s;
        arguments << u"-np"_s << QString::number(n) << cliPath() << cli;
    }
    process.setEnvironment(kMpiEnvironment);
    return process.start(mpiexec(), arguments);
}

CliRun finish(ChildProcess& process)
{
    if (!process.waitForFinished(120000)) {
        process.kill(SIGTERM); // mpirun ends its ranks
        process.waitForFinished(10000);
        return {};
    }
    return { process.exitCode(), process.out(), process.err() };
}

CliRun runMpi(const QList<std::pair<int, QStringList>>& groups)
{
    ChildProcess process;
    if (!startMpi(process, groups))
        return {};
    return finish(process);
}

QJsonArray savedTrials(const QString& results)
{
    return readJson(results).value(u"trials"_s).toArray();
}

// The trials without their wall times: every number of every cell, as written.
QJsonArray withoutTimes(const QJsonArray& trials)
{
    QJsonArray out;
    for (const QJsonValue& v : trials) {
        QJsonObject t = v.toObject();
        t.remove(u"seconds"_s);
        out.append(t);
    }
    return out;
}

// The process of rank `rank` among mpirun's children (Linux's /proc: the parent in its stat,
// Open MPI's OMPI_COMM_WORLD_RANK in its environment); 0 when there is none.
pid_t rankProcess(pid_t mpirun, int rank)
{
    const QByteArray wanted = "OMPI_COMM_WORLD_RANK=" + QByteArray::number(rank);
    for (const QString& entry : QDir(u"/proc"_s).entryList(QDir::Dirs | QDir::NoDotAndDotDot)) {
        bool number = false;
        const int pid = entry.toInt(&number);
        if (!number)
            continue;
        // "pid (comm) state ppid ...": the command may hold spaces, its ')' ends it.
        const QByteArray stat = readBytes(u"/proc/%1/stat"_s.arg(pid));
        const QList<QByteArray> fields = stat.mid(stat.lastIndexOf(')') + 2).split(' ');
        if (fields.size() < 2 || fields.at(1).toInt() != mpirun)
            continue;
        if (readBytes(u"/proc/%1/environ"_s.arg(pid)).split('\0').contains(wanted))
            return pid_t(pid);
    }
    return 0;
}

QStringList lines(const QString& text)
{
    return text.split(u'\n', Qt::SkipEmptyParts);
}

} // namespace

class TestMpiSweep : public QObject {
    Q_OBJECT

private:
    QTemporaryDir m_dir;
    QString m_mat; // the planted set
    QString m_overflow; // signed and near 1e152: the CF family cannot take a step on it
    QStringList m_sweep; // sweep arguments without --out
    QJsonArray m_one; // the trials of one process, without their times
    static constexpr int kPerTrial = 6; // 3 methods x 2 cluster counts
    static constexpr int kCells = 3 * kPerTrial; // the sweep of 3 trials

    QString folder(const QString& name) const { return m_dir.filePath(name); }
    // The sweep of the planted set with `trials` trials per c, without --out; the cells of its
    // first trials are those of a sweep with fewer (each cell is seeded by itself).
    QStringList sweepArguments(int trials) const
    {
        return { u"sweep"_s, u"--dataset"_s, m_mat, u"--methods"_s, u"kmeans,nmf,cf"_s,
            u"--clusters"_s, u"2-3"_s, u"--trials"_s, QString::number(trials), u"--min-iter"_s,
            u"200"_s, u"--max-iter"_s, u"200"_s, u"--seed"_s, u"3"_s };
    }

private slots:
    void initTestCase()
    {
        if (!QFileInfo(mpiexec()).isExecutable())
            QSKIP(
                qPrintable(u"mpirun is not installed (%1; Debian: openmpi-bin)"_s.arg(mpiexec())));
        m_mat = m_dir.filePath(u"planted.mat"_s);
        m_overflow = m_dir.filePath(u"overflow.mat"_s);
        QVERIFY(writeDatasetMat(m_mat, plantedFaces(0, 1)).ok());
        QVERIFY(writeDatasetMat(m_overflow, plantedFaces(0.2, 1e153)).ok());
        m_sweep = sweepArguments(3);
        const CliRun one = runCli(
            m_sweep + QStringList { u"--threads"_s, u"1"_s, u"--out"_s, folder(u"one"_s) });
        QVERIFY2(one.exitCode == 0, qPrintable(one.err));
        m_one = withoutTimes(savedTrials(QDir(folder(u"one"_s)).filePath(u"results.json"_s)));
        QCOMPARE(m_one.size(), kCells);
    }

    void distributedEqualsOneProcess_data()
    {
        QTest::addColumn<int>("ranks");
        QTest::newRow("2 ranks") << 2;
        QTest::newRow("3 ranks") << 3;
        QTest::newRow("4 ranks") << 4;
    }
    void distributedEqualsOneProcess()
    {
        QFETCH(int, ranks);
        const QString out = folder(u"np%1"_s.arg(ranks));
        const CliRun run = runMpi({ { ranks, m_sweep + QStringList { u"--out"_s, out } } });
        QVERIFY2(run.exitCode == 0, qPrintable(run.err));
        const QJsonObject results = readJson(QDir(out).filePath(u"results.json"_s));
        QVERIFY(results.value(u"complete"_s).toBool());
        const QJsonArray trials = withoutTimes(results.value(u"trials"_s).toArray());
        QCOMPARE(trials.size(), m_one.size());
        for (qsizetype i = 0; i < trials.size(); ++i)
            QVERIFY2(trials.at(i) == m_one.at(i),
                qPrintable(u"cell %1 differs from one process's:\n%2\n%3"_s.arg(i).arg(
                    QString::fromUtf8(QJsonDocument(trials.at(i).toObject()).toJson()),
                    QString::fromUtf8(QJsonDocument(m_one.at(i).toObject()).toJson()))));
        // Only rank 0 prints: one summary, one progress line per cell, and nothing else (no
        // message of MPI's either).
        QCOMPARE(run.out.count(u"%1 of %1 cells"_s.arg(kCells)), 1);
        const QStringList progress = lines(run.err);
        QCOMPARE(progress.size(), kCells);
        for (const QString& line : progress)
            QVERIFY2(line.startsWith(u'['), qPrintable(run.err));
        QVERIFY(QFileInfo::exists(QDir(out).filePath(u"table.md"_s)));
    }

    // SIGTERM to rank 2 once a cell is saved: what mpirun sends every rank a second after a
    // Ctrl+C (and SIGKILL a second later; Open MPI's odls_base_sigkill_timeout), and Slurm's
    // scancel sends. Signalling mpirun itself would leave the test to race that second. The
    // whole sweep stops, rank 0 says how many cells it kept and results.json holds them; --resume
    // under mpirun, with another number of ranks, completes the sweep, whose cells of the first
    // 3 trials are one process's. (8 trials: the sweep lasts well beyond its first cell.)
    void interruptedRankStopsTheSweep()
    {
        const QString out = folder(u"interrupted"_s);
        const QString results = QDir(out).filePath(u"results.json"_s);
        const QStringList sweep = sweepArguments(8);
        ChildProcess process;
        QVERIFY(startMpi(process, { { 3, sweep + QStringList { u"--out"_s, out } } }));
        QVERIFY2(QTest::qWaitFor(
                     [&] { return !savedTrials(results).isEmpty() || !process.running(); }, 60000),
            "no cell was saved");
        const pid_t rank2 = rankProcess(process.pid(), 2);
        QVERIFY2(rank2 > 0 && process.running(), "the sweep ended before it could be interrupted");
        ::kill(rank2, SIGTERM);
        const CliRun stopped = finish(process);
        QVERIFY2(stopped.exitCode != 0 && stopped.exitCode != -1, qPrintable(stopped.err));
        const QJsonArray saved = withoutTimes(savedTrials(results));
        QVERIFY(!saved.isEmpty());
        QVERIFY2(saved.size() < 8 * kPerTrial, qPrintable(stopped.err));
        QVERIFY2(stopped.err.contains(
                     u"facet-cli: stopped; %1 finished cells are saved"_s.arg(saved.size())),
            qPrintable(stopped.err));

        const CliRun resumed = runMpi({ { 2, sweep + QStringList { u"--resume"_s, out } } });
        QVERIFY2(resumed.exitCode == 0, qPrintable(resumed.err));
        QVERIFY2(resumed.err.startsWith(u"resuming %1: %2 of %3 cells already finished"_s.arg(out)
                                            .arg(saved.size())
                                            .arg(8 * kPerTrial)),
            qPrintable(resumed.err));
        const QJsonArray all = withoutTimes(savedTrials(results));
        QCOMPARE(all.size(), 8 * kPerTrial);
        for (const QJsonValue& t : saved)
            QVERIFY2(all.contains(t), "a cell saved before the interruption changed");
        for (const QJsonValue& t : m_one)
            QVERIFY2(all.contains(t), "a cell differs from one process's");
    }

    // The CF cells of signed data near 1e152 (without L2 normalization) cannot take a step, and
    // their runs throw (as test_cli::runThatNeverIteratedIsNotScored's run): whichever rank draws
    // one stops the sweep. Every rank says so, the exit code is 1, and results.json holds the
    // k-means cells finished before, whole.
    void failingCellEndsEveryRank()
    {
        const QString out = folder(u"failing"_s);
        const QStringList sweep { u"sweep"_s, u"--dataset"_s, m_overflow, u"--methods"_s,
            u"kmeans,cf"_s, u"--clusters"_s, u"2-3"_s, u"--trials"_s, u"3"_s, u"--max-iter"_s,
            u"20"_s, u"--normalize"_s, u"none"_s, u"--seed"_s, u"3"_s, u"--out"_s, out };
        const CliRun run = runMpi({ { 3, sweep } });
        QCOMPARE(run.exitCode, 1);
        const QRegularExpression failed(
            u"a cell failed, the sweep stopped: on rank [0-2] of 3 \\([^)]*\\): cf with "_s);
        QVERIFY2(run.err.contains(u"facet-cli: a cell failed"_s), qPrintable(run.err));
        for (int r = 1; r < 3; ++r)
            QVERIFY2(run.err.contains(u"facet-cli (rank %1 of 3): a cell failed"_s.arg(r)),
                qPrintable(run.err));
        QCOMPARE(run.err.count(failed), 3);
        const QJsonObject results = readJson(QDir(out).filePath(u"results.json"_s));
        QCOMPARE(results.value(u"format"_s).toString(), u"facet-sweep"_s);
        QVERIFY(!results.value(u"complete"_s).toBool());
        for (const QJsonValue& t : results.value(u"trials"_s).toArray())
            QCOMPARE(t.toObject().value(u"method"_s).toString(), u"kmeans"_s);
    }

    // A rank whose arguments do not parse (rank 1: --trials twice) and one that cannot load the
    // data (rank 2: a path that does not exist), in one MPMD job: the sweep stops before any cell,
    // every rank says why (the first of them), neither leaves rank 0 waiting, and results.json is
    // untouched.
    void ranksThatCannotStartChangeNothing()
    {
        const QString out = folder(u"cannot-start"_s);
        const QString results = QDir(out).filePath(u"results.json"_s);
        QVERIFY(QDir().mkpath(out));
        QVERIFY(QFile::copy(QDir(folder(u"one"_s)).filePath(u"results.json"_s), results));
        const QByteArray before = readBytes(results);
        QVERIFY(!before.isEmpty());
        const QStringList resume = m_sweep + QStringList { u"--resume"_s, out };
        QStringList missing = resume;
        missing[missing.indexOf(m_mat)] = folder(u"missing.mat"_s);
        const CliRun run = runMpi({ { 1, resume },
            { 1, resume + QStringList { u"--trials"_s, u"3"_s } }, { 1, missing } });
        QCOMPARE(run.exitCode, 2);
        const QString line = u"rank 1 of 3 (%1) could not take part: --trials is given twice"_s.arg(
            QSysInfo::machineHostName());
        QVERIFY2(run.err.contains(u"facet-cli: "_s + line), qPrintable(run.err));
        for (int r = 1; r < 3; ++r)
            QVERIFY2(run.err.contains(u"facet-cli (rank %1 of 3): "_s.arg(r) + line),
                qPrintable(run.err));
        QCOMPARE(readBytes(results), before);
        QVERIFY(!run.out.contains(u"cells,"_s));
    }
};

#include "facet_test.h"
FACET_TEST_GUILESS_MAIN(TestMpiSweep)
#include "test_mpi_sweep.moc"
