// SPDX-License-Identifier: GPL-3.0-or-later
// Faults during work (RELIABILITY.md): 200 cancels of the solve worker at random moments, NaN and
// Inf data, sizes beyond memory, writes to a full disk or a read-only folder, and a sweep killed
// with SIGKILL and resumed. Each must end in a consistent result or a clear error, never a crash,
// a leak (the asan preset runs this) or a lost file.
#include "cli_process.h"
#include "data/mat_writer.h"
#include "jobs/solve_job.h"
#include "util/atomic_write.h"

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLockFile>
#include <QTemporaryDir>
#include <QThread>
#include <QtTest>

#include <cerrno>
#include <csignal>
#include <cstring>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

using namespace facet;
using namespace facet::testing;
using namespace Qt::StringLiterals;

namespace {

// m x n non-negative data in three planted groups, labelled.
std::shared_ptr<const Dataset> plantedData(Eigen::Index m, Eigen::Index n, std::uint64_t seed)
{
    auto d = std::make_shared<Dataset>();
    Rng rng(seed);
    d->X = rng.uniformMatrix(m, n);
    for (Eigen::Index j = 0; j < n; ++j) {
        d->X.block((m / 3) * (j % 3), j, m / 3, 1).array() += Scalar(2);
        d->labels.push_back(int(j % 3));
    }
    d->classNames = { u"a"_s, u"b"_s, u"c"_s };
    d->height = 1;
    d->width = int(m);
    return d;
}

RunOptions faultOptions(const std::string& method, int rank, int maxIter)
{
    RunOptions o;
    o.method = method;
    o.params.rank = rank;
    o.driver.maxIter = maxIter;
    o.driver.tol = 0;
    o.cluster.replicates = 3;
    return o;
}

// The solve worker on its own thread, as MainWindow runs it. Its answers are collected on this
// (the GUI) thread through queued connections, as MainWindow receives them: a QSignalSpy would
// connect directly and append on the worker thread while the test reads (a race TSan reports).
struct Worker {
    QThread thread;
    SolveJob* job = new SolveJob;
    QObject receiver;
    QList<std::pair<quint64, RunResult>> finished;
    QList<std::pair<quint64, QString>> failed;
    Worker()
    {
        job->moveToThread(&thread);
        QObject::connect(&thread, &QThread::finished, job, &QObject::deleteLater);
        QObject::connect(
            job, &SolveJob::finished, &receiver, [this](quint64 id, const RunResult& result) {
                finished.append({ id, result });
            });
        QObject::connect(
            job, &SolveJob::failed, &receiver, [this](quint64 id, const QString& message) {
                failed.append({ id, message });
            });
        thread.start();
    }
    qsizetype answers() const { return finished.size() + failed.size(); }
    ~Worker()
    {
        job->cancel();
        stopJobThread(thread);
    }
};

QString failureOf(Worker& worker, SolveRequest request)
{
    const qsizetype before = worker.answers();
    worker.job->submit(std::move(request));
    if (!QTest::qWaitFor([&] { return worker.answers() > before; }, 60000))
        return u"(no answer)"_s;
    return worker.failed.isEmpty() ? u"(finished)"_s : worker.failed.last().second;
}

// Makes writes past `bytes` fail with EFBIG, as a full disk fails them, until destroyed.
class FileSizeLimit {
public:
    explicit FileSizeLimit(rlim_t bytes)
    {
        std::signal(SIGXFSZ, SIG_IGN); // report EFBIG instead of killing the process
        getrlimit(RLIMIT_FSIZE, &m_old);
        rlimit limit = m_old;
        limit.rlim_cur = bytes;
        setrlimit(RLIMIT_FSIZE, &limit);
    }
    ~FileSizeLimit() { setrlimit(RLIMIT_FSIZE, &m_old); }

private:
    rlimit m_old {};
};

QJsonArray trialsIn(const QString& resultsJson)
{
    return readJson(resultsJson).value(u"trials"_s).toArray();
}

} // namespace

