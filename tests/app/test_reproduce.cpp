// SPDX-License-Identifier: GPL-3.0-or-later
// The papers' published numbers as data (resources/papers/*.json) and `facet-cli reproduce`:
// every record parses and agrees with the averages and gains its paper prints, a damaged record
// is refused with the reason, bad command lines are refused, and a tiny reproduction writes every
// output with the paper's numbers beside Facet's. No test asserts on reaching a paper's number.
#include "cli/cli_options.h"
#include "cli/commands.h"
#include "cli/reproduce_command.h"
#include "cli/sweep_options.h"
#include "cli_process.h"
#include "experiment/paper_record.h"
#include "paper_fixtures.h"
#include "test_data.h"

#include <QDir>
#include <QFileInfo>
#include <QJsonArray>
#include <QTemporaryDir>
#include <QtTest>

using namespace facet;
using namespace facet::testing;
using namespace facet::cli;
using namespace Qt::StringLiterals;

namespace {

// A small valid record, damaged by the test rows.
QByteArray minimalRecord()
{
    return R"({"format": "facet-paper-1", "paper": "toy", "title": "Toy", "source": "toy.txt",
  "reproducible": true, "protocol": {"stated": "ten trials"},
  "sweep": {"methods": "nmf", "trials": "10"},
  "methods": [{"paper": "NMF", "facet": "nmf"}, {"paper": "NTF", "facet": null, "why": "none"}],
  "datasets": [{"key": "yale", "paper_name": "Yale", "file": "Yale_32x32.mat", "available": true}],
  "tables": [{"dataset": "yale", "table": "Table 1", "decimals": 1,
    "cells": [{"method": "NMF", "c": 2, "ac": 80.0, "ac_std": 10.0, "nmi": 50.0, "nmi_std": 5.0},
              {"method": "NMF", "c": 3, "ac": 70.0, "ac_std": 12.0, "nmi": 40.0, "nmi_std": 7.0}],
    "average": [{"method": "NMF", "ac": 75.0, "ac_std": 11.0, "nmi": 45.0, "nmi_std": 6.0}]}],
  "claims": [{"kind": "best", "dataset": "yale", "method": "NMF", "quote": "NMF wins"}]})";
}

} // namespace

