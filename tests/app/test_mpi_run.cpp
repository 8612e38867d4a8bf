// SPDX-License-Identifier: GPL-3.0-or-later
// `mpirun -np N facet-cli run` end to end (issue 40, item 3; docs/cluster.md): the samples split
// over N = 2, 3 and 4 ranks (oversubscribed on this machine; 301 samples, so every split is
// uneven: 192 + 109, 128 + 128 + 45, 128 + 64 + 64 + 45) give the factors of one process to 1e-10
// relative, for nmf (mu and hals), cnmf, cf, lcf and ccf (labelled classes spread over the
// ranks; CCF from its default nmf start and from the random one), gnmf and lccf (the kNN graph
// built across the ranks); a rank started with other
// arguments, or killed mid-solve, ends every rank with a clear error and leaves the outputs that
// were there; a method that does not run distributed is refused with the reason. Registered only
// when facet-cli is built with MPI (FACET_MPI); skipped when mpirun is not installed.
#include "cli_process.h"
#include "core/random.h"
#include "data/mat_writer.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QtTest>

#include <matio.h>

#include <csignal>
#include <map>
#include <sys/types.h>
#include <utility>

#ifndef FACET_MPIEXEC
#error "test_mpi_run.cpp needs FACET_MPIEXEC (tests/app/CMakeLists.txt sets it)"
#endif

using namespace facet;
using namespace facet::testing;
using namespace Qt::StringLiterals;

namespace {

// 4 planted classes in 8x8 images, 301 samples (not a multiple of 2, 3, 4 or 64).
Dataset planted301()
{
    Dataset d;
    d.name = u"Planted301"_s;
    Rng rng(41);
    const int classes = 4, n = 301, m = 64;
    d.X = rng.uniformMatrix(m, n);
    for (int j = 0; j < n; ++j) {
        d.X.block((m / classes) * (j % classes), j, m / classes, 1).array() += 2.0;
        d.labels.push_back(j % classes);
    }
    d.classNames = { u"a"_s, u"b"_s, u"c"_s, u"d"_s };
    d.height = 8;
    d.width = 8;
    return d;
}

// As test_mpi_sweep.cpp: root allowed, shared memory only, OpenMP's passive wait.
const QStringList kRunEnvironment { u"OMPI_ALLOW_RUN_AS_ROOT=1"_s,
    u"OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1"_s, u"OMPI_MCA_btl=self,vader"_s,
    u"OMPI_MCA_rmaps_base_oversubscribe=1"_s, u"OMP_WAIT_POLICY=passive"_s };

// `mpirun -np N facet-cli ARGS` (or several such groups, MPMD).
CliRun runDistributed(const QList<std::pair<int, QStringList>>& groups)
{
    QStringList arguments { u"--oversubscribe"_s, u"--bind-to"_s, u"none"_s };
    for (const auto& group : groups) {
        if (arguments.size() > 3)
            arguments << u":"_s;
        arguments << u"-np"_s << QString::number(group.first) << cliPath() << group.second;
    }
    ChildProcess process;
    process.setEnvironment(kRunEnvironment);
    if (!process.start(QStringLiteral(FACET_MPIEXEC), arguments))
        return {};
    if (!process.waitForFinished(120000)) {
        process.kill(SIGTERM);
        process.waitForFinished(10000);
        return {};
    }
    return { process.exitCode(), process.out(), process.err() };
}

// The double matrices of a MAT file, by name (read by matio, not by Facet's loader).
std::map<QString, Matrix> readMatrices(const QString& path)
{
    std::map<QString, Matrix> out;
    mat_t* mat = Mat_Open(QFile::encodeName(path).constData(), MAT_ACC_RDONLY);
    if (!mat)
        return out;
    while (matvar_t* var = Mat_VarReadNext(mat)) {
        if (var->class_type == MAT_C_DOUBLE && var->rank == 2)
            out[QString::fromUtf8(var->name)]
                = Eigen::Map<const Matrix>(static_cast<const double*>(var->data),
                    Eigen::Index(var->dims[0]), Eigen::Index(var->dims[1]));
        Mat_VarFree(var);
    }
    Mat_Close(mat);
    return out;
}

// The process id of the rank `rank` of an mpirun job whose command line holds `marker`: Open MPI
// gives each rank its number in OMPI_COMM_WORLD_RANK. 0 when none is found.
pid_t rankProcess(int rank, const QString& marker)
{
    const QByteArray wanted = "OMPI_COMM_WORLD_RANK=" + QByteArray::number(rank);
    for (const QString& entry : QDir(u"/proc"_s).entryList(QDir::Dirs | QDir::NoDotAndDotDot)) {
        bool numeric = false;
        const int pid = entry.toInt(&numeric);
        if (!numeric)
            continue;
        QFile cmdline(u"/proc/%1/cmdline"_s.arg(pid)), environ(u"/proc/%1/environ"_s.arg(pid));
        if (!cmdline.open(QIODevice::ReadOnly) || !environ.open(QIODevice::ReadOnly))
            continue;
        const QByteArray command = cmdline.readAll();
        if (!command.contains(QFile::encodeName(cliPath())) || !command.contains(marker.toUtf8()))
            continue;
        if (environ.readAll().split('\0').contains(wanted))
            return pid_t(pid);
    }
    return 0;
}

} // namespace

