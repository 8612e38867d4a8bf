// SPDX-License-Identifier: GPL-3.0-or-later
// `facet-cli bench` (issue 7): its options, and the real executable end to end on a small
// generated set in double and in float (facet-bench-float), whose clusterings must agree.
// Nothing here asserts on time.
#include "cli/cli_options.h"
#include "cli_process.h"
#include "core/sanitizers.h"
#include "util/openmp_environment.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>

using namespace facet;
using namespace facet::testing;
using namespace facet::cli;
using namespace Qt::StringLiterals;

namespace {

// Exit code, with stdout and stderr together in `log`.
int runCliLogged(const QStringList& arguments, QString* log = nullptr)
{
    const CliRun run = runCli(arguments);
    if (log)
        *log = run.out + run.err;
    return run.exitCode;
}

// A set small enough for seconds, in ten well separated clusters.
const QStringList kSmallBenchRun { u"bench"_s, u"--datasets"_s, u"gen:600x48"_s, u"--methods"_s,
    u"nmf,cf,lccf"_s, u"--ranks"_s, u"10"_s, u"--iterations"_s, u"150"_s, u"--repeats"_s, u"1"_s,
    u"--warmup"_s, u"1"_s, u"--ceilings"_s, u"once"_s };

} // namespace

class TestBenchCommand : public QObject {
    Q_OBJECT
private slots:
    void parsesBench()
    {
        const Result<CliOptions> r = parseArguments({ u"bench"_s, u"--datasets"_s,
            u"orl,gen:20000x784"_s, u"--methods"_s, u"nmf,LCCF"_s, u"--ranks"_s, u"10,20"_s,
            u"--precision"_s, u"float"_s, u"--iterations"_s, u"7"_s, u"--repeats"_s, u"2"_s,
            u"--knn"_s, u"approx"_s, u"--knn-recall"_s, u"--json"_s, u"o.json"_s });
        QVERIFY2(r.ok(), r.ok() ? "" : qPrintable(r.error()));
        QCOMPARE(r->command, Command::Bench);
        QCOMPARE(r->bench.datasets, (QStringList { u"orl"_s, u"gen:20000x784"_s }));
        QCOMPARE(r->bench.run.methods, (std::vector<std::string> { "nmf", "lccf" }));
        // Variants in any order and case come out in the canonical order: name, kernel, ncw.
        const Result<CliOptions> variants = parseArguments({ u"bench"_s, u"--json"_s, u"o"_s,
            u"--methods"_s, u"CF+NCW+Gaussian,lccf+ncw,ccf+polynomial,kmeans"_s });
        QVERIFY2(variants.ok(), variants.ok() ? "" : qPrintable(variants.error()));
        QCOMPARE(variants->bench.run.methods,
            (std::vector<std::string> {
                "cf+gaussian+ncw", "lccf+ncw", "ccf+polynomial", "kmeans" }));
        QCOMPARE(r->bench.run.ranks, (std::vector<int> { 10, 20 }));
        QVERIFY(r->bench.singlePrecision);
        QCOMPARE(r->bench.run.iterations, 7);
        QCOMPARE(r->bench.run.repeats, 2);
        QVERIFY(r->bench.run.knn == KnnSearch::Approximate);
        QVERIFY(r->bench.knnRecall);
        QCOMPARE(r->jsonPath, u"o.json"_s);

        const Result<CliOptions> defaults = parseArguments({ u"bench"_s, u"--json"_s, u"o"_s });
        QVERIFY(defaults.ok());
        QCOMPARE(defaults->bench.datasets.size(), 6);
        QVERIFY(!defaults->bench.singlePrecision);
        QVERIFY(defaults->bench.run.knn == KnnSearch::Auto);
        QVERIFY(defaults->bench.run.ceilingsPerCase);
        const Result<CliOptions> once
            = parseArguments({ u"bench"_s, u"--json"_s, u"o"_s, u"--ceilings"_s, u"once"_s });
        QVERIFY(once.ok());
        QVERIFY(!once->bench.run.ceilingsPerCase);

        const Result<CliOptions> run
            = parseArguments({ u"run"_s, u"--dataset"_s, u"x.mat"_s, u"--method"_s, u"lccf"_s,
                u"--rank"_s, u"3"_s, u"--knn"_s, u"exact"_s, u"--json"_s, u"o"_s });
        QVERIFY2(run.ok(), run.ok() ? "" : qPrintable(run.error()));
        QVERIFY(run->run.params.knnSearch == KnnSearch::Exact);
    }

