// SPDX-License-Identifier: GPL-3.0-or-later
// facet-cli: argument parsing, and the real executable end to end on ORL and Swimmer.
#include "cli/cli_options.h"
#include "cli/commands.h"
#include "cli/run_progress.h"
#include "cli/sweep_progress.h"
#include "cli_process.h"
#include "data/mat_writer.h"
#include "image_fixtures.h"
#include "test_data.h"

#include <QDir>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTemporaryDir>
#include <QXmlStreamReader>
#include <QtTest>

#include <matio.h>

#include <csignal>
#include <unistd.h>

using namespace facet;
using namespace facet::testing;
using namespace facet::cli;
using namespace Qt::StringLiterals;

// What `write` puts into a temporary stream.
QByteArray streamText(const std::function<void(std::FILE*)>& write)
{
    std::FILE* stream = std::tmpfile();
    write(stream);
    std::rewind(stream);
    QByteArray text;
    char buffer[256];
    for (std::size_t n; (n = std::fread(buffer, 1, sizeof buffer, stream)) > 0;)
        text.append(buffer, qsizetype(n));
    std::fclose(stream);
    return text;
}

class TestCli : public QObject {
    Q_OBJECT
private slots:
    void parsesRun()
    {
        const Result<CliOptions> r = parseArguments(
            { u"run"_s, u"--dataset"_s, u"builtin:swimmer"_s, u"--method"_s, u"CF"_s, u"--rank"_s,
                u"7"_s, u"--max-iter"_s, u"50"_s, u"--seed"_s, u"42"_s, u"--cluster"_s, u"argmax"_s,
                u"--classes"_s, u"1-3,7"_s, u"--json"_s, u"o.json"_s });
        QVERIFY2(r.ok(), r.ok() ? "" : qPrintable(r.error()));
        QCOMPARE(r->command, Command::Run);
        QCOMPARE(r->run.method, std::string("cf"));
        QCOMPARE(r->run.params.rank, 7);
        QCOMPARE(r->run.driver.maxIter, 50);
        QCOMPARE(r->run.driver.seed, 42ULL);
        QVERIFY(r->run.cluster.mode == ClusterMode::ArgMax);
        QCOMPARE(r->classes, (QStringList { u"1"_s, u"2"_s, u"3"_s, u"7"_s }));
        QVERIFY(r->dataset.prepare.l2Normalize); // auto: CF family gets unit-norm samples
    }
    void rejectsBadArguments_data()
    {
        QTest::addColumn<QStringList>("arguments");
        QTest::addColumn<QString>("needle");
        const QStringList base { u"run"_s, u"--dataset"_s, u"x.mat"_s, u"--json"_s, u"o.json"_s };
        QTest::newRow("rank 0") << (base
            + QStringList { u"--method"_s, u"nmf"_s, u"--rank"_s, u"0"_s })
                                << u"--rank"_s;
        QTest::newRow("rank text")
            << (base + QStringList { u"--method"_s, u"nmf"_s, u"--rank"_s, u"ten"_s })
            << u"whole number"_s;
        QTest::newRow("method") << (base
            + QStringList { u"--method"_s, u"svd"_s, u"--rank"_s, u"3"_s })
                                << u"unknown method"_s;
        QTest::newRow("missing rank")
            << (base + QStringList { u"--method"_s, u"nmf"_s }) << u"--rank"_s;
        QTest::newRow("tol") << (base
            + QStringList { u"--method"_s, u"nmf"_s, u"--rank"_s, u"3"_s, u"--tol"_s, u"-1"_s })
                             << u"--tol"_s;
        QTest::newRow("cluster") << (base
            + QStringList { u"--method"_s, u"nmf"_s, u"--rank"_s, u"3"_s, u"--cluster"_s,
                u"dbscan"_s }) << u"--cluster"_s;
        QTest::newRow("unknown option")
            << (base + QStringList { u"--method"_s, u"nmf"_s, u"--rank"_s, u"3"_s, u"--bogus"_s })
            << u"bogus"_s;
        QTest::newRow("command") << QStringList { u"frobnicate"_s } << u"unknown command"_s;
        // rank-survey: run's options without --rank and the outputs, plus its own.
        const QStringList survey { u"rank-survey"_s, u"--dataset"_s, u"x.mat"_s, u"--method"_s,
            u"nmf"_s };
        QTest::newRow("survey without ranks")
            << (survey + QStringList { u"--out"_s, u"d"_s }) << u"needs --ranks"_s;
        QTest::newRow("survey without out")
            << (survey + QStringList { u"--ranks"_s, u"2-5"_s }) << u"needs --out DIR"_s;
        QTest::newRow("survey with --rank") << (survey
            + QStringList { u"--ranks"_s, u"2-5"_s, u"--out"_s, u"d"_s, u"--rank"_s, u"3"_s })
                                            << u"give the ranks with --ranks"_s;
        QTest::newRow("survey ranks backwards")
            << (survey + QStringList { u"--ranks"_s, u"5-2"_s, u"--out"_s, u"d"_s })
            << u"--ranks expects ranks such as 2-30"_s;
        QTest::newRow("survey runs 0") << (survey
            + QStringList { u"--ranks"_s, u"2-5"_s, u"--out"_s, u"d"_s, u"--runs"_s, u"0"_s })
                                       << u"--runs"_s;
        QTest::newRow("survey run option checked") << (survey
            + QStringList { u"--ranks"_s, u"2-5"_s, u"--out"_s, u"d"_s, u"--tol"_s, u"-1"_s })
                                                   << u"--tol"_s;
        QTest::newRow("algorithm") << (base
            + QStringList { u"--method"_s, u"nmf"_s, u"--rank"_s, u"3"_s, u"--algorithm"_s,
                u"newton"_s }) << u"--algorithm must be mu, hals, mu-ex or hals-ex"_s;
        // Contradictions are refused, not silently overruled (issue 36, item 14).
        QTest::newRow("min-iter above max-iter") << (base
            + QStringList { u"--method"_s, u"nmf"_s, u"--rank"_s, u"3"_s, u"--min-iter"_s, u"50"_s,
                u"--max-iter"_s, u"5"_s }) << u"--min-iter 50 is above --max-iter 5"_s;
        QTest::newRow("clusters 0") << (base
            + QStringList { u"--method"_s, u"nmf"_s, u"--rank"_s, u"3"_s, u"--clusters"_s, u"0"_s })
                                    << u"--clusters"_s;
        QTest::newRow("clusters with argmax") << (base
            + QStringList { u"--method"_s, u"nmf"_s, u"--rank"_s, u"15"_s, u"--cluster"_s,
                u"argmax"_s, u"--clusters"_s, u"1"_s })
                                              << u"does not apply to --cluster argmax"_s;
        // An output given as "" ran the whole solve and then failed (issue 36, item 10).
        const QStringList bare { u"run"_s, u"--dataset"_s, u"x.mat"_s, u"--method"_s, u"nmf"_s,
            u"--rank"_s, u"3"_s };
        QTest::newRow("json empty") << (bare + QStringList { u"--json"_s, QString() })
                                    << u"--json is empty; give a file name (or -"_s;
        QTest::newRow("factors empty") << (base
            + QStringList { u"--method"_s, u"nmf"_s, u"--rank"_s, u"3"_s, u"--factors"_s,
                QString() }) << u"--factors is empty"_s;
        // Weights whose products overflow ran, stopped as non-finite at iteration 0 and were
        // scored on their start (issue 36, item 15): refused with the bound.
        for (const char* weight : { "lambda", "beta", "mu", "offset" })
            QTest::newRow(qPrintable(u"%1 1e308"_s.arg(QString::fromLatin1(weight))))
                << (base
                       + QStringList { u"--method"_s, u"cf-ogl"_s, u"--rank"_s, u"3"_s,
                           u"--"_s + QString::fromLatin1(weight), u"1e308"_s })
                << u"--%1 1e+308 is beyond 1e+150, the largest weight"_s.arg(
                       QString::fromLatin1(weight));
        QTest::newRow("degree 1e20") << (base
            + QStringList { u"--method"_s, u"cf"_s, u"--rank"_s, u"3"_s, u"--kernel"_s, u"poly"_s,
                u"--degree"_s, u"1e20"_s })
                                     << u"--degree 1e+20 is above 100"_s;
    }
    void rejectsBadArguments()
    {
        QFETCH(QStringList, arguments);
        QFETCH(QString, needle);
        const Result<CliOptions> r = parseArguments(arguments);
        QVERIFY(!r.ok());
        QVERIFY2(r.error().contains(needle), qPrintable(r.error()));
        QVERIFY(!r.error().contains(u'\n'));
    }
    // COMMAND --help or -h, anywhere among the options, gives that command's help (exit 0), as
    // `help COMMAND` does; an unknown command is still refused.
    void commandHelpFlag()
    {
        const auto help = [](const QStringList& arguments) {
            const Result<CliOptions> r = parseArguments(arguments);
            return r && r->command == Command::Help ? r->helpText : QString();
        };
        QCOMPARE(
            help({ u"run"_s, u"--dataset"_s, u"x.mat"_s, u"--help"_s }), usageText(Command::Run));
        QVERIFY(help({ u"run"_s, u"--help"_s }).startsWith(u"Usage: facet-cli run "_s));
        QCOMPARE(help({ u"sweep"_s, u"-h"_s }), usageText(Command::Sweep));
        QCOMPARE(help({ u"info"_s, u"--help"_s }), usageText(Command::Info));
        QCOMPARE(help({ u"bench"_s, u"--help"_s }), usageText(Command::Bench));
        QCOMPARE(help({ u"help"_s, u"run"_s }), usageText(Command::Run));
        QCOMPARE(help({ u"help"_s }), usageText(Command::Help));
        // `help` with an unknown topic is refused, not answered with the general help and 0.
        const Result<CliOptions> topic = parseArguments({ u"help"_s, u"export"_s });
        QVERIFY(!topic);
        QVERIFY2(topic.error().contains(u"no command 'export'"_s), qPrintable(topic.error()));
        const Result<CliOptions> unknown = parseArguments({ u"frobnicate"_s, u"--help"_s });
        QVERIFY(!unknown);
        QVERIFY2(unknown.error().contains(u"unknown command 'frobnicate'"_s),
            qPrintable(unknown.error()));
        const CliRun run = runCli({ u"run"_s, u"--help"_s });
        QCOMPARE(run.exitCode, 0);
        QVERIFY2(run.out.contains(u"--init-from FILE.mat"_s), qPrintable(run.out));
    }
    void runsNmfOnOrl()
    {
        const QString orl = facetDataFile(u"ORL_32x32.mat"_s);
        FACET_REQUIRE_DATA(orl);
        QTemporaryDir dir;
        const QString json = dir.filePath(u"o.json"_s);
        const QString png = dir.filePath(u"basis.png"_s);
        const CliRun run
            = runCli({ u"run"_s, u"--dataset"_s, orl, u"--method"_s, u"nmf"_s, u"--rank"_s, u"40"_s,
                u"--max-iter"_s, u"120"_s, u"--json"_s, json, u"--basis-png"_s, png });
        QVERIFY2(run.exitCode == 0, qPrintable(run.err));
        const QJsonObject o = readJson(json);
        for (const char* key : { "method", "params", "dataset", "n", "m", "rank", "seed",
                 "iterations", "objective_history", "time_history", "returned_objective",
                 "stop_reason", "timings", "ac", "nmi", "labels" })
            QVERIFY2(o.contains(QLatin1String(key)), key);
        QCOMPARE(o[u"params"_s][u"algorithm"_s].toString(), u"hals-ex"_s); // the default, resolved
        QCOMPARE(o[u"method"_s].toString(), u"nmf"_s);
        QCOMPARE(o[u"n"_s].toInt(), 400);
        QCOMPARE(o[u"m"_s].toInt(), 1024);
        QCOMPARE(o[u"rank"_s].toInt(), 40);
        const QJsonArray history = o[u"objective_history"_s].toArray();
        QCOMPARE(history.size(), o[u"iterations"_s].toInt());
        const QJsonArray times = o[u"time_history"_s].toArray();
        QCOMPARE(times.size(), history.size());
        for (qsizetype t = 1; t < times.size(); ++t)
            QVERIFY(times[t].toDouble() >= times[t - 1].toDouble() && times[0].toDouble() >= 0);
        for (qsizetype t = 1; t < history.size(); ++t)
            QVERIFY(history[t].toDouble() <= history[t - 1].toDouble() * (1 + 1e-9));
        // NMF's normalization keeps U V^T, so the returned factors' objective is the last one.
        const double last = history.last().toDouble();
        QVERIFY(std::abs(o[u"returned_objective"_s].toDouble() - last) <= 1e-9 * last);
        QVERIFY2(!run.out.contains(u"returned factors"_s), qPrintable(run.out));
        QVERIFY(o[u"labels"_s].toArray().size() == 400);
        const double ac = o[u"ac"_s].toDouble(-1);
        const double nmi = o[u"nmi"_s].toDouble(-1);
        QVERIFY2(ac > 0.4 && ac <= 1, qPrintable(QString::number(ac)));
        QVERIFY2(nmi > 0.6 && nmi <= 1, qPrintable(QString::number(nmi)));
        const QStringList stops { u"converged"_s, u"max_iterations"_s };
        QVERIFY(stops.contains(o[u"stop_reason"_s].toString()));
        const QJsonObject timings = o[u"timings"_s].toObject();
        for (const char* key : { "load_s", "prepare_s", "setup_s", "solve_s", "cluster_s" })
            QVERIFY(timings[QLatin1String(key)].toDouble(-1) >= 0);
        QImage basis(png);
        QVERIFY(!basis.isNull());
        QVERIFY(basis.width() > 32 * 6);
    }
    void algorithmReachesTheRecord()
    {
        // --algorithm hals runs, and the run JSON names it; a method without that route refuses it.
        QTemporaryDir dir;
        const QString json = dir.filePath(u"g.json"_s);
        const CliRun run = runCli({ u"run"_s, u"--dataset"_s, u"builtin:swimmer"_s, u"--method"_s,
            u"gnmf"_s, u"--rank"_s, u"17"_s, u"--max-iter"_s, u"30"_s, u"--algorithm"_s, u"hals"_s,
            u"--json"_s, json });
        QVERIFY2(run.exitCode == 0, qPrintable(run.err));
        const QJsonObject o = readJson(json);
        QCOMPARE(o[u"params"_s][u"algorithm"_s].toString(), u"hals"_s);
        QCOMPARE(o[u"time_history"_s].toArray().size(), o[u"iterations"_s].toInt());
        const CliRun cf = runCli({ u"run"_s, u"--dataset"_s, u"builtin:swimmer"_s, u"--method"_s,
            u"cf"_s, u"--rank"_s, u"17"_s, u"--max-iter"_s, u"5"_s, u"--algorithm"_s, u"hals"_s,
            u"--json"_s, dir.filePath(u"cf.json"_s) });
        QVERIFY(cf.exitCode != 0);
        QVERIFY2(cf.err.contains(u"cf runs the multiplicative rules (mu or mu-ex)"_s),
            qPrintable(cf.err));
    }
    void runsCfOnSwimmerWithoutLabels()
    {
        QTemporaryDir dir;
        const QString json = dir.filePath(u"s.json"_s);
        const CliRun run = runCli({ u"run"_s, u"--dataset"_s, u"builtin:swimmer"_s, u"--method"_s,
            u"cf"_s, u"--rank"_s, u"17"_s, u"--max-iter"_s, u"40"_s, u"--json"_s, json });
        QVERIFY2(run.exitCode == 0, qPrintable(run.err));
        const QJsonObject o = readJson(json);
        QVERIFY(o[u"ac"_s].isNull());
        QVERIFY(o[u"nmi"_s].isNull());
        QCOMPARE(o[u"n"_s].toInt(), 256);
        // 40 iterations from the random start do not converge: the note names the k-means start
        // (METHODS.md 0), which the NMF runs' notes do not (classesSubset).
        QVERIFY(o[u"still_decreasing"_s].toBool());
        QVERIFY2(run.out.contains(u"try --init kmeans"_s), qPrintable(run.out));
    }
    // facet-cli run's progress line (cli/run_progress.h): on a terminal the set-up step with its
    // percentage, then the iterations, redrawn in place and cleared at the end; elsewhere
    // nothing, so logs and pipes keep only the summary.
    void runProgressDrawsOnATerminalOnly()
    {
        const auto written = [](int terminal) {
            return streamText([terminal](std::FILE* stream) {
                cli::RunProgress progress(40, 20, stream, terminal);
                progress.stage("the nearest-neighbour search");
                progress.stageProgress(0.25); // within 100 ms of the stage's line: skipped
                progress.stageProgress(1.0); // the end is always drawn
                progress.stage({});
                progress.iteration({ 21, 5.5, 0.1, 0 });
                progress.iteration({ 60, 1.25, 0.01, 0 }); // the limit: always drawn
            }); // the destructor clears the line
        };
        QVERIFY(written(0).isEmpty());
        const QByteArray shown = written(1);
        QVERIFY2(shown.startsWith("\rthe nearest-neighbour search...\033[K"), shown.constData());
        QVERIFY(!shown.contains("25 %"));
        QVERIFY(shown.contains("\rthe nearest-neighbour search: 100 %\033[K"));
        QVERIFY(!shown.contains("iteration 1/40"));
        QVERIFY2(shown.contains("\riteration 40/40, objective 1.25 (60 in all)\033[K"),
            shown.constData());
        QVERIFY(shown.endsWith("\r\033[K"));
    }
    // facet-cli sweep's progress (cli/sweep_progress.h): a line per cell in a log, one bar redrawn
    // in place on a terminal, with the cells done counting a resumed sweep's earlier ones.
    void sweepProgressInALogAndOnATerminal()
    {
        TrialResult t;
        t.cell = { "nmf", 3, 1, 0 };
        t.ac = 0.8125;
        t.nmi = 0.5;
        t.iterations = 42;
        t.seconds = 0.25;
        const QByteArray log = streamText([&](std::FILE* stream) {
            cli::SweepProgress progress(4, 1, stream, 0);
            progress.cellFinished(t);
            progress.finish();
        });
        QVERIFY2(log.startsWith("[2/4] nmf c=3 trial 2: AC 0.8125 NMI 0.5000, 42 iterations, "
                                "0.25 s (ETA "),
            log.constData());
        QVERIFY(log.endsWith(")\n"));
        const QByteArray bar = streamText([&](std::FILE* stream) {
            cli::SweepProgress progress(4, 1, stream, 1);
            progress.cellFinished(t);
            progress.cellFinished(t); // within 100 ms of the last draw: not redrawn
            progress.cellFinished(t); // the last cell is always drawn
            progress.finish();
        });
        QVERIFY2(
            bar.startsWith("\r[##############..............] 2/4  50%  ETA "), bar.constData());
        QCOMPARE(bar.count('\r'), 2);
        QVERIFY2(bar.contains("\r[############################] 4/4 100%  ETA 0:00  nmf c=3 "
                              "trial 2: AC 0.812\033[K\n"),
            bar.constData());
    }
    // LCCF's final normalization rescales V and so lambda Tr(V^T L V): fifteen iterations from the
    // random start leave V far from its scale, and the report and the summary line give both
    // objectives.
    void lccfReportsTheReturnedFactorsObjective()
    {
        QTemporaryDir dir;
        const QString json = dir.filePath(u"l.json"_s);
        const CliRun run = runCli({ u"run"_s, u"--dataset"_s, u"builtin:swimmer"_s, u"--method"_s,
            u"lccf"_s, u"--rank"_s, u"17"_s, u"--max-iter"_s, u"15"_s, u"--json"_s, json });
        QVERIFY2(run.exitCode == 0, qPrintable(run.err));
        const QJsonObject o = readJson(json);
        const double last = o[u"objective_history"_s].toArray().last().toDouble();
        const double returned = o[u"returned_objective"_s].toDouble(-1);
        QVERIFY2(returned > 0 && returned < last / 10,
            qPrintable(u"%1 at the last iteration, %2 returned"_s.arg(last).arg(returned)));
        QVERIFY2(run.out.contains(u"%1 at the returned factors, after the normalization"_s.arg(
                     returned, 0, 'g', 6)),
            qPrintable(run.out));
    }
    // Ctrl+C before the first iteration (the stop token runRun gets from main's SIGINT handler,
    // here set beforehand): during LCCF's neighbour search nothing is written and the exit code
    // is 130; NMF, whose set-up has no stage to cancel, still writes its cancelled run (also 130).
    void interruptDuringSetUpWritesNothing()
    {
        QTemporaryDir dir;
        const QString json = dir.filePath(u"c.json"_s);
        std::stop_source stop;
        stop.request_stop();
        const auto run = [&](const QString& method, QString& err) {
            const Result<CliOptions> options
                = parseArguments({ u"run"_s, u"--dataset"_s, u"builtin:gaussians"_s, u"--method"_s,
                    method, u"--rank"_s, u"3"_s, u"--json"_s, json });
            if (!options)
                return -1;
            QString out;
            QTextStream outStream(&out);
            QTextStream errStream(&err);
            return runRun(*options, outStream, errStream, stop.get_token());
        };
        QString err;
        QCOMPARE(run(u"lccf"_s, err), kExitInterrupted);
        QVERIFY2(err.contains(u"cancelled during the nearest-neighbour search"_s), qPrintable(err));
        QVERIFY(!QFileInfo::exists(json));
        err.clear();
        // Written, and still 130: a script tells an interrupted run from a finished one.
        QCOMPARE(run(u"nmf"_s, err), kExitInterrupted);
        QVERIFY2(err.contains(u"interrupted after"_s), qPrintable(err));
        QCOMPARE(readJson(json)[u"stop_reason"_s].toString(), u"cancelled"_s);
    }
    void classesSubset()
    {
        const QString yale = facetDataFile(u"Yale_32x32.mat"_s);
        FACET_REQUIRE_DATA(yale);
        QTemporaryDir dir;
        const QString json = dir.filePath(u"y.json"_s);
        const CliRun run
            = runCli({ u"run"_s, u"--dataset"_s, yale, u"--method"_s, u"nmf"_s, u"--rank"_s, u"3"_s,
                u"--classes"_s, u"1-3"_s, u"--max-iter"_s, u"30"_s, u"--json"_s, json });
        QVERIFY2(run.exitCode == 0, qPrintable(run.err));
        QCOMPARE(readJson(json)[u"n"_s].toInt(), 33);
        QVERIFY2(!run.out.contains(u"--init kmeans"_s), qPrintable(run.out)); // NMF: not CF
    }
    void badInputGivesOneLineAndNonZeroExit_data()
    {
        QTest::addColumn<QStringList>("arguments");
        QTest::addColumn<QString>("needle");
        QTest::newRow("missing file")
            << QStringList { u"info"_s, u"/nonexistent/x.mat"_s } << u"x.mat"_s;
        QTest::newRow("rank too large") << QStringList { u"run"_s, u"--dataset"_s,
            u"builtin:swimmer"_s, u"--method"_s, u"nmf"_s, u"--rank"_s, u"300"_s, u"--json"_s,
            u"/tmp/never.json"_s } << u"exceeds"_s;
        QTest::newRow("usage") << QStringList { u"run"_s, u"--method"_s, u"nmf"_s }
                               << u"--dataset"_s;
        QTest::newRow("unknown class") << QStringList { u"run"_s, u"--dataset"_s,
            u"builtin:swimmer"_s, u"--method"_s, u"nmf"_s, u"--rank"_s, u"3"_s, u"--classes"_s,
            u"1"_s, u"--json"_s, u"/tmp/never.json"_s }
                                       << u"labelled"_s;
        // The parser kept the last value: this ran CF without a word.
        QTest::newRow("option twice") << QStringList { u"run"_s, u"--dataset"_s,
            u"builtin:gaussians"_s, u"--method"_s, u"nmf"_s, u"--rank"_s, u"2"_s, u"--method"_s,
            u"cf"_s, u"--json"_s, u"/tmp/never.json"_s }
                                      << u"--method is given twice"_s;
        QTest::newRow("sweep option twice") << QStringList { u"sweep"_s, u"--dataset"_s,
            u"builtin:gaussians"_s, u"--methods"_s, u"nmf"_s, u"--trials"_s, u"2"_s, u"--trials"_s,
            u"3"_s, u"--out"_s, u"/tmp/never"_s }
                                            << u"--trials is given twice"_s;
        // Named as given: it said "class 0 is selected twice" for --classes 1,1.
        QTest::newRow("class twice") << QStringList { u"run"_s, u"--dataset"_s,
            u"builtin:gaussians"_s, u"--method"_s, u"nmf"_s, u"--rank"_s, u"2"_s, u"--classes"_s,
            u"1,1"_s, u"--json"_s, u"/tmp/never.json"_s }
                                     << u"class '1' is listed twice"_s;
    }
    void badInputGivesOneLineAndNonZeroExit()
    {
        QFETCH(QStringList, arguments);
        QFETCH(QString, needle);
        const CliRun run = runCli(arguments);
        QVERIFY(run.exitCode != 0);
        QVERIFY2(run.err.contains(needle), qPrintable(run.err));
        QCOMPARE(run.err.trimmed().count(u'\n'), 0);
    }
    // The outputs' paths are checked before the data is loaded: a --factors in a missing folder
    // or a --basis-png that is no image format fails at once, and the JSON, which used to be
    // written before those failed, is not.
    void outputPathsAreCheckedFirst_data()
    {
        QTest::addColumn<QStringList>("extra");
        QTest::addColumn<QString>("needle");
        QTest::newRow("factors folder missing")
            << QStringList { u"--factors"_s, u"/nonexistent/f.mat"_s } << u"/nonexistent"_s;
        QTest::newRow("basis format") << QStringList { u"--basis-png"_s, u"@DIR@/b.txt"_s }
                                      << u"'txt' is not an image format"_s;
        QTest::newRow("factors is a folder")
            << QStringList { u"--factors"_s, u"@DIR@"_s } << u"is a folder"_s;
        QTest::newRow("json folder missing")
            << QStringList { u"--json"_s, u"/nonexistent/r.json"_s } << u"does not exist"_s;
        // Found only after the solve before (issue 36, item 10): a name the file system cannot
        // hold, one whose temporary file it cannot, and a folder that takes no new file.
        QTest::newRow("name of 300 bytes")
            << QStringList { u"--json"_s, u"@DIR@/"_s + QString(295, u'a') + u".json"_s }
            << u"the file name is 300 bytes long"_s;
        QTest::newRow("name of 250 bytes")
            << QStringList { u"--factors"_s, u"@DIR@/"_s + QString(246, u'f') + u".mat"_s }
            << u"give a name of at most 247 bytes"_s;
        QTest::newRow("read-only folder") << QStringList { u"--basis-png"_s, u"@LOCKED@/b.png"_s }
                                          << u"cannot create a file in"_s;
    }
    void outputPathsAreCheckedFirst()
    {
        QFETCH(QStringList, extra);
        QFETCH(QString, needle);
        QTemporaryDir dir;
        const QString json = dir.filePath(u"r.json"_s);
        // As root, permission bits do not stop writes; sysfs, which never takes a new file, does.
        const QString locked = dir.filePath(u"locked"_s);
        QVERIFY(QDir().mkpath(locked));
        QFile::setPermissions(locked, QFileDevice::ReadOwner | QFileDevice::ExeOwner);
        extra.replaceInStrings(u"@LOCKED@"_s, geteuid() == 0 ? u"/sys"_s : locked);
        extra.replaceInStrings(u"@DIR@"_s, dir.path());
        QStringList arguments { u"run"_s, u"--dataset"_s, u"builtin:swimmer"_s, u"--method"_s,
            u"nmf"_s, u"--rank"_s, u"3"_s, u"--max-iter"_s, u"5"_s };
        if (!extra.contains(u"--json"_s))
            arguments << u"--json"_s << json;
        const CliRun run = runCli(arguments + extra);
        QCOMPARE(run.exitCode, int(kExitFailure));
        QVERIFY2(run.err.contains(needle), qPrintable(run.err));
        QVERIFY2(!run.out.contains(u"swimmer"_s, Qt::CaseInsensitive), qPrintable(run.out));
        QVERIFY(!QFileInfo::exists(json));
        QFile::setPermissions(locked,
            QFileDevice::ReadOwner | QFileDevice::WriteOwner
                | QFileDevice::ExeOwner); // so QTemporaryDir can remove it
    }
    // A run whose first step overflowed (CF on signed data near 1e152, which is neither scaled
    // to [0, 1] nor normalized here) printed "objective 0", wrote a JSON with a null objective
    // and scored AC on its start (issue 36, item 15). It is not scored and nothing is written.
    void runThatNeverIteratedIsNotScored()
    {
        QTemporaryDir dir;
        Dataset data;
        data.name = u"huge"_s;
        Rng rng(3);
        data.X = (rng.uniformMatrix(12, 18).array() - Scalar(0.2)) * Scalar(1e152);
        for (int j = 0; j < 18; ++j)
            data.labels.push_back(j % 3);
        data.classNames = { u"1"_s, u"2"_s, u"3"_s };
        const QString mat = dir.filePath(u"huge.mat"_s);
        QVERIFY(writeDatasetMat(mat, data).ok());
        const QString json = dir.filePath(u"r.json"_s);
        const CliRun run
            = runCli({ u"run"_s, u"--dataset"_s, mat, u"--method"_s, u"cf"_s, u"--rank"_s, u"3"_s,
                u"--normalize"_s, u"none"_s, u"--max-iter"_s, u"5"_s, u"--json"_s, json });
        QVERIFY2(run.exitCode == int(kExitFailure), qPrintable(run.out + run.err));
        QVERIFY2(run.err.contains(u"stopped before its first iteration"_s), qPrintable(run.err));
        QVERIFY2(!run.out.contains(u"objective 0"_s), qPrintable(run.out));
        QVERIFY(!QFileInfo::exists(json));
    }