class TestMpiRun : public QObject {
    Q_OBJECT

private:
    QTemporaryDir m_dir;
    QString m_mat;
    QString m_mat73; // the same variables in a MAT 7.3 (HDF5) file

    QStringList runArguments(const QString& method, const QString& algorithm) const
    {
        QStringList a { u"run"_s, u"--dataset"_s, m_mat, u"--method"_s, method, u"--rank"_s, u"4"_s,
            u"--seed"_s, u"5"_s, u"--min-iter"_s, u"60"_s, u"--max-iter"_s, u"60"_s };
        if (!algorithm.isEmpty())
            a << u"--algorithm"_s << algorithm;
        return a;
    }

private slots:
    void initTestCase()
    {
        if (!QFileInfo(QStringLiteral(FACET_MPIEXEC)).isExecutable())
            QSKIP("mpirun is not installed (Debian: openmpi-bin)");
        m_mat = m_dir.filePath(u"planted301.mat"_s);
        QVERIFY(writeDatasetMat(m_mat, planted301()).ok());
        m_mat73 = m_dir.filePath(u"planted301-v73.mat"_s);
        mat_t* file = Mat_CreateVer(QFile::encodeName(m_mat73).constData(), nullptr, MAT_FT_MAT73);
        QVERIFY(file);
        // fea x 400: values past 255, which the preparation divides by the whole set's largest,
        // not each rank's.
        for (auto& [name, values] : readMatrices(m_mat)) {
            if (name == u"fea"_s)
                values *= 400;
            std::size_t dims[2] = { std::size_t(values.rows()), std::size_t(values.cols()) };
            matvar_t* var = Mat_VarCreate(name.toUtf8().constData(), MAT_C_DOUBLE, MAT_T_DOUBLE, 2,
                dims, const_cast<double*>(values.data()), 0);
            QCOMPARE(Mat_VarWrite(file, var, MAT_COMPRESSION_NONE), 0);
            Mat_VarFree(var);
        }
        Mat_Close(file);
    }