    void rejectsBadBench_data()
    {
        QTest::addColumn<QStringList>("arguments");
        QTest::addColumn<QString>("needle");
        const QStringList base { u"bench"_s, u"--json"_s, u"o.json"_s };
        QTest::newRow("precision")
            << (base + QStringList { u"--precision"_s, u"half"_s }) << u"--precision"_s;
        QTest::newRow("knn") << (base + QStringList { u"--knn"_s, u"fast"_s }) << u"--knn"_s;
        QTest::newRow("init") << (base + QStringList { u"--init"_s, u"svd"_s }) << u"--init"_s;
        QTest::newRow("method") << (base + QStringList { u"--methods"_s, u"svd"_s })
                                << u"unknown method"_s;
        QTest::newRow("kernel on nmf")
            << (base + QStringList { u"--methods"_s, u"nmf+gaussian"_s }) << u"CF family"_s;
        QTest::newRow("ncw on lcf")
            << (base + QStringList { u"--methods"_s, u"lcf+ncw"_s }) << u"nmf, cf and lccf only"_s;
        QTest::newRow("variant") << (base + QStringList { u"--methods"_s, u"cf+rbf"_s })
                                 << u"unknown variant '+rbf'"_s;
        QTest::newRow("two kernels")
            << (base + QStringList { u"--methods"_s, u"cf+gaussian+polynomial"_s })
            << u"one kernel"_s;
        QTest::newRow("rank") << (base + QStringList { u"--ranks"_s, u"0"_s }) << u"--ranks"_s;
        QTest::newRow("iterations")
            << (base + QStringList { u"--iterations"_s, u"1"_s }) << u"--iterations"_s;
        QTest::newRow("ceilings") << (base + QStringList { u"--ceilings"_s, u"always"_s })
                                  << u"--ceilings"_s;
        QTest::newRow("json") << QStringList { u"bench"_s } << u"--json"_s;
        // Refused before anything is generated: it ended in std::bad_alloc (exit 134).
        QTest::newRow("generated set too large")
            << (base + QStringList { u"--datasets"_s, u"gen:1000000x100000"_s })
            << u"would need 745.1 GiB"_s;
        QTest::newRow("generated set malformed")
            << (base + QStringList { u"--datasets"_s, u"gen:0x10"_s }) << u"gen:NxM"_s;
    }
    void rejectsBadBench()
    {
        QFETCH(QStringList, arguments);
        QFETCH(QString, needle);
        const Result<CliOptions> r = parseArguments(arguments);
        QVERIFY(!r.ok());
        QVERIFY2(r.error().contains(needle), qPrintable(r.error()));
    }

