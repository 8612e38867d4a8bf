// SPDX-License-Identifier: GPL-3.0-or-later
// The command line recorded for a GUI-made experiment parses back, through the CLI's own parser,
// to the same experiment options and dataset request, so --resume and sweep-cell accept it.

#include "cli/sweep_options.h"
#include "data/dataset_request_json.h"
#include "experiment/experiment_data.h"
#include "experiment/method_parameter_text.h"
#include "experiment/sweep_arguments.h"
#include "experiment/sweep_json.h"
#include "util/params_json.h"

#include <QJsonDocument>
#include <QTemporaryDir>
#include <QtTest>

using namespace facet;
using namespace Qt::StringLiterals;

namespace {

QString json(const QJsonObject& o)
{
    return QString::fromUtf8(QJsonDocument(o).toJson(QJsonDocument::Indented));
}

} // namespace

class TestSweepArguments : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void roundTripThroughTheCliParser_data();
    void roundTripThroughTheCliParser();
    void guiMadeOptions();
    void formParametersMeanTheCliFlags_data();
    void formParametersMeanTheCliFlags();
    void formParametersRefused_data();
    void formParametersRefused();
};

void TestSweepArguments::roundTripThroughTheCliParser_data()
{
    QTest::addColumn<QStringList>("line");
    QTest::newRow("defaults") << QStringList { u"sweep"_s, u"--dataset"_s, u"builtin:gaussians"_s,
        u"--methods"_s, u"nmf,cf"_s };
    QTest::newRow("semi-supervised, parameter grid, method flags")
        << QStringList { u"sweep"_s, u"--dataset"_s, u"builtin:gaussians"_s, u"--methods"_s,
               u"cnmf,lccf"_s, u"--clusters"_s, u"2,3"_s, u"--trials"_s, u"4"_s, u"--subruns"_s,
               u"3"_s, u"--select"_s, u"accuracy"_s, u"--labeled-per-class"_s, u"2"_s,
               u"--rank-offset"_s, u"1"_s, u"--evaluate"_s, u"unlabeled"_s, u"--param"_s,
               u"lambda=0.1,1,12.5"_s, u"--seed"_s, u"18446744073709551615"_s, u"--max-iter"_s,
               u"77"_s, u"--tol"_s, u"0.0001"_s, u"--p"_s, u"7"_s, u"--weight"_s, u"heat"_s,
               u"--heat-t"_s, u"0.3"_s, u"--cosine"_s, u"--init"_s, u"kmeans"_s, u"--cluster"_s,
               u"argmax"_s, u"--kmeans-replicates"_s, u"3"_s, u"--knn"_s, u"exact"_s };
    QTest::newRow("fraction, general form, noise")
        << QStringList { u"sweep"_s, u"--dataset"_s, u"builtin:bars"_s, u"--methods"_s, u"ccf"_s,
               u"--labeled-fraction"_s, u"0.3"_s, u"--general-form"_s, u"--noise"_s,
               u"gaussian:0.05"_s, u"--noise-seed"_s, u"9"_s, u"--size"_s, u"8x8"_s };
}

void TestSweepArguments::roundTripThroughTheCliParser()
{
    QFETCH(QStringList, line);
    QTemporaryDir out;
    const Result<cli::CliOptions> first
        = cli::parseSweepArguments(line + QStringList { u"--out"_s, out.path() });
    QVERIFY2(first, qPrintable(first ? QString() : first.error()));
    const QStringList regenerated = sweepArguments(first->sweep.experiment, first->dataset);
    QCOMPARE(regenerated.first(), u"sweep"_s);
    const Result<cli::CliOptions> second
        = cli::parseSweepArguments(regenerated + QStringList { u"--out"_s, out.path() });
    QVERIFY2(second, qPrintable(second ? regenerated.join(u' ') : second.error()));
    QCOMPARE(json(experimentOptionsToJson(second->sweep.experiment, SampleNormalization::Auto)),
        json(experimentOptionsToJson(first->sweep.experiment, SampleNormalization::Auto)));
    QCOMPARE(
        json(datasetRequestToJson(second->dataset)), json(datasetRequestToJson(first->dataset)));
    QCOMPARE(second->sweep.experiment.base.params.knnSearch,
        first->sweep.experiment.base.params.knnSearch);
}