    // What the folder loader left out reaches run's output too (only info printed it).
    void runNotesSkippedFiles()
    {
        QTemporaryDir dir;
        for (int c = 0; c < 2; ++c) {
            const QString folder = dir.filePath(u"class%1"_s.arg(c + 1));
            QVERIFY(QDir().mkpath(folder));
            for (int i = 0; i < 4; ++i)
                QVERIFY(fixtures::writeBytes(QDir(folder).filePath(u"%1.pgm"_s.arg(i)),
                    fixtures::pgmBytes(fixtures::pattern(8, 8, 10 * c + i))));
        }
        QVERIFY(fixtures::writeBytes(dir.filePath(u"class1/readme.txt"_s), "not an image"));
        const QString json = dir.filePath(u"r.json"_s);
        const CliRun run = runCli({ u"run"_s, u"--dataset"_s, dir.path(), u"--method"_s, u"nmf"_s,
            u"--rank"_s, u"2"_s, u"--max-iter"_s, u"5"_s, u"--json"_s, json });
        QVERIFY2(run.exitCode == 0, qPrintable(run.err));
        QVERIFY2(
            run.out.contains(u"note: skipped 1 file(s) that are not images: class1/readme.txt"_s),
            qPrintable(run.out));
    }
    // Ctrl+C (SIGINT to the process group, the helper included), a signal to the reader alone,
    // SIGKILL or SIGTERM to facet-cli while facet-mat-reader reads a MAT 7.3 file. Beside a copy
    // of facet-cli sits a stand-in reader that writes its hand-back file and waits, so the signal
    // always comes during the load. Ctrl+C exits 130 without calling the file damaged and leaves
    // nothing behind; a reader stopped from outside is an error that says so, not a damaged file;
    // a killed facet-cli takes the reader with it (PR_SET_PDEATHSIG), and the next facet-cli
    // removes its folder.
    void interruptedMat73Load_data()
    {
        QTest::addColumn<QString>("command");
        QTest::addColumn<int>("signal");
        QTest::addColumn<QString>("target"); // group (Ctrl+C), cli or reader
        QTest::newRow("run, Ctrl+C") << u"run"_s << SIGINT << u"group"_s;
        QTest::newRow("info, Ctrl+C") << u"info"_s << SIGINT << u"group"_s;
        QTest::newRow("run, reader stopped") << u"run"_s << SIGTERM << u"reader"_s;
        QTest::newRow("run, SIGKILL") << u"run"_s << SIGKILL << u"cli"_s;
        QTest::newRow("info, SIGTERM") << u"info"_s << SIGTERM << u"cli"_s;
    }
    void interruptedMat73Load()
    {
        QFETCH(QString, command);
        QFETCH(int, signal);
        QFETCH(QString, target);
        QTemporaryDir dir;
        const QString bin = dir.filePath(u"bin"_s), temp = dir.filePath(u"tmp"_s);
        QVERIFY(QDir().mkpath(bin) && QDir().mkpath(temp));
        const QString cli = bin + u"/facet-cli"_s, reader = bin + u"/facet-mat-reader"_s;
        QVERIFY(QFile::copy(cliPath(), cli)); // the helper is looked for beside the executable
        const QString pidFile = dir.filePath(u"reader.pid"_s);
        QVERIFY(fixtures::writeBytes(reader,
            "#!/bin/sh\n"
            "head -c 1048576 /dev/zero > \"$2\"\n"
            "echo $$ > \"$READER_PID.part\" && mv \"$READER_PID.part\" \"$READER_PID\"\n"
            "exec sleep 600\n"));
        QVERIFY(QFile::setPermissions(reader, QFile::permissions(cli)));
        const QString mat = dir.filePath(u"v73.mat"_s);
        mat_t* file = Mat_CreateVer(QFile::encodeName(mat).constData(), nullptr, MAT_FT_MAT73);
        if (!file)
            QSKIP("this matio cannot write MAT 7.3 files");
        double values[4] = { 1, 2, 3, 4 };
        std::size_t dims[2] = { 2, 2 };
        matvar_t* fea = Mat_VarCreate("fea", MAT_C_DOUBLE, MAT_T_DOUBLE, 2, dims, values, 0);
        QCOMPARE(Mat_VarWrite(file, fea, MAT_COMPRESSION_NONE), 0);
        Mat_VarFree(fea);
        Mat_Close(file);

        const QStringList environment { u"TMPDIR="_s + temp, u"READER_PID="_s + pidFile };
        const QString json = dir.filePath(u"r.json"_s);
        ChildProcess process;
        process.setEnvironment(environment);
        process.setOwnProcessGroup(true);
        QVERIFY(process.start(cli,
            command == u"run"_s ? QStringList { u"run"_s, u"--dataset"_s, mat, u"--method"_s,
                u"nmf"_s, u"--rank"_s, u"1"_s, u"--json"_s, json }
                                : QStringList { u"info"_s, mat }));
        while (!QFileInfo::exists(pidFile) && process.running())
            QThread::msleep(5);
        QVERIFY2(QFileInfo::exists(pidFile), qPrintable(process.err()));
        const pid_t helper = readBytes(pidFile).trimmed().toInt();
        QVERIFY(helper > 0);
        if (target == u"group"_s)
            process.killGroup(signal);
        else if (target == u"cli"_s)
            process.kill(signal);
        else
            ::kill(helper, signal);
        QVERIFY(process.waitForFinished(60000));
        // Ended: its /proc entry gone, or a zombie no one reaped.
        const auto processEnded = [](pid_t pid) {
            QFile stat(u"/proc/%1/stat"_s.arg(pid));
            if (!stat.open(QIODevice::ReadOnly))
                return true;
            const QByteArray line = stat.readAll();
            const qsizetype name = line.lastIndexOf(')'); // "pid (comm) S ...", spaces in comm
            return name < 0 || line.mid(name + 2, 1) == "Z";
        };
        QDeadlineTimer patience(60000); // a bound for a broken build, not a timing
        while (!processEnded(helper) && !patience.hasExpired())
            QThread::msleep(5);
        const bool helperEnded = processEnded(helper);
        if (!helperEnded)
            ::kill(helper, SIGKILL);
        QVERIFY2(helperEnded, "facet-mat-reader outlived facet-cli");
        const auto left = [&temp] {
            return QDir(temp).entryList(QDir::AllEntries | QDir::NoDotAndDotDot | QDir::Hidden);
        };
        if (target != u"cli"_s) {
            // Stopped from outside, the reader alone: an error, but not a damaged file.
            QCOMPARE(process.exitCode(), target == u"group"_s ? kExitInterrupted : kExitFailure);
            QVERIFY2(
                process.err().contains(target == u"group"_s
                        ? u"interrupted while loading"_s
                        : u"interrupted: its reader, facet-mat-reader, was stopped by signal"_s),
                qPrintable(process.err()));
            QVERIFY2(!process.err().contains(u"damaged"_s), qPrintable(process.err()));
            QVERIFY(!QFileInfo::exists(json));
            QCOMPARE(left(), QStringList());
            return;
        }
        QVERIFY(process.crashed());
        QCOMPARE(left().size(), 1); // the killed process's hand-back folder, 1 MB inside
        ChildProcess next;
        next.setEnvironment(environment);
        QVERIFY(next.start(cli, { u"--version"_s }));
        QVERIFY(next.waitForFinished(60000));
        QCOMPARE(next.exitCode(), 0);
        QCOMPARE(left(), QStringList());
    }
    // rank-survey end to end on a generated labelled set: every output, the data's digest, a
    // suggestion among the ranks, and a rank the data cannot take refused before any run.
    void rankSurveyWritesEveryOutput()
    {
        QTemporaryDir dir;
        const QString out = dir.filePath(u"survey/nested"_s); // made by the command
        const CliRun run
            = runCli({ u"rank-survey"_s, u"--dataset"_s, u"gen:120x36"_s, u"--method"_s, u"nmf"_s,
                u"--ranks"_s, u"8-11"_s, u"--runs"_s, u"3"_s, u"--max-iter"_s, u"80"_s, u"--seed"_s,
                u"4"_s, u"--folds"_s, u"2"_s, u"--holdout=0.2"_s, u"--out"_s, out });
        QVERIFY2(run.exitCode == 0, qPrintable(run.err));
        QStringList expected { u"survey.json"_s, u"survey.csv"_s, u"survey.md"_s };
        for (const QString& plot : { u"consensus"_s, u"ac_nmi"_s, u"heldout"_s, u"reconstruction"_s,
                 u"sparseness"_s, u"time"_s })
            for (const QString& suffix : { u".png"_s, u".svg"_s, u".pdf"_s })
                expected << plot + suffix;
        for (const QString& file : expected)
            QVERIFY2(QFileInfo(QDir(out).filePath(file)).size() > 0, qPrintable(file));
        QFile jsonFile(QDir(out).filePath(u"survey.json"_s));
        QVERIFY(jsonFile.open(QIODevice::ReadOnly));
        const QJsonObject json = QJsonDocument::fromJson(jsonFile.readAll()).object();
        QCOMPARE(json[u"format"_s].toString(), u"facet-rank-survey-1"_s);
        QCOMPARE(json[u"dataset"_s].toObject()[u"sha256"_s].toString().size(), 64);
        const QJsonArray ranks = json[u"ranks"_s].toArray();
        QCOMPARE(ranks.size(), 4);
        for (const QJsonValue& row : ranks) {
            const double cophenetic = row[u"cophenetic"_s].toDouble(2);
            QVERIFY(cophenetic >= -1 && cophenetic <= 1);
            QCOMPARE(row[u"ac"_s].toObject()[u"count"_s].toInt(), 3);
            QCOMPARE(row[u"held_out_error"_s].toObject()[u"count"_s].toInt(), 2); // --folds 2
        }
        const int suggested
            = json[u"suggestion"_s].toObject()[u"cophenetic"_s].toObject()[u"rank"_s].toInt();
        QVERIFY2(suggested >= 8 && suggested <= 11, qPrintable(run.out));
        QVERIFY(QFileInfo::exists(QDir(out).filePath(u"consensus_k%1.png"_s.arg(suggested))));
        QVERIFY2(run.out.contains(u"suggested k = %1"_s.arg(suggested)), qPrintable(run.out));
        QFile svg(QDir(out).filePath(u"consensus.svg"_s));
        QVERIFY(svg.open(QIODevice::ReadOnly));
        QXmlStreamReader xml(&svg);
        while (!xml.atEnd())
            xml.readNext();
        QVERIFY2(!xml.hasError(), qPrintable(xml.errorString()));

        const CliRun tooLarge = runCli({ u"rank-survey"_s, u"--dataset"_s, u"gen:120x36"_s,
            u"--method"_s, u"nmf"_s, u"--ranks"_s, u"30-40"_s, u"--out"_s, out });
        QCOMPARE(tooLarge.exitCode, 1);
        QVERIFY2(tooLarge.err.contains(u"rank 37 is outside 1..36"_s), qPrintable(tooLarge.err));
    }

    void infoOnSwimmer()
    {
        const CliRun run = runCli({ u"info"_s, u"builtin:swimmer"_s });
        QCOMPARE(run.exitCode, 0);
        QVERIFY2(run.out.contains(u"256"_s), qPrintable(run.out));
    }
};

#include "facet_test.h"
FACET_TEST_GUILESS_MAIN(TestCli)
#include "test_cli.moc"