    void floatAgreesWithDouble()
    {
#if !defined(FACET_HAS_FLOAT_BENCH)
        // The sanitizer presets and CI's release step build the double solver only (the float
        // one is a second compile of the same code); scripts/test's release build runs this.
        QSKIP("this build has no facet-bench-float (FACET_BUILD_FLOAT_BENCH=OFF)");
#endif
        QTemporaryDir dir;
        const QString doubleJson = dir.filePath(u"double.json"_s);
        const QString floatJson = dir.filePath(u"float.json"_s);
        QString log;
        QCOMPARE(runCliLogged(kSmallBenchRun + QStringList { u"--json"_s, doubleJson }, &log), 0);
        QVERIFY2(log.contains(u"GFLOP/s"_s), qPrintable(log));
        QCOMPARE(runCliLogged(kSmallBenchRun
                         + QStringList { u"--precision"_s, u"float"_s, u"--json"_s, floatJson },
                     &log),
            0);
        const QJsonObject d = readJson(doubleJson), f = readJson(floatJson);
        QCOMPARE(d[u"precision"_s].toString(), u"double"_s);
        QCOMPARE(f[u"precision"_s].toString(), u"float"_s);
        QVERIFY(d[u"peaks"_s][u"gemm_gflops"_s].toDouble() > 0);
        QVERIFY(f[u"peaks"_s][u"triad_gb_per_s"_s].toDouble() > 0);
        const QJsonArray dRows = d[u"rows"_s].toArray(), fRows = f[u"rows"_s].toArray();
        QCOMPARE(dRows.size(), 3);
        QCOMPARE(fRows.size(), 3);
        // --ceilings once: every row is judged against the ceilings of the run's start.
        QCOMPARE(d[u"options"_s][u"ceilings"_s].toString(), u"once"_s);
        for (const auto& [report, rows] : { std::pair { d, dRows }, std::pair { f, fRows } })
            for (const QJsonValue& row : rows) {
                QCOMPARE(row[u"ceiling_gemm_gflops"_s].toDouble(),
                    report[u"peaks"_s][u"gemm_gflops"_s].toDouble());
                QCOMPARE(row[u"ceiling_triad_gb_per_s"_s].toDouble(),
                    report[u"peaks"_s][u"triad_gb_per_s"_s].toDouble());
            }
        for (qsizetype i = 0; i < dRows.size(); ++i) {
            const QJsonObject a = dRows[i].toObject(), b = fRows[i].toObject();
            QCOMPARE(a[u"method"_s], b[u"method"_s]);
            QCOMPARE(b[u"precision"_s].toString(), u"float"_s);
            QVERIFY2(!a.contains(u"error"_s), qPrintable(a[u"error"_s].toString()));
            QVERIFY(a[u"flops_per_iteration"_s].toDouble() > 0);
            QCOMPARE(
                a[u"flops_per_iteration"_s].toDouble(), b[u"flops_per_iteration"_s].toDouble());
            // The byte model halves in single precision, the flop count does not.
            QVERIFY(
                b[u"bytes_per_iteration"_s].toDouble() < a[u"bytes_per_iteration"_s].toDouble());
            QVERIFY(a[u"peak_resident_bytes"_s].toDouble() > 0);
            // Same data, same start: AC and NMI within half a point (issue 7).
            const QString what = a[u"method"_s].toString();
            QVERIFY2(
                std::abs(a[u"ac"_s].toDouble() - b[u"ac"_s].toDouble()) <= 0.005, qPrintable(what));
            QVERIFY2(std::abs(a[u"nmi"_s].toDouble() - b[u"nmi"_s].toDouble()) <= 0.005,
                qPrintable(what));
            const double objective = a[u"objective"_s].toDouble();
            QVERIFY(std::abs(objective - b[u"objective"_s].toDouble()) <= 1e-3 * objective);
        }
    }

