// SPDX-License-Identifier: GPL-3.0-or-later
// Sweeps (issue "Experiments"): the thread pool's results do not depend on the thread count, a
// cancelled sweep keeps valid cells and resumes to the same numbers, the table's numbers, the
// results file round trip, and facet-cli sweep / sweep-cell / --resume end to end on a tiny
// planted set written by the test.
#include "cli_process.h"
#include "core/random.h"
#include "data/dataset_source.h"
#include "data/mat_writer.h"
#include "experiment/experiment_job.h"
#include "experiment/sweep_json.h"
#include "experiment/sweep_runner.h"
#include "experiment/sweep_table.h"

#include "planted_squares.h"
#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QThread>
#include <QXmlStreamReader>

#include <QtTest>

#include <cmath>

#include <tuple>

#include <atomic>

using namespace facet;
using namespace facet::testing;
using namespace Qt::StringLiterals;

namespace {

Dataset planted()
{
    return plantedSquares(11);
}

ExperimentOptions sweepOptions()
{
    ExperimentOptions o;
    o.methods = { "kmeans", "nmf", "cf", "lcf" };
    o.clusterCounts = { 2, 3, 4 };
    o.trials = 3;
    o.seed = 5;
    o.base.driver.maxIter = 60;
    o.base.cluster.replicates = 4;
    return o;
}

std::vector<TrialResult> runAll(const ExperimentDataset& data, const ExperimentOptions& o,
    const std::vector<ExperimentCell>& cells, int threads, std::stop_source* stopAfter = nullptr,
    int k = 0)
{
    std::vector<TrialResult> out;
    runCellsInParallel(data, o, cells, threads,
        stopAfter ? stopAfter->get_token() : std::stop_token(), [&](const TrialResult& t) {
            out.push_back(t);
            if (stopAfter && int(out.size()) == k)
                stopAfter->request_stop();
        });
    sortTrials(out, o);
    return out;
}

// Bit-identical numbers (the wall time aside).
bool same(const TrialResult& a, const TrialResult& b)
{
    if (a.subruns.size() != b.subruns.size())
        return false;
    for (std::size_t i = 0; i < a.subruns.size(); ++i)
        if (a.subruns[i].objective != b.subruns[i].objective || a.subruns[i].ac != b.subruns[i].ac)
            return false;
    return a.cell == b.cell && a.seed == b.seed && a.classes == b.classes && a.ac == b.ac
        && a.nmi == b.nmi && a.objective == b.objective && a.iterations == b.iterations
        && a.rank == b.rank && a.samples == b.samples && a.subrun == b.subrun
        && a.graphAc == b.graphAc && a.graphNmi == b.graphNmi && a.graphScored == b.graphScored;
}

TrialResult made(const std::string& method, int c, int trial, double ac, double nmi)
{
    TrialResult t;
    t.cell = { method, c, trial, 0 };
    t.ac = ac;
    t.nmi = nmi;
    t.subruns = { { 1.0, ac, nmi } };
    return t;
}

// The trials of a results file without their wall times.
QJsonArray trialsWithoutTimes(const QJsonObject& results)
{
    QJsonArray out;
    for (const QJsonValue& v : results.value(u"trials"_s).toArray()) {
        QJsonObject t = v.toObject();
        t.remove(u"seconds"_s);
        out.append(t);
    }
    return out;
}

} // namespace