    void distributedEqualsOneProcess_data()
    {
        QTest::addColumn<int>("ranks");
        QTest::addColumn<QString>("method");
        QTest::addColumn<QString>("algorithm");
        QTest::addColumn<QStringList>("extra");
        QTest::addColumn<QString>("source"); // "" the Level 5 file, which rank 0 reads
        const QStringList none;
        const QString level5;
        // 30 % labelled: every rank holds labelled samples of every class, and the class rows of Z
        // sum their samples over the ranks.
        const QStringList labelled { u"--labeled-fraction"_s, u"0.3"_s };
        QTest::newRow("nmf mu, 2 ranks") << 2 << u"nmf"_s << u"mu"_s << none << level5;
        QTest::newRow("nmf hals, 3 ranks") << 3 << u"nmf"_s << u"hals"_s << none << level5;
        QTest::newRow("nmf hals, 4 ranks") << 4 << u"nmf"_s << u"hals"_s << none << level5;
        QTest::newRow("cnmf, 3 ranks") << 3 << u"cnmf"_s << QString() << labelled << level5;
        QTest::newRow("cf, 3 ranks") << 3 << u"cf"_s << QString() << none << level5;
        QTest::newRow("lcf, 4 ranks") << 4 << u"lcf"_s << QString() << none << level5;
        // CCF's default start is a short NMF run, itself distributed.
        QTest::newRow("ccf, nmf start, 2 ranks")
            << 2 << u"ccf"_s << QString() << labelled << level5;
        // 3 labelled per class: on 4 ranks some hold no labelled sample of a class at all.
        QTest::newRow("ccf, random start, 4 ranks")
            << 4 << u"ccf"_s << QString()
            << QStringList { u"--labeled-per-class"_s, u"3"_s, u"--init"_s, u"random"_s } << level5;
        // The kNN graph built across the ranks (a ring pass of X's blocks), V's halo rows
        // exchanged every iteration.
        QTest::newRow("gnmf, 3 ranks") << 3 << u"gnmf"_s << QString() << none << level5;
        QTest::newRow("lccf, heat weights, 4 ranks")
            << 4 << u"lccf"_s << QString() << QStringList { u"--weight"_s, u"heat"_s } << level5;
        // Each rank reads its own columns (cli/distributed_data.h): a MAT 7.3 file's hyperslab,
        // or its part of a generated set; the data's SHA-256 is chained from rank to rank.
        QTest::newRow("nmf mu, MAT 7.3, 3 ranks") << 3 << u"nmf"_s << u"mu"_s << none << u"v7.3"_s;
        QTest::newRow("gnmf, MAT 7.3, 4 ranks") << 4 << u"gnmf"_s << QString() << none << u"v7.3"_s;
        QTest::newRow("cnmf, MAT 7.3, 2 ranks")
            << 2 << u"cnmf"_s << QString() << labelled << u"v7.3"_s;
        // A rank above one rank's samples (75 or 76) but within n: checked against the whole n.
        QTest::newRow("lccf, rank 100, 4 ranks")
            << 4 << u"lccf"_s << QString() << QStringList { u"--rank"_s, u"100"_s } << level5;
        QTest::newRow("cf, generated, 3 ranks")
            << 3 << u"cf"_s << QString() << none << u"gen:301x64"_s;
    }
    void distributedEqualsOneProcess()
    {
        QFETCH(int, ranks);
        QFETCH(QString, method);
        QFETCH(QString, algorithm);
        QFETCH(QStringList, extra);
        QFETCH(QString, source);
        const QString tag = u"%1-%2-%3-%4-%5"_s.arg(method, algorithm)
                                .arg(ranks)
                                .arg(extra.size())
                                .arg(QString(source).replace(u':', u'-'));
        const QString oneMat = m_dir.filePath(tag + u"-one.mat"_s);
        const QString mpiMat = m_dir.filePath(tag + u"-mpi.mat"_s);
        const QString mpiJson = m_dir.filePath(tag + u"-mpi.json"_s);
        QStringList args = runArguments(method, algorithm);
        if (const qsizetype rank = extra.indexOf(u"--rank"_s); rank >= 0) {
            args[args.indexOf(u"--rank"_s) + 1] = extra[rank + 1];
            extra.remove(rank, 2);
        }
        args += extra;
        if (!source.isEmpty())
            args[2] = source == u"v7.3"_s ? m_mat73 : source;
        const CliRun one = runCli(args
            + QStringList { u"--threads"_s, u"1"_s, u"--json"_s,
                m_dir.filePath(tag + u"-one.json"_s), u"--factors"_s, oneMat });
        QVERIFY2(one.exitCode == 0, qPrintable(one.err));
        const CliRun run = runDistributed({ { ranks,
            args
                + QStringList {
                    u"--threads"_s, u"1"_s, u"--json"_s, mpiJson, u"--factors"_s, mpiMat } } });
        QVERIFY2(run.exitCode == 0, qPrintable(run.err));

        const std::map<QString, Matrix> a = readMatrices(oneMat), b = readMatrices(mpiMat);
        for (const QString& name : { u"U"_s, u"V"_s, u"W"_s }) {
            QCOMPARE(a.count(name), b.count(name));
            if (!a.count(name))
                continue;
            const Matrix& x = a.at(name);
            const Matrix& y = b.at(name);
            QCOMPARE(y.rows(), x.rows());
            QCOMPARE(y.cols(), x.cols());
            const double relative = (x - y).norm() / x.norm();
            QVERIFY2(relative <= 1e-10,
                qPrintable(u"%1 differs by %2 relative"_s.arg(name).arg(relative)));
        }
        // The same samples labelled, drawn on rank 0 as one process draws them.
        const QJsonArray known = readJson(mpiJson).value(u"known_labels"_s).toArray();
        QCOMPARE(known, readJson(m_dir.filePath(tag + u"-one.json"_s)).value(u"known_labels"_s));
        const bool labelled = extra.join(u' ').contains(u"--labeled"_s);
        QCOMPARE(known.isEmpty(), !labelled || method == u"nmf"_s);
        // The JSON says how the samples were split and what the ranks reduced.
        const QJsonObject d = readJson(mpiJson).value(u"distributed"_s).toObject();
        QCOMPARE(d.value(u"ranks"_s).toInt(), ranks);
        int samples = 0;
        for (const QJsonValue& c : d.value(u"samples_per_rank"_s).toArray())
            samples += c.toInt();
        QCOMPARE(samples, 301);
        QCOMPARE(d.value(u"columns_read_by"_s).toString(),
            source.isEmpty() ? u"rank 0"_s : u"each rank"_s);
        // Rank 0 described data it never held whole (each rank read its part) as one process
        // does: the same digest, values and class sizes.
        const QJsonObject oneData
            = readJson(m_dir.filePath(tag + u"-one.json"_s)).value(u"dataset"_s).toObject();
        const QJsonObject mpiData = readJson(mpiJson).value(u"dataset"_s).toObject();
        for (const QString& key : { u"sha256"_s, u"summary"_s, u"samples"_s, u"notes"_s })
            QVERIFY2(mpiData.value(key) == oneData.value(key), qPrintable(key));
        QVERIFY(d.value(u"reduced_bytes_per_iteration"_s).toDouble() > 0);
        // Point to point only where a graph joins samples across the ranks.
        const bool graph = method == u"gnmf"_s || method == u"lccf"_s;
        for (const QString& key : { u"graph_setup_exchanged_bytes_per_rank"_s,
                 u"exchanged_bytes_per_iteration_per_rank"_s }) {
            const QJsonArray perRank = d.value(key).toArray();
            QCOMPARE(perRank.size(), ranks);
            for (const QJsonValue& bytes : perRank)
                QVERIFY2((bytes.toDouble() > 0) == graph, qPrintable(key));
        }
    }