    void ceilingsPerCaseInBothPrecisions()
    {
        // The default measures the ceilings again beside each case, in facet-cli and in
        // facet-bench-float: each row carries its own, its limit is computed from them, and the
        // triad's 768 MiB of arrays are not counted as the case's memory.
#if defined(FACET_SANITIZE_ADDRESS)
        // At the sanitizer preset's -O1 the real ceilings (a 1536^3 GEMM and a 768 MiB triad, four
        // times per run and case, in both executables) made this the slowest test of the suite;
        // the runner's per-case path runs under ASan in solver_bench_model::ceilingsPerCase.
        QSKIP("the full-size ceiling measurements are too slow under AddressSanitizer");
#endif
#if !defined(FACET_HAS_FLOAT_BENCH)
        QSKIP("this build has no facet-bench-float (FACET_BUILD_FLOAT_BENCH=OFF)");
#endif
        QTemporaryDir dir;
        for (const QString& precision : { u"double"_s, u"float"_s }) {
            const QString path = dir.filePath(precision + u".json"_s);
            QString log;
            QCOMPARE(
                runCliLogged({ u"bench"_s, u"--datasets"_s, u"gen:300x16"_s, u"--methods"_s,
                                 u"nmf"_s, u"--ranks"_s, u"3"_s, u"--iterations"_s, u"3"_s,
                                 u"--repeats"_s, u"1"_s, u"--warmup"_s, u"0"_s, u"--no-score"_s,
                                 u"--precision"_s, precision, u"--json"_s, path },
                    &log),
                0);
            const QJsonObject report = readJson(path);
            QCOMPARE(report[u"options"_s][u"ceilings"_s].toString(), u"case"_s);
            const QJsonArray rows = report[u"rows"_s].toArray();
            // One case: the GEMM and triad measurements are slow under the sanitizers. (k-means
            // and pca measure theirs on a branch of their own, which solver_bench_model tests.)
            QCOMPARE(rows.size(), 1);
            for (const QJsonValue& row : rows) {
                QVERIFY2(!row[u"error"_s].isString(), qPrintable(row[u"error"_s].toString()));
                const double gemm = row[u"ceiling_gemm_gflops"_s].toDouble();
                const double triad = row[u"ceiling_triad_gb_per_s"_s].toDouble();
                QVERIFY(gemm > 0 && triad > 0);
                // Measured again, not the run's start values.
                QVERIFY(gemm != report[u"peaks"_s][u"gemm_gflops"_s].toDouble());
                const double limit = 1e3
                    * std::max(row[u"flops_per_iteration"_s].toDouble() / (gemm * 1e9),
                        row[u"bytes_per_iteration"_s].toDouble() / (triad * 1e9));
                QVERIFY(std::abs(row[u"roofline_limit_ms"_s].toDouble() - limit) <= 1e-9 * limit);
                QVERIFY2(row[u"peak_resident_bytes"_s].toDouble() < 512.0 * 1048576,
                    qPrintable(QString::number(row[u"peak_resident_bytes"_s].toDouble())));
            }
        }
    }

    void initReachesBothPrecisions()
    {
        // --init is recorded with the other options and reaches the solver in both precisions:
        // in each, the k-means start gives other factors than the default random one. (Not that
        // the two precisions give the same factors from it: k-means++ on data rounded to float
        // may seed another centre, which an ASan build of this test showed.)
#if defined(FACET_SANITIZE_ADDRESS)
        // Four runs, each measuring the full-size ceilings at its start (a 1536^3 GEMM at 2
        // GFLOP/s at the sanitizer preset's -O1 on an Intel host): 190 s, which with the rest
        // of this test passed Qt's 300 s watchdog. The release step runs it; under ASan,
        // floatAgreesWithDouble runs the same path (facet-cli's arguments to facet-bench-float,
        // the rows and JSON back) in both precisions, in the release step.
        QSKIP("four full-size ceiling measurements are too slow under AddressSanitizer");
#endif
#if !defined(FACET_HAS_FLOAT_BENCH)
        QSKIP("this build has no facet-bench-float (FACET_BUILD_FLOAT_BENCH=OFF)");
#endif
        QTemporaryDir dir;
        // --iterations 20 in place of kSmallBenchRun's 150 (an option given twice is refused).
        QStringList shortRun = kSmallBenchRun + QStringList { u"--no-score"_s };
        shortRun[shortRun.indexOf(u"--iterations"_s) + 1] = u"20"_s;
        const QStringList kmeans { u"--init"_s, u"kmeans"_s };
        const QStringList single { u"--precision"_s, u"float"_s };
        const auto run = [&](const QString& name, const QStringList& extra) {
            const QString path = dir.filePath(name);
            QString log;
            const int code
                = runCliLogged(shortRun + extra + QStringList { u"--json"_s, path }, &log);
            if (code != 0)
                qWarning("%s", qPrintable(log));
            return code == 0 ? readJson(path) : QJsonObject {};
        };
        const QJsonObject kd = run(u"kd.json"_s, kmeans), kf = run(u"kf.json"_s, kmeans + single),
                          rd = run(u"rd.json"_s, {}), rf = run(u"rf.json"_s, single);
        QCOMPARE(kd[u"options"_s][u"init"_s].toString(), u"kmeans"_s);
        QCOMPARE(kf[u"options"_s][u"init"_s].toString(), u"kmeans"_s);
        QCOMPARE(rd[u"options"_s][u"init"_s].toString(), u"default"_s);
        QCOMPARE(kd[u"options"_s][u"iterations"_s].toInt(), 20);
        QCOMPARE(kd[u"options"_s][u"seed"_s].toInt(), 0);
        for (const auto& [withKmeans, withRandom] :
            { std::pair { kd, rd }, std::pair { kf, rf } }) {
            const QJsonArray a = withKmeans[u"rows"_s].toArray(),
                             b = withRandom[u"rows"_s].toArray();
            QCOMPARE(a.size(), 3);
            QCOMPARE(b.size(), 3);
            for (qsizetype i = 0; i < a.size(); ++i) {
                const QString what
                    = a[i][u"method"_s].toString() + u' ' + a[i][u"precision"_s].toString();
                const double objective = a[i][u"objective"_s].toDouble();
                QVERIFY2(objective > 0, qPrintable(what));
                QVERIFY2(objective != b[i][u"objective"_s].toDouble(), qPrintable(what));
            }
        }
    }