class TestSweep : public QObject {
    Q_OBJECT
private slots:
    void threadCountDoesNotChangeResults()
    {
        const ExperimentDataset data(planted(), SampleNormalization::Auto);
        const ExperimentOptions o = sweepOptions();
        const std::vector<ExperimentCell> cells = planCells(o);
        const std::vector<TrialResult> one = runAll(data, o, cells, 1);
        QCOMPARE(one.size(), cells.size());
        for (int threads : { 2, 4 }) {
            const std::vector<TrialResult> many = runAll(data, o, cells, threads);
            QCOMPARE(many.size(), one.size());
            for (std::size_t i = 0; i < one.size(); ++i)
                QVERIFY2(same(one[i], many[i]),
                    qPrintable(u"%1 threads, cell %2"_s.arg(threads).arg(i)));
        }
        // A cell re-run alone equals the sweep's cell.
        const TrialResult alone = *runExperimentCell(data, o, one[7].cell);
        QVERIFY(same(alone, one[7]));
    }
    void cellEqualsASingleRunOfItsClassesAndSeed()
    {
        // What `facet-cli run --classes ... --seed <params.seed>` computes for the cell's classes.
        const ExperimentDataset data(planted(), SampleNormalization::Auto);
        const ExperimentOptions o = sweepOptions();
        const ExperimentCell cell { "cf", 4, 2, 0 };
        const TrialResult t = *runExperimentCell(data, o, cell);
        Dataset subset = data.raw().selectClasses(t.classes);
        prepareDataset(subset, PrepareOptions { false, true }); // cf: unit-norm samples
        const RunResult run
            = runAndCluster(subset.X, subset.labels, cellRunOptions(o, cell, t.subrun));
        QCOMPARE(run.factorization.returnedObjective, t.objective);
        QCOMPARE(*run.ac, t.ac);
        QCOMPARE(*run.nmi, t.nmi);
    }
    void cancelledSweepResumesToTheSameNumbers()
    {
        const ExperimentDataset data(planted(), SampleNormalization::Auto);
        const ExperimentOptions o = sweepOptions();
        const std::vector<ExperimentCell> cells = planCells(o);
        const std::vector<TrialResult> full = runAll(data, o, cells, 1);

        std::stop_source stop;
        std::vector<TrialResult> part = runAll(data, o, cells, 2, &stop, 5);
        QVERIFY(part.size() >= 5);
        QVERIFY(part.size() < cells.size());
        std::vector<ExperimentCell> remaining;
        for (const ExperimentCell& c : cells)
            if (std::none_of(
                    part.begin(), part.end(), [&](const TrialResult& t) { return t.cell == c; }))
                remaining.push_back(c);
        const std::vector<TrialResult> rest = runAll(data, o, remaining, 2);
        part.insert(part.end(), rest.begin(), rest.end());
        sortTrials(part, o);
        QCOMPARE(part.size(), full.size());
        for (std::size_t i = 0; i < full.size(); ++i)
            QVERIFY(same(part[i], full[i]));
    }
    void jobReportsEveryCellOnItsThread()
    {
        QThread thread;
        auto* job = new ExperimentJob;
        job->moveToThread(&thread);
        connect(&thread, &QThread::finished, job, &QObject::deleteLater);
        thread.start();
        // Counted through queued connections to an object on this thread, as the GUI receives
        // them: a QSignalSpy on the job would append on the job's thread while this one reads.
        QObject receiver;
        int trials = 0;
        QList<std::tuple<quint64, int, bool>> finished;
        connect(job, &ExperimentJob::trialFinished, &receiver, [&] { ++trials; });
        connect(
            job, &ExperimentJob::finished, &receiver, [&](quint64 runId, int cells, bool stopped) {
                finished.append({ runId, cells, stopped });
            });
        ExperimentRequest request;
        request.runId = 42;
        request.data = std::make_shared<ExperimentDataset>(planted(), SampleNormalization::Auto);
        request.options = sweepOptions();
        request.threads = 2;
        job->submit(request);
        QTRY_COMPARE_WITH_TIMEOUT(finished.size(), 1, 60000);
        QCOMPARE(trials, int(planCells(sweepOptions()).size()));
        QCOMPARE(std::get<0>(finished.first()), 42ULL);
        QCOMPARE(std::get<2>(finished.first()), false); // not stopped
        stopJobThread(thread);
    }
    void tableOfHandMadeResults()
    {
        ExperimentOptions o;
        o.methods = { "nmf", "cf" };
        o.clusterCounts = { 2, 3 };
        o.trials = 2;
        const std::vector<TrialResult> trials { made("nmf", 2, 0, 0.9, 0.5),
            made("cf", 2, 0, 0.7, 0.6), made("nmf", 2, 1, 0.7, 0.5), made("cf", 2, 1, 0.9, 0.6),
            made("nmf", 3, 0, 0.6, 0.4), made("cf", 3, 0, 0.5, 0.2), made("nmf", 3, 1, 0.8, 0.4),
            made("cf", 3, 1, 0.7, 0.2) };
        const SweepSummary s = summarize(o, trials);
        const QString md
            = markdownTable(s, o, trials, { u"Hand"_s, 40, 6, 8, 8, selectionLabel(o) });
        // mean 80, sample std sqrt(0.02) = 14.1 for both at c = 2: a tie, both bold.
        QVERIFY2(md.contains(u"| 2 | **80.0 ± 14.1** | **80.0 ± 14.1** |"_s), qPrintable(md));
        QVERIFY(md.contains(u"| 3 | **70.0 ± 14.1** | 60.0 ± 14.1 |"_s));
        QVERIFY(md.contains(u"| Avg. | **75.0** | 70.0 |"_s));
        QVERIFY(md.contains(u"| 2 | **50.0 ± 0.0** | **50.0 ± 0.0** |"_s) == false);
        QVERIFY(md.contains(u"| 2 | 50.0 ± 0.0 | **60.0 ± 0.0** |"_s));
        QVERIFY(md.contains(u"cf vs nmf"_s)); // against the best by average AC
        QVERIFY(md.contains(u"Wilcoxon"_s));
        QVERIFY(!md.contains(u"Incomplete"_s));
        QVERIFY(!md.contains(u"graph components"_s)); // no CF_OGL series

        // CF_OGL's graph components: per c, in how many trials there were c of them and their
        // scores over those trials.
        ExperimentOptions withOgl = o;
        withOgl.methods = { "cf-ogl" };
        std::vector<TrialResult> oglTrials { made("cf-ogl", 2, 0, 0.9, 0.5),
            made("cf-ogl", 2, 1, 0.7, 0.5), made("cf-ogl", 3, 0, 0.6, 0.4),
            made("cf-ogl", 3, 1, 0.8, 0.4) };
        oglTrials[0].graphAc = 0.75;
        oglTrials[0].graphNmi = 0.5;
        for (int i : { 2, 3 }) {
            oglTrials[std::size_t(i)].graphAc = 0.6 + 0.2 * (i - 2);
            oglTrials[std::size_t(i)].graphNmi = 0.4;
        }
        const QString oglMd = markdownTable(summarize(withOgl, oglTrials), withOgl, oglTrials,
            { u"Hand"_s, 40, 6, 8, 8, selectionLabel(withOgl) });
        QVERIFY2(oglMd.contains(u"## CF_OGL's graph components as clusters"_s), qPrintable(oglMd));
        QVERIFY2(oglMd.contains(u"| 2 | 1 of 2 | 75.0 | 50.0 |"_s), qPrintable(oglMd));
        QVERIFY2(oglMd.contains(u"| 3 | 2 of 2 | 70.0 ± 14.1 | 40.0 ± 0.0 |"_s), qPrintable(oglMd));
        // A trial from a results.json that did not score the components is not counted as one
        // without c components.
        oglTrials[1].graphScored = false;
        const QString olderMd = markdownTable(summarize(withOgl, oglTrials), withOgl, oglTrials,
            { u"Hand"_s, 40, 6, 8, 8, selectionLabel(withOgl) });
        QVERIFY2(olderMd.contains(u"| 2 | 1 of 1 (1 more from an older results.json, not scored) "
                                  "| 75.0 | 50.0 |"_s),
            qPrintable(olderMd));
        const QString csv = resultsCsv(trials, o, { u"a"_s, u"b,c"_s });
        QCOMPARE(csv.count(u'\n'), 9);
        QVERIFY(csv.startsWith(u"method,param,param_value,clusters,trial,seed"_s));
        QVERIFY(csv.section(u'\n', 0, 0).endsWith(u",selection,graph_ac,graph_nmi"_s));
        QVERIFY(csv.section(u'\n', 1, 1).endsWith(u",single,,"_s)); // no graph components
        std::vector<TrialResult> ogl { made("cf-ogl", 2, 0, 0.9, 0.5) };
        ogl[0].graphAc = 0.75;
        ogl[0].graphNmi = 0.5;
        QVERIFY(resultsCsv(ogl, o, {}).section(u'\n', 1, 1).endsWith(u",single,0.75,0.5"_s));

        // The same table as data (METHODS.md 6: Markdown, CSV and JSON): per series and c, then
        // the average row, with the selection on every line.
        const QString summary = summaryCsv(s, o);
        QCOMPARE(summary.count(u'\n'), 7); // header, 2 series x (2 rows + avg)
        // Full precision, compared as numbers (the last digit of a std differs between compilers).
        const QStringList first = summary.section(u'\n', 1, 1).split(u',');
        QCOMPARE(first.mid(0, 6), (QStringList { u"nmf"_s, u"nmf"_s, {}, {}, u"2"_s, u"2"_s }));
        QCOMPARE(first[6].toDouble(), 0.8);
        QVERIFY(std::abs(first[7].toDouble() - std::sqrt(0.02)) < 1e-15);
        QVERIFY(first[7].size() >= 17); // 'g' 17, so a reader gets the double back
        const QStringList average = summary.section(u'\n', 6, 6).split(u',');
        QCOMPARE(average.mid(0, 6), (QStringList { u"cf"_s, u"cf"_s, {}, {}, u"avg"_s, u"2"_s }));
        QCOMPARE(average[6].toDouble(), 0.7);
        QVERIFY(average[7].isEmpty()); // the average row has no std
        const QJsonObject json = summaryJson(s, o, { u"Hand"_s, 40, 6, 8, 8, selectionLabel(o) });
        const QJsonArray rows = json.value(u"rows"_s).toArray();
        QCOMPARE(rows.size(), 6);
        QCOMPARE(rows.at(0)[u"series"_s].toString(), u"nmf"_s);
        QCOMPARE(rows.at(0)[u"clusters"_s].toInt(), 2);
        QCOMPARE(rows.at(0)[u"ac_mean"_s].toDouble(), 0.8);
        QCOMPARE(rows.at(2)[u"clusters"_s].toString(), u"avg"_s);
        QCOMPARE(rows.at(2)[u"ac_mean"_s].toDouble(), 0.75);
        QVERIFY(rows.at(2)[u"ac_std"_s].isNull());
        QCOMPARE(json.value(u"selection"_s).toString(), u"single"_s);
        // The oracle choice is labelled in every output, the CSVs included.
        o.subruns = 3;
        o.selection = SubrunSelection::Accuracy;
        QVERIFY(resultsCsv(trials, o, {}).section(u'\n', 1, 1).endsWith(u",oracle-best-ac,,"_s));
        QVERIFY(summaryCsv(s, o).section(u'\n', 1, 1).endsWith(u",oracle-best-ac"_s));
        o.selection = SubrunSelection::Objective;
        QVERIFY(summaryCsv(s, o).section(u'\n', 1, 1).endsWith(u",lowest-objective"_s));
    }
    void trialJsonRoundTrip()
    {
        const ExperimentDataset data(planted(), SampleNormalization::Auto);
        ExperimentOptions o = sweepOptions();
        o.subruns = 2;
        const TrialResult t = *runExperimentCell(data, o, { "lcf", 3, 2, 0 });
        const QJsonObject json = trialToJson(t, o, data.raw().classNames);
        // Through text, as the file holds it: doubles must come back bit for bit.
        const QJsonObject back = QJsonDocument::fromJson(QJsonDocument(json).toJson()).object();
        const Result<TrialResult> read = trialFromJson(back);
        QVERIFY(read.ok());
        QVERIFY(same(*read, t));
        QCOMPARE(back.value(u"trial"_s).toInt(), 3); // 1-based in files
        QVERIFY(!back.contains(u"graph_ac"_s)); // only CF_OGL has graph components

        // CF_OGL's graph components: scored, or null when the graph did not have c of them.
        TrialResult ogl = t;
        ogl.cell.method = "cf-ogl";
        ogl.graphAc = 0.8;
        ogl.graphNmi = 0.6;
        for (int pass = 0; pass < 2; ++pass) {
            const QJsonObject oglJson = trialToJson(ogl, o, data.raw().classNames);
            QCOMPARE(oglJson.value(u"graph_ac"_s).isNull(), pass == 1);
            QVERIFY(oglJson.contains(u"graph_nmi"_s));
            const Result<TrialResult> oglBack = trialFromJson(oglJson);
            QVERIFY(oglBack.ok());
            QVERIFY(same(*oglBack, ogl));
            ogl.graphAc.reset();
            ogl.graphNmi.reset();
        }
        // A CF_OGL trial written before the sweep scored the components has no graph_ac: read
        // as not scored, and written back without it (a resumed sweep does not turn it into
        // "another number of components").
        QJsonObject older = trialToJson(ogl, o, data.raw().classNames);
        older.remove(u"graph_ac"_s);
        older.remove(u"graph_nmi"_s);
        const Result<TrialResult> olderBack = trialFromJson(older);
        QVERIFY(olderBack.ok());
        QVERIFY(!olderBack->graphScored);
        QVERIFY(!trialToJson(*olderBack, o, data.raw().classNames).contains(u"graph_ac"_s));
        QVERIFY(trialFromJson(trialToJson(ogl, o, data.raw().classNames))->graphScored);
        QVERIFY(selectionLabel(o).contains(u"lowest objective"_s));
        o.selection = SubrunSelection::Accuracy;
        QVERIFY(selectionLabel(o).contains(u"oracle selection"_s));

        const QStringList diff = jsonDifferences(QJsonObject { { u"trials"_s, 10 } },
            QJsonObject { { u"trials"_s, 20 }, { u"seed"_s, u"1"_s } });
        QCOMPARE(diff.size(), 2);
        QVERIFY(diff.contains(u"trials: 10 in the file, 20 now"_s));
    }
    void cliSweepCellAndResume()
    {
        QTemporaryDir dir;
        const QString mat = dir.filePath(u"planted.mat"_s);
        QVERIFY(writeDatasetMat(mat, planted()).ok());
        const QStringList sweep { u"sweep"_s, u"--dataset"_s, mat, u"--methods"_s,
            u"kmeans,nmf,cf"_s, u"--clusters"_s, u"2-3"_s, u"--trials"_s, u"2"_s, u"--max-iter"_s,
            u"50"_s, u"--seed"_s, u"3"_s };
        const QString a = dir.filePath(u"a"_s);
        const CliRun first = runCli(sweep + QStringList { u"--threads"_s, u"2"_s, u"--out"_s, a });
        QVERIFY2(first.exitCode == 0, qPrintable(first.err));
        for (const char* name : { "results.json", "results.csv", "table.md", "summary.csv",
                 "summary.json", "ac.png", "nmi.png", "ac.pdf", "nmi.pdf" })
            QVERIFY2(QFile::exists(QDir(a).filePath(QString::fromLatin1(name))), name);
        for (const char* name : { "ac.svg", "nmi.svg" }) { // well-formed XML, as every SVG
            QFile svg(QDir(a).filePath(QString::fromLatin1(name)));
            QVERIFY2(svg.open(QIODevice::ReadOnly), name);
            QXmlStreamReader xml(&svg);
            bool sawSvg = false;
            while (!xml.atEnd()) {
                if (xml.readNext() == QXmlStreamReader::StartElement && xml.name() == u"svg")
                    sawSvg = true;
            }
            QVERIFY2(!xml.hasError() && sawSvg, qPrintable(xml.errorString()));
        }
        const QJsonObject results = readJson(QDir(a).filePath(u"results.json"_s));
        QVERIFY(results.value(u"complete"_s).toBool());
        const QJsonArray trials = results.value(u"trials"_s).toArray();
        QCOMPARE(trials.size(), 12);
        for (const char* key : { "method", "clusters", "trial", "seed", "classes", "params", "ac",
                 "nmi", "iterations", "seconds" })
            QVERIFY2(trials.first().toObject().contains(QString::fromLatin1(key)), key);

        // One cell again, alone: the same numbers.
        const QString cellJson = dir.filePath(u"cell.json"_s);
        const CliRun cell = runCli({ u"sweep-cell"_s, u"--from"_s, a, u"--method"_s, u"cf"_s,
            u"--clusters"_s, u"3"_s, u"--trial"_s, u"2"_s, u"--json"_s, cellJson });
        QVERIFY2(cell.exitCode == 0, qPrintable(cell.err + cell.out));
        QVERIFY(cell.out.contains(u"identical"_s));
        QCOMPARE(readJson(cellJson).value(u"identical"_s).toBool(), true);

        // The same folder again without --resume is refused; so is --resume with other options.
        const CliRun again = runCli(sweep + QStringList { u"--out"_s, a });
        QCOMPARE(again.exitCode, 1);
        QVERIFY(again.err.contains(u"--resume"_s));
        const CliRun other = runCli(QStringList(sweep).replaceInStrings(u"50"_s, u"40"_s)
            + QStringList { u"--resume"_s, a });
        QCOMPARE(other.exitCode, 1);
        QVERIFY2(other.err.contains(u"max-iter: 50 in the file, 40 now"_s), qPrintable(other.err));

        // An interrupted sweep: a results.json holding only the first 5 cells.
        const QString b = dir.filePath(u"b"_s);
        QVERIFY(QDir().mkpath(b));
        QJsonObject partial = results;
        QJsonArray firstFive;
        for (int i = 0; i < 5; ++i)
            firstFive.append(trials.at(i));
        partial.insert(u"trials"_s, firstFive);
        partial.insert(u"complete"_s, false);
        QFile file(QDir(b).filePath(u"results.json"_s));
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write(QJsonDocument(partial).toJson());
        file.close();
        const CliRun resumed
            = runCli(sweep + QStringList { u"--threads"_s, u"1"_s, u"--resume"_s, b });
        QVERIFY2(resumed.exitCode == 0, qPrintable(resumed.err));
        QVERIFY(resumed.err.contains(u"5 of 12 cells already finished"_s));
        const QJsonObject done = readJson(QDir(b).filePath(u"results.json"_s));
        QVERIFY(done.value(u"complete"_s).toBool());
        QCOMPARE(trialsWithoutTimes(done), trialsWithoutTimes(results));

        // --resume alone takes the command recorded in the folder; an option typed with it must
        // still agree with the file.
        const QString c = dir.filePath(u"c"_s);
        QVERIFY(QDir().mkpath(c));
        QFile partialC(QDir(c).filePath(u"results.json"_s));
        QVERIFY(partialC.open(QIODevice::WriteOnly));
        partialC.write(QJsonDocument(partial).toJson());
        partialC.close();
        const CliRun changed = runCli({ u"sweep"_s, u"--resume"_s, c, u"--max-iter"_s, u"40"_s });
        QCOMPARE(changed.exitCode, 1);
        QVERIFY2(
            changed.err.contains(u"max-iter: 50 in the file, 40 now"_s), qPrintable(changed.err));
        const CliRun alone = runCli({ u"sweep"_s, u"--resume"_s, c, u"--threads"_s, u"2"_s });
        QVERIFY2(alone.exitCode == 0, qPrintable(alone.err));
        QVERIFY(alone.err.contains(u"5 of 12 cells already finished"_s));
        QCOMPARE(trialsWithoutTimes(readJson(QDir(c).filePath(u"results.json"_s))),
            trialsWithoutTimes(results));

        // A folder whose file records no command cannot be resumed without one.
        QJsonObject noCommand = partial;
        noCommand.remove(u"arguments"_s);
        QFile fileD(QDir(dir.filePath(u"d"_s)).filePath(u"results.json"_s));
        QVERIFY(QDir().mkpath(dir.filePath(u"d"_s)));
        QVERIFY(fileD.open(QIODevice::WriteOnly));
        fileD.write(QJsonDocument(noCommand).toJson());
        fileD.close();
        const CliRun unrecorded = runCli({ u"sweep"_s, u"--resume"_s, dir.filePath(u"d"_s) });
        QCOMPARE(unrecorded.exitCode, 2);
        QVERIFY2(unrecorded.err.contains(u"does not record the sweep's command"_s),
            qPrintable(unrecorded.err));
        const CliRun missing = runCli({ u"sweep"_s, u"--resume"_s, dir.filePath(u"none"_s) });
        QVERIFY(missing.exitCode != 0);
        QVERIFY2(missing.err.contains(u"nothing to resume"_s), qPrintable(missing.err));
    }
};

#include "facet_test.h"
FACET_TEST_GUILESS_MAIN(TestSweep)
#include "test_sweep.moc"