    // A rank with other arguments (MPMD: rank 1 another seed) ends every rank before anything is
    // written: the JSON that was there stays. A method that does not split its samples is refused.
    void failingRankChangesNothing()
    {
        const QString json = m_dir.filePath(u"kept.json"_s);
        const QByteArray good = "{\"good\": true}\n";
        {
            QFile f(json);
            QVERIFY(f.open(QIODevice::WriteOnly));
            f.write(good);
        }
        const QStringList args
            = runArguments(u"nmf"_s, u"mu"_s) + QStringList { u"--json"_s, json };
        QStringList otherSeed = args;
        otherSeed[otherSeed.indexOf(u"--seed"_s) + 1] = u"6"_s;
        const CliRun other = runDistributed({ { 1, args }, { 1, otherSeed } });
        QCOMPARE(other.exitCode, 1);
        QVERIFY2(other.err.contains(u"rank 1 of 2 was started with other arguments than rank 0"_s),
            qPrintable(other.err));
        QCOMPARE(readBytes(json), good);

        const CliRun refused = runDistributed({ { 2,
            QStringList { u"run"_s, u"--dataset"_s, m_mat, u"--method"_s, u"semignmf"_s,
                u"--rank"_s, u"4"_s, u"--labeled-fraction"_s, u"0.3"_s, u"--json"_s, json } } });
        QCOMPARE(refused.exitCode, 2);
        QVERIFY2(
            refused.err.contains(u"semignmf does not run distributed"_s), qPrintable(refused.err));
        QCOMPARE(readBytes(json), good);
        const CliRun sweeps = runDistributed({ { 2,
            QStringList { u"run"_s, u"--dataset"_s, m_mat, u"--method"_s, u"gnmf"_s,
                u"--algorithm"_s, u"hals"_s, u"--rank"_s, u"4"_s, u"--json"_s, json } } });
        QCOMPARE(sweeps.exitCode, 2);
        QVERIFY2(sweeps.err.contains(u"the graph term's HALS sweeps"_s), qPrintable(sweeps.err));
        QCOMPARE(readBytes(json), good);

        // The method's own checks run on rank 0 before the columns go out: one message, as one
        // process gives it, and no rank aborts.
        const CliRun invalid = runDistributed({ { 2,
            QStringList { u"run"_s, u"--dataset"_s, m_mat, u"--method"_s, u"cnmf"_s,
                u"--algorithm"_s, u"hals"_s, u"--rank"_s, u"4"_s, u"--labeled-fraction"_s, u"0.3"_s,
                u"--json"_s, json } } });
        QCOMPARE(invalid.exitCode, 1);
        QCOMPARE(invalid.err.count(u"cnmf runs the multiplicative rules"_s), 1);
        QVERIFY2(!invalid.err.contains(u"MPI_ABORT"_s), qPrintable(invalid.err));
        QCOMPARE(readBytes(json), good);

        // Where each rank reads its own columns, the ranks agree on a failure to read or on the
        // method's refusal, and the lowest failing rank says it once.
        const CliRun unread = runDistributed({ { 3,
            QStringList { u"run"_s, u"--dataset"_s, m_mat73, u"--data-var"_s, u"nope"_s,
                u"--method"_s, u"nmf"_s, u"--rank"_s, u"4"_s, u"--json"_s, json } } });
        QCOMPARE(unread.exitCode, 1);
        QCOMPARE(unread.err.count(u"no variable 'nope' for the data"_s), 1);
        QVERIFY2(!unread.err.contains(u"MPI_ABORT"_s), qPrintable(unread.err));
        const CliRun tooLarge = runDistributed({ { 3,
            QStringList { u"run"_s, u"--dataset"_s, m_mat73, u"--method"_s, u"lccf"_s, u"--rank"_s,
                u"302"_s, u"--json"_s, json } } });
        QCOMPARE(tooLarge.exitCode, 1);
        QCOMPARE(tooLarge.err.count(u"rank 302 exceeds the number of samples n = 301"_s), 1);
        QVERIFY2(!tooLarge.err.contains(u"MPI_ABORT"_s), qPrintable(tooLarge.err));
        QCOMPARE(readBytes(json), good);
    }