    void exitCodeSaysWhetherAnyCaseRan()
    {
        // A case that cannot run is an error row and the rest of the table stands (exit 0, the
        // count on stderr); when no case ran, nothing was measured and the exit code is 1, with
        // the error rows still in the JSON.
#if defined(FACET_SANITIZE_ADDRESS)
        QSKIP("the full-size ceiling measurement at the run's start is too slow under ASan");
#endif
        QTemporaryDir dir;
        const QStringList base { u"bench"_s, u"--datasets"_s, u"gen:300x16"_s, u"--methods"_s,
            u"nmf"_s, u"--iterations"_s, u"2"_s, u"--repeats"_s, u"1"_s, u"--warmup"_s, u"0"_s,
            u"--no-score"_s, u"--ceilings"_s, u"once"_s, u"--ranks"_s };
        QString log;
        const QString some = dir.filePath(u"some.json"_s);
        QCOMPARE(runCliLogged(base + QStringList { u"3,400"_s, u"--json"_s, some }, &log), 0);
        QVERIFY2(log.contains(u"1 of 2 case(s) could not run"_s), qPrintable(log));
        QCOMPARE(readJson(some)[u"rows"_s].toArray().size(), 2);

        const QString none = dir.filePath(u"none.json"_s);
        QCOMPARE(runCliLogged(base + QStringList { u"400"_s, u"--json"_s, none }, &log), 1);
        QVERIFY2(log.contains(u"1 of 1 case(s) could not run"_s), qPrintable(log));
        const QJsonArray rows = readJson(none)[u"rows"_s].toArray();
        QCOMPARE(rows.size(), 1);
        QVERIFY2(rows[0][u"error"_s].toString().contains(u"exceeds the number of samples"_s),
            qPrintable(rows[0][u"error"_s].toString()));
    }