class TestReproduce : public QObject {
    Q_OBJECT
private slots:
    // Every embedded record parses, its cells give the averages and the gains the paper prints
    // (the disagreements the paper has are recorded in the file, so none is left over), and its
    // protocol is a sweep facet-cli accepts on each of its data sets.
    void recordsParseAndAgreeWithTheirPapers()
    {
        const Result<std::vector<PaperRecord>> all = loadPaperRecords();
        QVERIFY2(all.ok(), all.ok() ? "" : qPrintable(all.error()));
        QStringList keys;
        for (const PaperRecord& p : *all) {
            keys << p.key;
            const QStringList problems = paperDisagreements(p);
            QVERIFY2(problems.isEmpty(), qPrintable(p.key + u": "_s + problems.join(u"; "_s)));
            if (!p.reproducible)
                continue;
            for (const PaperDataset& d : p.datasets) {
                if (!d.available)
                    continue;
                QStringList args = reproduceSweepArguments(p, {}, u"/data/"_s + d.file);
                args << u"--out"_s << u"/tmp/never"_s;
                const Result<CliOptions> sweep = parseSweepArguments(args);
                QVERIFY2(
                    sweep.ok(), qPrintable(p.key + u": "_s + (sweep ? QString() : sweep.error())));
            }
        }
        QCOMPARE(keys, (QStringList { u"ccf"_s, u"cf-ogl"_s, u"cnmf"_s, u"lccf"_s, u"lcf"_s }));
        // The two papers whose tables survived: 5 methods x c = 2..10, and an average each.
        for (const QString& key : { u"lcf"_s, u"cnmf"_s })
            for (const PaperTable& t : paperRecordByKey(key).tables) {
                QCOMPARE(t.cells.size(), std::size_t(45));
                QCOMPARE(t.average.size(), std::size_t(5));
            }
        const PaperRecord lcf = paperRecordByKey(u"lcf"_s);
        const PaperCell* cell = lcf.table(u"yale"_s)->cell(u"LCF"_s, 2);
        QVERIFY(cell);
        QCOMPARE(cell->ac, 85.00);
        QCOMPARE(cell->acStd.value_or(0), 17.01);
        QCOMPARE(cell->nmi, 56.78);
        QVERIFY(!paperRecordByKey(u"lccf"_s).reproducible);
    }
    // The check can fail: a mistyped cell, a gain that is not the difference of the averages,
    // and a recorded disagreement that is none are each found.
    void disagreementsAreFound()
    {
        PaperRecord lcf = paperRecordByKey(u"lcf"_s);
        for (PaperTable& t : lcf.tables)
            if (t.dataset == u"orl")
                for (PaperCell& c : t.cells)
                    if (c.method == u"CF" && c.clusters == 5)
                        c.ac += 1.0; // 69.00 typed as 70.00
        QStringList problems = paperDisagreements(lcf);
        QCOMPARE(problems.size(), 1);
        QVERIFY2(problems.first().contains(u"Table 3, CF AC"_s), qPrintable(problems.first()));

        PaperRecord cnmf = paperRecordByKey(u"cnmf"_s);
        for (PaperClaim& c : cnmf.claims)
            if (c.dataset == u"orl" && c.metric == u"ac")
                c.points = 3.9;
            else if (c.dataset == u"yale" && c.metric == u"nmi")
                c.fits.clear(); // its numbers fit SemiGNMF, not the GNMF it names
        problems = paperDisagreements(cnmf);
        QCOMPARE(problems.size(), 2);
        QVERIFY2(problems.join(u'\n').contains(u"gain of CNMF over NMF in AC, 3.9"_s),
            qPrintable(problems.join(u'\n')));
        QVERIFY2(
            problems.join(u'\n').contains(u"over GNMF in NMI"_s), qPrintable(problems.join(u'\n')));
    }
    void malformedRecordsAreRefused_data()
    {
        QTest::addColumn<QByteArray>("bytes");
        QTest::addColumn<QString>("needle");
        const QByteArray good = minimalRecord();
        const auto edit = [&](const char* from, const char* to) {
            QByteArray b = good;
            return b.replace(from, to);
        };
        QTest::newRow("good") << good << QString();
        QTest::newRow("not JSON") << good.left(40) << u"toy.json is not valid JSON"_s;
        QTest::newRow("format") << edit("facet-paper-1", "facet-paper-9")
                                << u"\"format\" must be \"facet-paper-1\""_s;
        QTest::newRow("no tables")
            << edit("\"tables\"", "\"tablez\"") << u"\"tables\" is missing"_s;
        QTest::newRow("cell text") << edit("\"ac\": 70.0",
            "\"ac\": \"7x.0\"") << u"tables[0]: cells[1]: \"ac\" must be a number from 0 to 100"_s;
        QTest::newRow("cell over 100") << edit("\"nmi\": 40.0", "\"nmi\": 400.0")
                                       << u"\"nmi\" must be a number from 0 to 100, found 400"_s;
        QTest::newRow("unknown method")
            << edit("\"facet\": \"nmf\"", "\"facet\": \"svd\"") << u"Facet has no method \"svd\""_s;
        QTest::newRow("lacking without why")
            << edit(", \"why\": \"none\"", "") << u"a method Facet lacks needs \"why\""_s;
        QTest::newRow("cell of unlisted method") << edit("{\"method\": \"NMF\", \"c\": 3",
            "{\"method\": \"GNMF\", \"c\": 3") << u"the method \"GNMF\", which \"methods\""_s;
        QTest::newRow("unlisted dataset")
            << edit("\"dataset\": \"yale\", \"table\"", "\"dataset\": \"feret\", \"table\"")
            << u"the dataset \"feret\""_s;
        QTest::newRow("claim kind") << edit("\"kind\": \"best\"", "\"kind\": \"worst\"")
                                    << u"\"kind\" must be \"gain\" or \"best\""_s;
        QTest::newRow("cell twice")
            << edit("\"c\": 3", "\"c\": 2") << u"two cells for NMF at c = 2"_s;
        QTest::newRow("no reason")
            << edit("\"reproducible\": true", "\"reproducible\": false") << u"needs \"why_not\""_s;
    }
    void malformedRecordsAreRefused()
    {
        QFETCH(QByteArray, bytes);
        QFETCH(QString, needle);
        const Result<PaperRecord> parsed = parsePaperRecord(bytes, u":/papers/toy.json"_s);
        if (needle.isEmpty()) {
            QVERIFY2(parsed.ok(), parsed.ok() ? "" : qPrintable(parsed.error()));
            QVERIFY(paperDisagreements(*parsed).isEmpty());
            return;
        }
        QVERIFY(!parsed.ok());
        QVERIFY2(parsed.error().startsWith(u"toy.json"_s), qPrintable(parsed.error()));
        QVERIFY2(parsed.error().contains(needle), qPrintable(parsed.error()));
    }
    void listShowsEveryPaper()
    {
        const CliRun run = runCli({ u"reproduce"_s, u"list"_s });
        QVERIFY2(run.exitCode == 0, qPrintable(run.err));
        for (const QString& needle : { u"lcf "_s, u"cnmf "_s, u"ccf "_s, u"cf-ogl "_s, u"lccf "_s,
                 u"not reproducible: its experiments use the TDT2"_s, u"not in Facet: SparseNMF"_s,
                 u"NMF = nmf (ncw)"_s, u"FERET (not available)"_s, u"Table IV (lost)"_s,
                 u"--subruns 10"_s, u"720 cells (7200 factorizations)"_s })
            QVERIFY2(run.out.contains(needle), qPrintable(needle + u" in:\n"_s + run.out));
        const Result<CliOptions> help = parseArguments({ u"help"_s, u"reproduce"_s });
        QVERIFY(help.ok() && help->command == Command::Help);
        QVERIFY2(help->helpText.startsWith(u"Usage: facet-cli reproduce PAPER --out DIR"_s),
            qPrintable(help->helpText));
        const Result<CliOptions> flag = parseArguments({ u"reproduce"_s, u"lcf"_s, u"--help"_s });
        QVERIFY(flag.ok());
        QCOMPARE(flag->helpText, help->helpText);
        QVERIFY(parseArguments({ u"help"_s })->helpText.contains(u"reproduce PAPER --out DIR"_s));
    }
    // Refused while parsing: facet-cli prints the one line and exits with kExitUsage.
    void refusals_data()
    {
        QTest::addColumn<QStringList>("arguments");
        QTest::addColumn<QString>("needle");
        const QStringList lcf { u"reproduce"_s, u"lcf"_s, u"--out"_s, u"/tmp/never-written"_s };
        QTest::newRow("lccf") << QStringList { u"reproduce"_s, u"lccf"_s, u"--out"_s, u"d"_s }
                              << u"cannot be reproduced: its experiments use"_s;
        QTest::newRow("no paper") << QStringList { u"reproduce"_s } << u"reproduce needs a PAPER"_s;
        QTest::newRow("two papers") << QStringList { u"reproduce"_s, u"lcf"_s, u"cnmf"_s }
                                    << u"reproduce takes one PAPER, got lcf cnmf"_s;
        QTest::newRow("no out") << QStringList { u"reproduce"_s, u"lcf"_s } << u"needs --out DIR"_s;
        QTest::newRow("trials 0") << (lcf + QStringList { u"--trials"_s, u"0"_s })
                                  << u"--trials must be between 1"_s;
        QTest::newRow("max-iter text") << (lcf + QStringList { u"--max-iter"_s, u"many"_s })
                                       << u"--max-iter expects a whole number"_s;
        QTest::newRow("clusters 1")
            << (lcf + QStringList { u"--clusters"_s, u"1,2"_s }) << u"must be at least 2, got 1"_s;
        QTest::newRow("seed") << (lcf + QStringList { u"--seed"_s, u"-3"_s })
                              << u"--seed expects a non-negative whole number"_s;
        QTest::newRow("option twice")
            << (lcf + QStringList { u"--trials"_s, u"2"_s, u"--trials"_s, u"3"_s })
            << u"--trials is given twice"_s;
        QTest::newRow("unknown option")
            << (lcf + QStringList { u"--lambda"_s, u"2"_s }) << u"Unknown option 'lambda'"_s;
        QTest::newRow("dataset of another paper")
            << (lcf + QStringList { u"--datasets"_s, u"mnist"_s }) << u"has no data set 'mnist'"_s;
        QTest::newRow("unavailable dataset") << QStringList { u"reproduce"_s, u"cf-ogl"_s,
            u"--out"_s, u"d"_s, u"--datasets"_s, u"feret"_s }
                                             << u"FERET is not available"_s;
        QTest::newRow("list with options") << QStringList { u"reproduce"_s, u"list"_s,
            u"--trials"_s, u"2"_s } << u"reproduce list takes no --trials"_s;
    }
    void refusals()
    {
        QFETCH(QStringList, arguments);
        QFETCH(QString, needle);
        const Result<CliOptions> parsed = parseArguments(arguments);
        QVERIFY(!parsed.ok());
        QVERIFY2(parsed.error().contains(needle), qPrintable(parsed.error()));
        QVERIFY2(!parsed.error().contains(u'\n'), qPrintable(parsed.error()));
    }
    // The executable: a usage error exits with 2, a missing data file with 1, each with one line
    // on stderr and nothing written.
    void refusalExitCodes()
    {
        const CliRun unknown
            = runCli({ u"reproduce"_s, u"nmf"_s, u"--out"_s, u"/tmp/never-written"_s });
        QCOMPARE(unknown.exitCode, kExitUsage);
        QVERIFY2(
            unknown.err.contains(u"unknown paper 'nmf'; the papers are ccf, cf-ogl, cnmf, lcf"_s),
            qPrintable(unknown.err));
        QCOMPARE(unknown.err.trimmed().count(u'\n'), 0);
        const CliRun missing = runCli({ u"reproduce"_s, u"lcf"_s, u"--out"_s,
            u"/tmp/never-written"_s, u"--data-dir"_s, u"/nonexistent"_s });
        QCOMPARE(missing.exitCode, kExitFailure);
        QVERIFY2(missing.err.contains(u"the Yale data, Yale_32x32.mat, is not in /nonexistent"_s),
            qPrintable(missing.err));
        QCOMPARE(missing.err.trimmed().count(u'\n'), 0);
        QVERIFY(!QFileInfo::exists(u"/tmp/never-written"_s));
    }
    // The tiny preset: LCF's protocol on Yale at c = 2, 3, two trials of two sub-runs, 20
    // iterations. Every output is written, the table holds the paper's numbers, every output
    // records the seed, the algorithm and the data's identity, and the same command again
    // resumes the finished sweep.
    void tinyReproductionWritesEveryOutput()
    {
        const QString yale = facetDataFile(u"Yale_32x32.mat"_s);
        FACET_REQUIRE_DATA(yale);
        QTemporaryDir dir;
        const QString out = dir.filePath(u"lcf"_s);
        const QStringList command { u"reproduce"_s, u"lcf"_s, u"--datasets"_s, u"yale"_s,
            u"--clusters"_s, u"2,3"_s, u"--trials"_s, u"2"_s, u"--subruns"_s, u"2"_s,
            u"--max-iter"_s, u"20"_s, u"--seed"_s, u"7"_s, u"--data-dir"_s, facetDataDir(),
            u"--out"_s, out };
        const CliRun run = runCli(command);
        QVERIFY2(run.exitCode == 0, qPrintable(run.err));
        QStringList expected { u"reproduction.md"_s, u"reproduction.csv"_s, u"reproduction.json"_s,
            u"yale/results.json"_s, u"yale/table.md"_s, u"yale/summary.csv"_s, u"yale/ac.png"_s };
        for (const QString& metric : { u"ac"_s, u"nmi"_s })
            for (const QString& suffix : { u".png"_s, u".svg"_s, u".pdf"_s })
                expected << u"reproduction_yale_"_s + metric + suffix;
        for (const QString& file : expected)
            QVERIFY2(QFileInfo(QDir(out).filePath(file)).size() > 0, qPrintable(file));

        const QJsonObject json = readJson(QDir(out).filePath(u"reproduction.json"_s));
        QCOMPARE(json[u"format"_s].toString(), u"facet-reproduction-1"_s);
        QCOMPARE(json[u"paper"_s][u"key"_s].toString(), u"lcf"_s);
        QCOMPARE(json[u"options"_s][u"seed"_s].toString(), u"7"_s);
        QVERIFY(json[u"departures"_s].toArray().contains(u"--trials 2 (the paper: 10)"_s));
        const QJsonObject yaleJson = json[u"datasets"_s].toArray().at(0).toObject();
        QCOMPARE(yaleJson[u"file_sha256"_s].toString(),
            u"beb3cc9f448c1ab786583c8f5429368c299843ee88263f9650ed463004ef7633"_s);
        QCOMPARE(yaleJson[u"sweep_options"_s][u"run"_s][u"algorithm"_s].toString(), u"mu"_s);
        QCOMPARE(yaleJson[u"sweep_options"_s][u"subruns"_s].toInt(), 2);
        QVERIFY(yaleJson[u"paper_average_recomputed"_s].toBool());
        const QJsonArray methods = yaleJson[u"methods"_s].toArray();
        QCOMPARE(methods.size(), 4); // kmeans, nmf, cf, lcf: SparseNMF is not in Facet
        const QJsonObject lcf = methods.at(3).toObject();
        QCOMPARE(lcf[u"paper"_s].toString(), u"LCF"_s);
        const QJsonArray cells = lcf[u"ac"_s][u"cells"_s].toArray();
        QCOMPARE(cells.size(), 2);
        QCOMPARE(cells.at(0)[u"paper_mean"_s].toDouble(), 85.00);
        QCOMPARE(cells.at(0)[u"paper_std"_s].toDouble(), 17.01);
        QCOMPARE(cells.at(1)[u"paper_mean"_s].toDouble(), 76.36);
        QCOMPARE(cells.at(0)[u"facet_trials"_s].toInt(), 2);
        const double facetMean = cells.at(0)[u"facet_mean"_s].toDouble(-1);
        QVERIFY(facetMean >= 50 && facetMean <= 100); // c = 2: AC is at least one half
        QCOMPARE(cells.at(0)[u"difference"_s].toDouble(), facetMean - 85.00);
        QCOMPARE(lcf[u"ac"_s][u"average"_s][u"paper_mean"_s].toDouble(), (85.00 + 76.36) / 2);
        QCOMPARE(
            yaleJson[u"ranking"_s][u"ac"_s][u"paper"_s].toArray().first().toString(), u"LCF"_s);
        QCOMPARE(yaleJson[u"ranking"_s][u"ac"_s][u"facet"_s].toArray().size(), 4);

        const QString csv = QString::fromUtf8(readBytes(QDir(out).filePath(u"reproduction.csv"_s)));
        QVERIFY2(csv.contains(u"lcf,yale,Yale_32x32.mat,beb3cc9f"_s), qPrintable(csv));
        QVERIFY2(csv.contains(u",LCF,lcf,2,ac,85,17.01,"_s), qPrintable(csv));
        QVERIFY2(csv.contains(u",7,2,oracle-best-ac,mu,20\n"_s), qPrintable(csv));
        const QString md = QString::fromUtf8(readBytes(QDir(out).filePath(u"reproduction.md"_s)));
        for (const QString& needle : { u"85.00 ± 17.01"_s, u"| LCF over SparseNMF, AC | +4.41"_s,
                 u"Departures from the paper's protocol"_s, u"--max-iter 20"_s,
                 u"beb3cc9f448c1ab786583c8f5429368c299843ee88263f9650ed463004ef7633"_s })
            QVERIFY2(md.contains(needle), qPrintable(needle));

        const CliRun again = runCli(command);
        QVERIFY2(again.exitCode == 0, qPrintable(again.err));
        QVERIFY2(again.err.contains(u"16 of 16 cells already finished"_s), qPrintable(again.err));
    }
};

#include "facet_test.h"
FACET_TEST_GUILESS_MAIN(TestReproduce)
#include "test_reproduce.moc"