    // A rank that dies mid-solve (a node lost: SIGKILL, no chance to clean up) ends the whole
    // job: mpirun stops the other ranks, which were waiting for it in a reduction, says which
    // rank died, and exits non-zero; rank 0 writes only after the solve, so the outputs that
    // were there stay.
    void killedRankStopsEveryRank()
    {
        const QString json = m_dir.filePath(u"kept-after-kill.json"_s);
        const QString factors = m_dir.filePath(u"kept-after-kill.mat"_s);
        const QByteArray good = "{\"good\": true}\n";
        for (const QString& path : { json, factors }) {
            QFile f(path);
            QVERIFY(f.open(QIODevice::WriteOnly));
            f.write(good);
        }
        QStringList arguments { u"--oversubscribe"_s, u"--bind-to"_s, u"none"_s, u"-np"_s, u"3"_s,
            cliPath(), u"run"_s, u"--dataset"_s, m_mat, u"--method"_s, u"nmf"_s, u"--algorithm"_s,
            u"mu"_s, u"--rank"_s, u"4"_s, u"--tol"_s, u"0"_s, u"--max-iter"_s, u"100000000"_s,
            u"--threads"_s, u"1"_s, u"--json"_s, json, u"--factors"_s, factors };
        ChildProcess process;
        process.setEnvironment(kRunEnvironment);
        QVERIFY(process.start(QStringLiteral(FACET_MPIEXEC), arguments));
        pid_t victim = 0;
        QTRY_VERIFY_WITH_TIMEOUT((victim = rankProcess(1, json)) != 0, 60000);
        QTest::qWait(1500); // well inside the iterations
        QVERIFY(process.running());
        QCOMPARE(::kill(victim, SIGKILL), 0);
        if (!process.waitForFinished(60000)) {
            process.kill(SIGKILL);
            QFAIL("mpirun did not end after one of its ranks was killed");
        }
        QVERIFY(process.exitCode() != 0);
        QVERIFY2(process.err().contains(u"rank 1"_s) || process.out().contains(u"rank 1"_s),
            qPrintable(process.err()));
        QCOMPARE(readBytes(json), good);
        QCOMPARE(readBytes(factors), good);
        for (int rank = 0; rank < 3; ++rank)
            QCOMPARE(rankProcess(rank, json), pid_t(0)); // no rank left behind
    }
};

#include "facet_test.h"
FACET_TEST_GUILESS_MAIN(TestMpiRun)
#include "test_mpi_run.moc"