// Options as the experiment form makes them (not from a parser): the line must still parse to
// them exactly.
void TestSweepArguments::guiMadeOptions()
{
    ExperimentOptions o;
    o.methods = { "kmeans", "lcf" };
    o.clusterCounts = { 2, 4, 5 };
    o.trials = 3;
    o.seed = 42;
    o.base.driver.maxIter = 150;
    o.base.driver.tol = 1e-6;
    o.base.params.lambda = 0.25;
    o.base.params.p = 9;
    DatasetRequest request;
    request.spec = u"builtin:gaussians"_s;
    const QStringList line = sweepArguments(o, request);
    QVERIFY2(line.contains(u"--lambda"_s), qPrintable(line.join(u' ')));
    QTemporaryDir out;
    const Result<cli::CliOptions> parsed
        = cli::parseSweepArguments(line + QStringList { u"--out"_s, out.path() });
    QVERIFY2(parsed, qPrintable(parsed ? QString() : parsed.error()));
    QCOMPARE(json(experimentOptionsToJson(parsed->sweep.experiment, SampleNormalization::Auto)),
        json(experimentOptionsToJson(o, SampleNormalization::Auto)));

    // The GUI's export records the line in results.json; `sweep --resume DIR` alone reads it.
    SweepFile file;
    file.arguments = line;
    QFile results(QDir(out.path()).filePath(u"results.json"_s));
    QVERIFY(results.open(QIODevice::WriteOnly));
    results.write(QJsonDocument(sweepFileToJson(file, o, { u"a"_s, u"b"_s }, 9)).toJson());
    results.close();
    const Result<cli::CliOptions> resumed
        = cli::parseSweepArguments({ u"sweep"_s, u"--resume"_s, out.path() });
    QVERIFY2(resumed, qPrintable(resumed ? QString() : resumed.error()));
    QVERIFY(resumed->sweep.resume);
    QCOMPARE(resumed->sweep.outDir, out.path());
    QCOMPARE(json(experimentOptionsToJson(resumed->sweep.experiment, SampleNormalization::Auto)),
        json(experimentOptionsToJson(o, SampleNormalization::Auto)));
    QCOMPARE(json(datasetRequestToJson(resumed->dataset)), json(datasetRequestToJson(request)));
}

// The experiment form's "Parameters" line (issue 37: the dialog offered fewer options than
// `facet-cli sweep`) reads as the CLI's flags of the same names: the same text gives the run
// options the CLI parser gives.
void TestSweepArguments::formParametersMeanTheCliFlags_data()
{
    QTest::addColumn<QString>("text");
    QTest::addColumn<QStringList>("flags");
    QTest::newRow("empty: every method's defaults") << QString() << QStringList {};
    QTest::newRow("graph and kernel")
        << u"lambda=12.5, p=3 weight=heat; heat-t=0.5, kernel=poly, degree=3, ncw"_s
        << QStringList { u"--lambda"_s, u"12.5"_s, u"--p"_s, u"3"_s, u"--weight"_s, u"heat"_s,
               u"--heat-t"_s, u"0.5"_s, u"--kernel"_s, u"poly"_s, u"--degree"_s, u"3"_s,
               u"--ncw"_s };
    QTest::newRow("pasted flags, driver and clustering")
        << u"--tol=1e-4 --min-iter=5 --init=kmeans --cluster=argmax --cosine=on --beta=0.2"_s
        << QStringList { u"--tol"_s, u"1e-4"_s, u"--min-iter"_s, u"5"_s, u"--init"_s, u"kmeans"_s,
               u"--cluster"_s, u"argmax"_s, u"--cosine"_s, u"--beta"_s, u"0.2"_s };
}

void TestSweepArguments::formParametersMeanTheCliFlags()
{
    QFETCH(QString, text);
    QFETCH(QStringList, flags);
    const Result<RunOptions> form = parseMethodParameters(text);
    QVERIFY2(form, qPrintable(form ? QString() : form.error()));
    QTemporaryDir out;
    const Result<cli::CliOptions> cli
        = cli::parseSweepArguments(QStringList { u"sweep"_s, u"--dataset"_s, u"builtin:gaussians"_s,
                                       u"--methods"_s, u"nmf"_s, u"--out"_s, out.path() }
            + flags);
    QVERIFY2(cli, qPrintable(cli ? QString() : cli.error()));
    QCOMPARE(json(runOptionsToJson(*form)), json(runOptionsToJson(cli->sweep.experiment.base)));
}

void TestSweepArguments::formParametersRefused_data()
{
    QTest::addColumn<QString>("text");
    QTest::addColumn<QString>("message");
    QTest::newRow("a field of its own") << u"max-iter=50"_s << u"Max iterations"_s;
    QTest::newRow("algorithm") << u"algorithm=mu"_s << u"Algorithm"_s;
    QTest::newRow("set per cell") << u"rank=4"_s << u"Rank"_s;
    QTest::newRow("unknown") << u"lamda=1"_s << u"unknown name 'lamda'"_s;
    QTest::newRow("not a number") << u"lambda=ten"_s << u"takes a number"_s;
    QTest::newRow("not a whole number") << u"p=2.5"_s << u"\"p\""_s;
    QTest::newRow("not a choice") << u"weight=gauss"_s << u"binary"_s;
    QTest::newRow("twice") << u"p=3, p=4"_s << u"twice"_s;
    QTest::newRow("no value") << u"lambda"_s << u"lambda=1"_s;
}

void TestSweepArguments::formParametersRefused()
{
    QFETCH(QString, text);
    QFETCH(QString, message);
    const Result<RunOptions> form = parseMethodParameters(text);
    QVERIFY(!form);
    QVERIFY2(form.error().contains(message), qPrintable(form.error()));
}

#include "facet_test.h"
FACET_TEST_GUILESS_MAIN(TestSweepArguments)
#include "test_sweep_arguments.moc"