class TestFaults : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void initTestCase() { registerSolveJobMetaTypes(); }

    // Cancel at a random moment (0-4 ms after submitting) 200 times in a row, through the real
    // worker thread: every run answers once, with its run id, finite factors of the right
    // shapes and a history as long as its iteration count; or, when the cancel came during
    // gnmf's or lccf's kNN graph, with no factors and the stage named.
    void cancelTheWorker200Times()
    {
        Worker worker;
        const auto data = plantedData(90, 120, 1);
        const std::array<std::string, 4> methods { "nmf", "cf", "gnmf", "lccf" };
        Rng rng(2026);
        int cancelled = 0;
        for (int i = 0; i < 200; ++i) {
            SolveRequest request;
            request.runId = quint64(i + 1);
            request.data = data;
            request.options = faultOptions(methods[std::size_t(i) % methods.size()], 6, 2000);
            request.options.driver.seed = std::uint64_t(i);
            worker.job->submit(request);
            QThread::usleep(static_cast<unsigned long>(rng.below(4000)));
            worker.job->cancel();
            QTRY_COMPARE_WITH_TIMEOUT(worker.answers(), i + 1, 60000);
            QVERIFY2(worker.failed.isEmpty(),
                qPrintable(worker.failed.isEmpty() ? QString() : worker.failed.first().second));
            const auto& [id, result] = worker.finished.last();
            const Factorization& f = result.factorization;
            QCOMPARE(id, request.runId);
            QVERIFY(f.stopReason == StopReason::Cancelled || f.stopReason == StopReason::Converged);
            cancelled += f.stopReason == StopReason::Cancelled;
            if (!result.cancelledDuring.empty()) {
                QCOMPARE(result.cancelledDuring, std::string("the nearest-neighbour search"));
                QCOMPARE(f.stopReason, StopReason::Cancelled);
                QVERIFY(f.V.size() == 0 && f.basis.size() == 0 && f.history.empty());
                QVERIFY(result.predicted.empty());
                continue;
            }
            QCOMPARE(int(f.history.size()), f.iterations);
            QCOMPARE(f.V.rows(), data->samples());
            QCOMPARE(f.V.cols(), 6);
            QCOMPARE(f.basis.rows(), data->features());
            QVERIFY(f.V.allFinite() && f.basis.allFinite());
            QCOMPARE(qsizetype(result.predicted.size()), qsizetype(data->samples()));
        }
        QVERIFY2(cancelled > 150, qPrintable(QString::number(cancelled))); // most were mid-run
    }

    void nonFiniteDataFailsNamingTheSample_data()
    {
        QTest::addColumn<QString>("method");
        QTest::addColumn<double>("value");
        for (const char* method : { "nmf", "cf", "lccf", "gnmf", "kmeans", "pca" }) {
            QTest::addRow("%s NaN", method) << QString::fromLatin1(method) << qQNaN();
            QTest::addRow("%s Inf", method) << QString::fromLatin1(method) << qInf();
        }
    }
    void nonFiniteDataFailsNamingTheSample()
    {
        QFETCH(QString, method);
        QFETCH(double, value);
        auto data = std::make_shared<Dataset>(*plantedData(12, 30, 2));
        data->X(6, 20) = Scalar(value); // sample 21, feature 7
        Worker worker;
        SolveRequest request;
        request.runId = 7;
        request.data = data;
        request.options = faultOptions(method.toStdString(), 3, 50);
        const QString message = failureOf(worker, request);
        QVERIFY2(message.contains(u"sample 21"_s) || message.contains(u"sample (column) 21"_s),
            qPrintable(message));
        QVERIFY2(message.contains(u"feature 7"_s), qPrintable(message));
    }

    // Asked-for sizes that cannot fit are refused before anything is allocated, with the number.
    void sizesBeyondMemoryAreRefusedUpFront()
    {
        Worker worker;
        SolveRequest tooHighRank;
        tooHighRank.data = plantedData(12, 30, 3);
        tooHighRank.options = faultOptions("nmf", 500, 10);
        const QString rank = failureOf(worker, tooHighRank);
        QVERIFY2(rank.contains(u"500"_s) && rank.contains(u"30"_s), qPrintable(rank));

        // 40000 samples: a dense 40000 x 40000 Gaussian kernel would take 12.8 GB.
        SolveRequest kernel;
        kernel.data = plantedData(3, 40000, 4);
        kernel.options = faultOptions("cf", 3, 10);
        kernel.options.params.kernel = KernelKind::Gaussian;
        kernel.options.params.sigma = 1.0;
        const QString dense = failureOf(worker, kernel);
        QVERIFY2(dense.contains(u"12800000000 bytes"_s) && dense.contains(u"budget"_s),
            qPrintable(dense));
    }

    // A full disk (writes failing with EFBIG past 4 KiB): every writer reports the file and
    // leaves the old file as it was, with no temporary file beside it.
    void fullDiskKeepsTheOldFile()
    {
        QTemporaryDir dir;
        const QString json = dir.filePath(u"results.json"_s);
        // BMP, not PNG: Qt 6.4's PNG writer leaks its row buffer when libpng fails (it longjmps
        // past the delete), which LeakSanitizer would report here (RELIABILITY.md).
        const QString png = dir.filePath(u"basis.bmp"_s);
        const QString mat = dir.filePath(u"export.mat"_s);
        const QString factors = dir.filePath(u"factors.mat"_s);
        for (const QString& path : { json, png, mat, factors })
            QVERIFY(writeBytesFile(path, "old contents").ok());
        QImage noise(400, 400, QImage::Format_RGB888);
        Rng rng(5);
        for (int y = 0; y < noise.height(); ++y)
            for (int x = 0; x < noise.width() * 3; ++x)
                noise.scanLine(y)[x] = uchar(rng.below(256));
        const auto data = plantedData(60, 200, 6);
        // 200 x 6 doubles of V alone do not fit in 4 KiB, compressed or not.
        const RunResult run = runAndCluster(data->X, data->labels, faultOptions("cf", 6, 20));
        QString bytesError, smallError, imageError, matError, factorsError;
        {
            const FileSizeLimit limit(4096);
            const Result<bool> a = writeBytesFile(json, QByteArray(100000, 'x'));
            // Smaller than Qt's 16 KiB write buffer: the write fails only when commit flushes
            // it, which Qt 6.4's QSaveFile::commit ignored (it renamed a 0-byte file over the
            // target and returned true).
            const Result<bool> small = writeBytesFile(json, QByteArray(6000, 'y'));
            smallError = small.ok() ? QString() : small.error();
            const Result<bool> b = writeImageFile(png, noise);
            const Result<bool> c = writeDatasetMat(mat, *data);
            const Result<bool> d = writeFactorsMat(factors, *data, run, QJsonObject {});
            bytesError = a.ok() ? QString() : a.error();
            imageError = b.ok() ? QString() : b.error();
            matError = c.ok() ? QString() : c.error();
            factorsError = d.ok() ? QString() : d.error();
        }
        QVERIFY2(!bytesError.isEmpty(), "writeBytesFile reported success on a full disk");
        QVERIFY2(!smallError.isEmpty(), "writeBytesFile reported success on a full disk");
        QVERIFY2(smallError.contains(json), qPrintable(smallError));
        QVERIFY2(!imageError.isEmpty(), "writeImageFile reported success on a full disk");
        QVERIFY2(bytesError.contains(json), qPrintable(bytesError));
        QVERIFY2(imageError.contains(png), qPrintable(imageError));
        QCOMPARE(readBytes(json), QByteArray("old contents"));
        QCOMPARE(readBytes(png), QByteArray("old contents"));
        // matio ignores failed fwrite calls; writeDatasetMat reads the temporary file back
        // before the rename, so a cut-off file never replaces the old one.
        QVERIFY2(!matError.isEmpty(), "writeDatasetMat reported success on a full disk");
        QCOMPARE(readBytes(mat), QByteArray("old contents"));
        QVERIFY2(factorsError.contains(u"could not be written completely"_s)
                || factorsError.contains(u"disk full"_s),
            qPrintable(factorsError));
        QCOMPARE(readBytes(factors), QByteArray("old contents"));
        QCOMPARE(QDir(dir.path()).entryList(QDir::Files | QDir::Hidden).size(), 4);
    }

    // A run's outputs are written all or none (issue 36, item 10): a --factors that cannot be
    // written (the file size limit, as a full disk) after the JSON could be left the JSON of a
    // run that looked finished. Now every output is staged first and none replaces its old file.
    void failedOutputLeavesEveryOldFile()
    {
        QTemporaryDir dir;
        const QString mat = dir.filePath(u"planted.mat"_s);
        // 3000 features at rank 4: U alone is 96,000 bytes of doubles that hardly compress,
        // against a JSON of a few thousand for 30 samples.
        QVERIFY(writeDatasetMat(mat, *plantedData(3000, 30, 8)).ok());
        const QString json = dir.filePath(u"run.json"_s);
        const QString factors = dir.filePath(u"factors.mat"_s);
        const QStringList run { u"run"_s, u"--dataset"_s, mat, u"--method"_s, u"nmf"_s, u"--rank"_s,
            u"4"_s, u"--max-iter"_s, u"10"_s, u"--threads"_s, u"1"_s, u"--json"_s, json,
            u"--factors"_s, factors };
        const CliRun whole = runCli(run);
        QVERIFY2(whole.exitCode == 0, qPrintable(whole.err));
        const qint64 jsonSize = QFileInfo(json).size();
        const qint64 factorsSize = QFileInfo(factors).size();
        QVERIFY2(factorsSize > 2 * jsonSize, qPrintable(u"%1 %2"_s.arg(jsonSize).arg(factorsSize)));
        for (const QString& path : { json, factors })
            QVERIFY(writeBytesFile(path, "old contents").ok());
        CliRun cut;
        {
            const FileSizeLimit limit(rlim_t((jsonSize + factorsSize) / 2)); // the JSON fits
            cut = runCli(run);
        }
        QCOMPARE(cut.exitCode, 1);
        QCOMPARE(readBytes(json), QByteArray("old contents"));
        QCOMPARE(readBytes(factors), QByteArray("old contents"));
        QVERIFY2(cut.err.contains(factors) && cut.err.contains(u"no output was written"_s),
            qPrintable(cut.err));
        QCOMPARE(QDir(dir.path()).entryList(QDir::Files | QDir::Hidden).size(), 3); // no temporary
    }

    // An output path that names a device or a FIFO is refused: the rename of the temporary
    // file would have replaced it with a plain file (/dev/null, as root).
    void nonRegularTargetIsRefused()
    {
        QTemporaryDir dir;
        const QString fifo = dir.filePath(u"pipe"_s);
        QCOMPARE(::mkfifo(QFile::encodeName(fifo).constData(), 0600), 0);
        const Result<bool> a = writeBytesFile(fifo, "{}");
        QVERIFY(!a.ok());
        QVERIFY2(a.error().contains(u"not a regular file"_s), qPrintable(a.error()));
        const Result<bool> b = writeDatasetMat(fifo, *plantedData(6, 9, 7));
        QVERIFY(!b.ok());
        QVERIFY2(b.error().contains(u"not a regular file"_s), qPrintable(b.error()));
        QVERIFY(!writeImageFile(fifo, QImage(4, 4, QImage::Format_RGB888)).ok());
        QFileInfo info(fifo);
        QVERIFY(!info.isFile() && info.exists()); // still the FIFO
        const Result<bool> c = writeBytesFile(u"/dev/null"_s, "{}");
        QVERIFY(!c.ok());
        QVERIFY(!QFileInfo(u"/dev/null"_s).isFile());
        // A new MAT file gets 0666 less the umask, as the JSON and image outputs do (it was
        // left at QTemporaryFile's 0600).
        const mode_t old = ::umask(022);
        const QString mat = dir.filePath(u"new.mat"_s);
        QVERIFY(writeDatasetMat(mat, *plantedData(6, 9, 7)).ok());
        ::umask(old);
        QVERIFY(QFileInfo(mat).permissions().testFlag(QFileDevice::ReadOther));
        QVERIFY(!QFileInfo(mat).permissions().testFlag(QFileDevice::WriteOther));
    }

    // A folder the process cannot write: a clear error naming the file. As root, permission bits
    // do not stop writes, so sysfs (which never allows new files) stands in for it.
    void readOnlyFolderIsAClearError()
    {
        QTemporaryDir dir;
        QString folder = dir.filePath(u"locked"_s);
        QVERIFY(QDir().mkpath(folder));
        QFile::setPermissions(folder, QFileDevice::ReadOwner | QFileDevice::ExeOwner);
        if (geteuid() == 0)
            folder = u"/sys"_s;
        const QString json = folder + u"/results.json"_s;
        const Result<bool> a = writeBytesFile(json, "{}");
        QVERIFY(!a.ok());
        QVERIFY2(a.error().contains(json), qPrintable(a.error()));
        const Result<bool> b = writeDatasetMat(folder + u"/export.mat"_s, *plantedData(6, 9, 7));
        QVERIFY(!b.ok());
        QVERIFY2(b.error().contains(u"export.mat"_s), qPrintable(b.error()));
        QVERIFY(!QFile::exists(json));
        QFile::setPermissions(dir.filePath(u"locked"_s),
            QFileDevice::ReadOwner | QFileDevice::WriteOwner | QFileDevice::ExeOwner);
    }

    // A results.json that cannot be saved (here: the file size limit, as a full disk) stops
    // the sweep at once with the system's reason, and the last good file stays (issue 36, item 9).
    void sweepStopsWhenItCannotSave()
    {
        QTemporaryDir dir;
        const QString mat = dir.filePath(u"planted.mat"_s);
        QVERIFY(writeDatasetMat(mat, *plantedData(30, 90, 4)).ok());
        const QStringList sweep { u"sweep"_s, u"--dataset"_s, mat, u"--methods"_s, u"nmf,cf"_s,
            u"--clusters"_s, u"2-3"_s, u"--trials"_s, u"20"_s, u"--max-iter"_s, u"20"_s,
            u"--threads"_s, u"1"_s, u"--out"_s };
        // The whole file's size, from a sweep that could save it; then half of it as the limit.
        const QString whole = dir.filePath(u"whole"_s);
        QCOMPARE(runCli(sweep + QStringList { whole }).exitCode, 0);
        const qint64 size = QFileInfo(QDir(whole).filePath(u"results.json"_s)).size();
        QVERIFY(size > 0);
        const QString out = dir.filePath(u"sweep"_s);
        CliRun run;
        {
            const FileSizeLimit limit(rlim_t(size / 2)); // inherited by facet-cli
            run = runCli(sweep + QStringList { out });
        }
        QCOMPARE(run.exitCode, 1);
        QVERIFY2(run.err.contains(u"the sweep stopped"_s)
                && run.err.contains(QString::fromLocal8Bit(std::strerror(EFBIG))),
            qPrintable(run.err));
        const QJsonArray saved = trialsIn(QDir(out).filePath(u"results.json"_s)); // whole
        QVERIFY(!saved.isEmpty());
        QVERIFY(saved.size() < 80);
        QVERIFY2(run.err.contains(u"holds the %1 cells saved before"_s.arg(saved.size())),
            qPrintable(run.err));
    }

    // One sweep writes a folder at a time: while another process holds the folder's lock (here
    // this test), a sweep on it is refused with that process's id (issue 36, item 16). A lock
    // left by a killed sweep is taken over (killedSweepResumesWithoutLosingTrials).
    void secondSweepOnAFolderIsRefused()
    {
        QTemporaryDir dir;
        const QString mat = dir.filePath(u"planted.mat"_s);
        QVERIFY(writeDatasetMat(mat, *plantedData(30, 60, 5)).ok());
        const QString out = dir.filePath(u"sweep"_s);
        QVERIFY(QDir().mkpath(out));
        const QStringList sweep { u"sweep"_s, u"--dataset"_s, mat, u"--methods"_s, u"nmf"_s,
            u"--clusters"_s, u"2"_s, u"--trials"_s, u"1"_s, u"--max-iter"_s, u"5"_s, u"--out"_s,
            out };
        QLockFile lock(QDir(out).filePath(u".facet-sweep.lock"_s));
        QVERIFY(lock.tryLock(0));
        const CliRun refused = runCli(sweep);
        QCOMPARE(refused.exitCode, 1);
        QVERIFY2(refused.err.contains(u"is being written by another sweep"_s)
                && refused.err.contains(u"process %1 "_s.arg(QCoreApplication::applicationPid())),
            qPrintable(refused.err));
        QVERIFY(!QFileInfo::exists(QDir(out).filePath(u"results.json"_s)));
        lock.unlock();
        QCOMPARE(runCli(sweep).exitCode, 0);
    }

    // facet-cli sweep killed with SIGKILL once it has saved a trial, then --resume: every trial
    // saved before the kill is in the final file unchanged, and the sweep completes.
    void killedSweepResumesWithoutLosingTrials()
    {
        QVERIFY2(QFile::exists(cliPath()), qPrintable(cliPath()));
        QTemporaryDir dir;
        const QString mat = dir.filePath(u"planted.mat"_s);
        QVERIFY(writeDatasetMat(mat, *plantedData(60, 240, 8)).ok());
        const QString out = dir.filePath(u"sweep"_s);
        const QString results = QDir(out).filePath(u"results.json"_s);
        const QStringList sweep { u"sweep"_s, u"--dataset"_s, mat, u"--methods"_s, u"nmf,cf"_s,
            u"--clusters"_s, u"2-3"_s, u"--trials"_s, u"10"_s, u"--max-iter"_s, u"300"_s,
            u"--seed"_s, u"9"_s, u"--threads"_s, u"1"_s };
        ChildProcess process; // not QProcess: see child_process.h
        QVERIFY(process.start(
            cliPath(), sweep + QStringList { u"--out"_s, out }, ChildProcess::Output::Inherit));
        QVERIFY2(QTest::qWaitFor(
                     [&] { return !trialsIn(results).isEmpty() || !process.running(); }, 120000),
            "no trial was saved");
        QVERIFY2(process.running(), "the sweep ended before it could be killed");
        process.kill(SIGKILL);
        QVERIFY(process.waitForFinished(30000));
        QVERIFY(process.crashed());
        const QJsonArray saved = trialsIn(results); // whole, thanks to the atomic write
        QVERIFY(!saved.isEmpty());
        QVERIFY(saved.size() < 40);

        QVERIFY(process.start(
            cliPath(), sweep + QStringList { u"--resume"_s, out }, ChildProcess::Output::Inherit));
        QVERIFY(process.waitForFinished(600000));
        QCOMPARE(process.exitCode(), 0);
        const QJsonObject done = readJson(results);
        QVERIFY(done.value(u"complete"_s).toBool());
        const QJsonArray all = done.value(u"trials"_s).toArray();
        QCOMPARE(all.size(), 40);
        for (const QJsonValue& before : saved)
            QVERIFY2(all.contains(before), "a trial saved before the kill changed or vanished");
    }
};

#include "facet_test.h"
FACET_TEST_GUILESS_MAIN(TestFaults)
#include "test_faults.moc"