    // facet-cli chooses how OpenMP's idle threads wait (util/openmp_environment.h) unless the
    // user did: passively for every command that may share the machine, the runtime's spin for
    // the benchmark. The bench and run JSON record what was in force.
    void openMpWaitIsTheProgramsUnlessTheUsers()
    {
        const char* names[]
            = { "OMP_WAIT_POLICY", "GOMP_SPINCOUNT", "KMP_BLOCKTIME", "FACET_OPENMP_REEXEC" };
        QList<QByteArray> saved;
        for (const char* name : names) {
            saved << qgetenv(name);
            qunsetenv(name);
        }
        const auto waitOf = [](const QStringList& extra = {}) {
            QTemporaryDir dir;
            const QString json = dir.filePath(u"w.json"_s);
            const CliRun run = runCli(QStringList { u"bench"_s, u"--datasets"_s, u"gen:300x16"_s,
                                          u"--no-timing"_s, u"--knn-recall"_s, u"--json"_s, json }
                + extra);
            if (run.exitCode != 0)
                qWarning("%s", qPrintable(run.out + run.err));
            return readJson(json)[u"machine"_s][u"openmp_wait"_s].toObject();
        };
        const auto runWaitOf = [] {
            QTemporaryDir dir;
            const QString json = dir.filePath(u"r.json"_s);
            const CliRun run = runCli(
                QStringList { u"run"_s, u"--dataset"_s, u"builtin:swimmer"_s, u"--method"_s,
                    u"nmf"_s, u"--rank"_s, u"3"_s, u"--max-iter"_s, u"2"_s, u"--json"_s, json });
            if (run.exitCode != 0)
                qWarning("%s", qPrintable(run.out + run.err));
            return readJson(json)[u"openmp_wait"_s].toObject();
        };
        const QJsonObject chosen = waitOf();
        const QJsonObject runChosen = runWaitOf();
        qputenv("OMP_WAIT_POLICY", "active");
        const QJsonObject users = waitOf();
        const QJsonObject runUsers = runWaitOf();
        for (int i = 0; i < 4; ++i)
            saved[i].isNull() ? qunsetenv(names[i]) : qputenv(names[i], saved[i]);

        QCOMPARE(users[u"OMP_WAIT_POLICY"_s].toString(), u"active"_s);
        QCOMPARE(runUsers[u"OMP_WAIT_POLICY"_s].toString(), u"active"_s);
        QVERIFY(users[u"GOMP_SPINCOUNT"_s].isNull());
        QVERIFY(users[u"KMP_BLOCKTIME"_s].isNull());
        // The benchmark keeps the runtime's own spin.
        for (const char* name : { "OMP_WAIT_POLICY", "GOMP_SPINCOUNT", "KMP_BLOCKTIME" })
            QVERIFY(chosen[QString::fromLatin1(name)].isNull());
#if defined(_OPENMP)
        QCOMPARE(
            runChosen[u"OMP_WAIT_POLICY"_s].toString(), QString::fromLatin1(kOpenMpWaitPolicy));
#else
        // Without OpenMP (the tsan preset) there are no such threads, and nothing to choose.
        QVERIFY(runChosen[u"OMP_WAIT_POLICY"_s].isNull());
#endif
    }

    void exportsNpyAndRecall()
    {
        QTemporaryDir dir;
        QString log;
        QCOMPARE(runCliLogged({ u"bench"_s, u"--datasets"_s, u"gen:300x16"_s, u"--no-timing"_s,
                                  u"--knn-recall"_s, u"--export-npy"_s, dir.path(), u"--json"_s,
                                  dir.filePath(u"r.json"_s) },
                     &log),
            0);
        QVERIFY2(log.contains(u"recall"_s), qPrintable(log));
        QFile npy(dir.filePath(u"gen_300x16.npy"_s));
        QVERIFY(npy.open(QIODevice::ReadOnly));
        const QByteArray bytes = npy.readAll();
        QVERIFY(bytes.startsWith("\x93NUMPY"));
        QVERIFY(bytes.contains("'shape': (300, 16)"));
        const int header = 10 + (uchar(bytes[8]) | uchar(bytes[9]) << 8);
        QCOMPARE(header % 64, 0);
        QCOMPARE(bytes.size(), header + 300 * 16 * 8);
        const QJsonArray recall = readJson(dir.filePath(u"r.json"_s))[u"knn_recall"_s].toArray();
        QCOMPARE(recall.size(), 1);
        QVERIFY(recall[0][u"recall"_s].toDouble() >= 0.9);
        // Each search's own peak: at least the 300 x 16 set it searched, at most the process.
        for (const QString& key : { u"exact_peak_bytes"_s, u"approximate_peak_bytes"_s })
            QVERIFY2(recall[0][key].toDouble() >= 300 * 16 * 8, qPrintable(key));
    }
};

#include "facet_test.h"
FACET_TEST_APPLESS_MAIN(TestBenchCommand)
#include "test_bench_command.moc"
