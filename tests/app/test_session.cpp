// SPDX-License-Identifier: GPL-3.0-or-later
// Sessions: a round trip keeps every option and every factor bit; dataset paths stay inside the
// session folder; a facet-cli run report (version 0) migrates; a newer file and a failed save
// change nothing on disk. Damaged files: test_session_malformed.cpp.
#include "experiment/run_report.h"
#include "session/session.h"
#include "session/session_matrix.h"
#include "session_fixtures.h"
#include "util/params_json.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QtTest>

#include <csignal>
#include <cstring>
#include <limits>
#include <sys/resource.h>
#include <unistd.h>

using namespace facet;
using namespace Qt::StringLiterals;
using namespace facet::fixtures;

class TestSession : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void optionsRoundTripEveryField()
    {
        const RunOptions o = unusualOptions();
        const Result<RunOptions> back = runOptionsFromJson(runOptionsToJson(o), u"run"_s);
        QVERIFY2(back.ok(), qPrintable(back.ok() ? QString() : back.error()));
        compareOptions(o, *back);
        // Defaults too: "init": "default" must come back as initSet = false.
        const RunOptions d;
        const Result<RunOptions> defaults = runOptionsFromJson(runOptionsToJson(d), {});
        QVERIFY(defaults.ok());
        compareOptions(d, *defaults);
    }

    void roundTripIsBitExact()
    {
        Session s = sampleSession();
        // The timings' parts come back, so a run shown again reports them as the run did.
        s.runs[1].summary.setupSeconds = s.runs[1].summary.seconds / 4;
        s.runs[1].summary.clusterSeconds = s.runs[1].summary.seconds / 8;
        // As a graph method's would: the normalized factors' objective is not the last one.
        s.runs[1].summary.returnedObjective = s.runs[1].summary.objective / 3;
        QVERIFY(std::isfinite(s.runs[0].summary.returnedObjective));
        QVERIFY(s.runs[0].hasFactors());
        QCOMPARE(s.runs[0].W.size(), 0); // nmf
        QCOMPARE(s.runs[1].W.rows(), s.runs[1].V.rows()); // cf keeps W
        QVERIFY(s.runs[0].summary.ac.has_value());
        const QByteArray json = serializeSession(s, u"/tmp"_s);
        QVERIFY(json.contains("\"format\": \"facet-session\""));
        QVERIFY(json.contains("\"version\": 1"));
        const Result<Session> back = parseSession(json, u"/tmp"_s);
        QVERIFY2(back.ok(), qPrintable(back.ok() ? QString() : back.error()));
        QVERIFY(back->dataset.has_value());
        QCOMPARE(back->dataset->spec, u"builtin:swimmer"_s);
        QCOMPARE(back->dataset->prepare.l2Normalize, true);
        QCOMPARE(back->runs.size(), s.runs.size());
        for (std::size_t i = 0; i < s.runs.size(); ++i) {
            const RunRecord &a = s.runs[i], &b = back->runs[i];
            QCOMPARE(b.id, a.id);
            QCOMPARE(b.name, a.name);
            compareOptions(a.options, b.options);
            QCOMPARE(b.summary.iterations, a.summary.iterations);
            QVERIFY(b.summary.stopReason == a.summary.stopReason);
            QCOMPARE(b.summary.objective, a.summary.objective);
            QCOMPARE(b.summary.returnedObjective, a.summary.returnedObjective);
            QCOMPARE(b.summary.ac, a.summary.ac);
            QCOMPARE(b.summary.nmi, a.summary.nmi);
            QCOMPARE(b.summary.graphAc, a.summary.graphAc);
            QCOMPARE(b.summary.reconstructionError, a.summary.reconstructionError);
            QCOMPARE(b.summary.sparseness, a.summary.sparseness);
            QCOMPARE(b.summary.seconds, a.summary.seconds);
            QCOMPARE(b.summary.setupSeconds, a.summary.setupSeconds);
            QCOMPARE(b.summary.clusterSeconds, a.summary.clusterSeconds);
            QVERIFY(b.history == a.history);
            QVERIFY(b.segmentStarts == a.segmentStarts);
            QVERIFY(b.predicted == a.predicted);
            QVERIFY(sameBits(a.basis, b.basis));
            QVERIFY(sameBits(a.V, b.V));
            QVERIFY(sameBits(a.W, b.W));
            QCOMPARE(b.imageHeight, 8);
            QCOMPARE(b.imageWidth, 8);
            QCOMPARE(b.created.toMSecsSinceEpoch(), a.created.toMSecsSinceEpoch());
        }
        // Serializing what was read gives the same bytes: nothing drifts on a second save.
        QCOMPARE(serializeSession(*back, u"/tmp"_s), json);
    }

    // Files from before the returned factors' objective was kept load without it (NaN: unknown,
    // and the views show only the last iteration's).
    // Each run keeps the identity of its data, and the session every dataset its runs used
    // (by request and sha256, paths relative to its folder as for "dataset"): two runs on two
    // sets of one shape come back each with its own data. Sessions from before have neither.
    void runsKeepTheirDatasets()
    {
        QTemporaryDir dir;
        Session s = sampleSession();
        const QString orlSha = QString(64, u'a'), faceSha = QString(64, u'b');
        s.datasets.push_back({ DatasetRequest { dir.filePath(u"ORL_32x32.mat"_s), {}, {}, {} },
            u"ORL_32x32"_s, orlSha });
        DatasetRequest faces { u"/srv/att_faces"_s, {}, {}, {} };
        faces.preprocess.height = faces.preprocess.width = 32;
        s.datasets.push_back({ faces, u"att_faces"_s, faceSha });
        s.runs[0].dataset = { u"ORL_32x32"_s, {}, u"scaled to [0, 1]"_s, orlSha, 400, 1024, false };
        s.runs[1].dataset
            = { u"att_faces"_s, {}, u"scaled to [0, 1], 32x32"_s, faceSha, 400, 1024, true };
        const QByteArray json = serializeSession(s, dir.path());
        const QJsonObject root = QJsonDocument::fromJson(json).object();
        QCOMPARE(
            root[u"datasets"_s].toArray()[0].toObject()[u"path"_s].toString(), u"ORL_32x32.mat"_s);
        const Result<Session> back = parseSession(json, dir.path());
        QVERIFY2(back.ok(), qPrintable(back.ok() ? QString() : back.error()));
        QCOMPARE(back->datasets.size(), std::size_t(2));
        QCOMPARE(back->datasets[0].request.spec, dir.filePath(u"ORL_32x32.mat"_s));
        QCOMPARE(back->datasets[1].request.preprocess.height, 32);
        QCOMPARE(back->datasets[1].sha256, faceSha);
        const DatasetIdentity& first = back->runs[0].dataset;
        QCOMPARE(first.sha256, orlSha);
        QCOMPARE(first.name, u"ORL_32x32"_s);
        QCOMPARE(first.source, dir.filePath(u"ORL_32x32.mat"_s)); // from the datasets list
        QCOMPARE(back->runs[1].dataset.source, u"/srv/att_faces"_s);
        QVERIFY(back->runs[1].dataset.sampleL2);
        QCOMPARE(back->runs[1].dataset.preparation, u"scaled to [0, 1], 32x32"_s);
        QVERIFY(!first.sameData(back->runs[1].dataset));
        QCOMPARE(serializeSession(*back, dir.path()), json);

        // A digest that is not one is refused, naming the run; an older session has none.
        QJsonObject damaged = root;
        QJsonArray runs = damaged[u"runs"_s].toArray();
        QJsonObject run = runs[0].toObject();
        QJsonObject identity = run[u"dataset"_s].toObject();
        identity[u"sha256"_s] = u"abc"_s;
        run[u"dataset"_s] = identity;
        runs[0] = run;
        damaged[u"runs"_s] = runs;
        const Result<Session> refused = parseSession(toBytes(damaged), dir.path());
        QVERIFY(!refused.ok());
        QVERIFY2(
            refused.error().contains(u"run 1: dataset: \"sha256\""_s), qPrintable(refused.error()));
        QJsonObject older = root;
        older.remove(u"datasets"_s);
        runs = older[u"runs"_s].toArray();
        for (qsizetype i = 0; i < runs.size(); ++i) {
            QJsonObject r = runs[i].toObject();
            r.remove(u"dataset"_s);
            runs[i] = r;
        }
        older[u"runs"_s] = runs;
        const Result<Session> old = parseSession(toBytes(older), dir.path());
        QVERIFY(old.ok());
        QVERIFY(old->datasets.empty());
        QVERIFY(!old->runs[0].dataset.known());
    }

    void olderFilesHaveNoReturnedObjective()
    {
        const QByteArray json = withFirstRun([](QJsonObject& r) {
            QJsonObject s = r[u"summary"_s].toObject();
            QVERIFY(s.contains(u"returned_objective"_s));
            s.remove(u"returned_objective"_s);
            r[u"summary"_s] = s;
        });
        const Result<Session> back = parseSession(json, u"/tmp"_s);
        QVERIFY2(back.ok(), qPrintable(back.ok() ? QString() : back.error()));
        QVERIFY(std::isnan(back->runs[0].summary.returnedObjective));
        QVERIFY(std::isfinite(back->runs[1].summary.returnedObjective));
    }

    void datasetPathsStayInsideTheSessionFolder()
    {
        QTemporaryDir dir;
        const QString folder = dir.path();
        Session s;
        s.dataset = DatasetRequest {};
        s.dataset->spec = folder + u"/data/set.mat"_s;
        QJsonObject root = QJsonDocument::fromJson(serializeSession(s, folder)).object();
        QCOMPARE(root[u"dataset"_s].toObject()[u"path"_s].toString(), u"data/set.mat"_s);
        Result<Session> back = parseSession(toBytes(root), folder);
        QVERIFY(back.ok());
        QCOMPARE(back->dataset->spec, folder + u"/data/set.mat"_s);
        // Moving the folder moves the data with it.
        back = parseSession(toBytes(root), u"/elsewhere/session"_s);
        QCOMPARE(back->dataset->spec, u"/elsewhere/session/data/set.mat"_s);

        s.dataset->spec = u"/srv/faces/ORL.mat"_s;
        root = QJsonDocument::fromJson(serializeSession(s, folder)).object();
        QCOMPARE(root[u"dataset"_s].toObject()[u"path"_s].toString(), u"/srv/faces/ORL.mat"_s);
        QCOMPARE(parseSession(toBytes(root), folder)->dataset->spec, u"/srv/faces/ORL.mat"_s);

        s.dataset->spec = u"builtin:bars"_s;
        root = QJsonDocument::fromJson(serializeSession(s, folder)).object();
        QCOMPARE(parseSession(toBytes(root), folder)->dataset->spec, u"builtin:bars"_s);

        for (const QString& hostile :
            { u"../secret.mat"_s, u"data/../../../etc/passwd"_s, u".."_s }) {
            QJsonObject d = root[u"dataset"_s].toObject();
            d[u"path"_s] = hostile;
            root[u"dataset"_s] = d;
            const Result<Session> refused = parseSession(toBytes(root), folder);
            QVERIFY(refused.ok()); // the runs still load
            QVERIFY(!refused->dataset.has_value());
            QVERIFY2(refused->datasetProblem.contains(u"leads outside the session's folder"_s),
                qPrintable(refused->datasetProblem));
        }
    }

    void versionZeroReportMigrates()
    {
        const Dataset data = facet::fixtures::labelledBars();
        RunOptions options;
        options.method = "gnmf";
        options.params.rank = 3;
        options.params.lambda = 10;
        options.driver.maxIter = 40;
        options.driver.seed = 77;
        const RunResult result = runAndCluster(data.X, data.labels, options);
        DatasetRequest request;
        request.spec = u"builtin:bars"_s;
        const QJsonObject report = runReport(data, request, options, result, {});
        const Result<Session> s = parseSession(toBytes(report), u"/tmp"_s);
        QVERIFY2(s.ok(), qPrintable(s.ok() ? QString() : s.error()));
        QCOMPARE(s->dataset->spec, u"builtin:bars"_s);
        QCOMPARE(int(s->runs.size()), 1);
        const RunRecord& r = s->runs[0];
        QVERIFY(!r.hasFactors());
        QCOMPARE(r.options.method, std::string("gnmf"));
        QCOMPARE(r.options.params.lambda, std::optional<double>(10));
        QVERIFY(!report[u"params"_s].toObject().contains(u"defaulted"_s));
        QCOMPARE(r.options.driver.seed, std::uint64_t(77));
        QCOMPARE(r.options.driver.maxIter, 40);
        QVERIFY(r.history == result.factorization.history);
        QVERIFY(r.predicted == result.predicted);
        QCOMPARE(r.summary.ac, result.ac);
        QCOMPARE(r.summary.iterations, result.factorization.iterations);
        QCOMPARE(r.imageHeight, 8);
        QVERIFY(canRepeat(r.options));

        // A run started from given factors keeps their source's name, not the factors: its
        // options cannot repeat it, which the explorer's Re-run checks.
        RunOptions warm = options;
        warm.driver.startSource = "/data/start.mat";
        const Result<Session> w
            = parseSession(toBytes(runReport(data, request, warm, result, {})), u"/tmp"_s);
        QVERIFY2(w.ok(), qPrintable(w.ok() ? QString() : w.error()));
        QCOMPARE(w->runs[0].options.driver.startSource, std::string("/data/start.mat"));
        QVERIFY(!canRepeat(w->runs[0].options));
        warm.driver.start = std::make_shared<const std::vector<Matrix>>();
        QVERIFY(canRepeat(warm));

        // An unset lambda is written as the value the method used, and named as defaulted;
        // a method without lambda keeps null.
        RunOptions defaulted = options;
        defaulted.params.lambda.reset();
        QJsonObject params
            = runReport(data, request, defaulted, result, {})[u"params"_s].toObject();
        QCOMPARE(params[u"lambda"_s].toDouble(), 100.0);
        QCOMPARE(params[u"defaulted"_s].toArray(), QJsonArray { u"lambda"_s });
        defaulted.method = "lcf";
        params = runReport(data, request, defaulted, result, {})[u"params"_s].toObject();
        QCOMPARE(params[u"lambda"_s].toDouble(), 0.3);
        defaulted.method = "nmf";
        params = runReport(data, request, defaulted, result, {})[u"params"_s].toObject();
        QVERIFY(params[u"lambda"_s].isNull());
        QVERIFY(!params.contains(u"defaulted"_s));
    }

    void saveAndLoadThroughAFile()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(u"s.facet.json"_s);
        const Session s = sampleSession();
        const Result<bool> saved = saveSession(s, path);
        QVERIFY2(saved.ok(), qPrintable(saved.ok() ? QString() : saved.error()));
        const Result<Session> back = loadSession(path);
        QVERIFY(back.ok());
        QVERIFY(sameBits(back->runs[1].basis, s.runs[1].basis));
        const Result<Session> missing = loadSession(dir.filePath(u"none.json"_s));
        QVERIFY(!missing.ok());
        QVERIFY(missing.error().contains(u"none.json"_s));
    }

    void newerVersionChangesNothing()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(u"future.json"_s);
        QJsonObject root = sampleJson();
        root[u"version"_s] = 7;
        const QByteArray bytes = toBytes(root);
        QFile f(path);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(bytes);
        f.close();
        const Result<Session> s = loadSession(path);
        QVERIFY(!s.ok());
        QVERIFY2(s.error().contains(u"newer Facet (version 7); this build reads up to 1"_s),
            qPrintable(s.error()));
        QCOMPARE(readAll(path), bytes);
    }

    void failedSaveKeepsTheOldFile()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(u"s.json"_s);
        Session first;
        first.runs.push_back(sampleSession().runs[0]);
        QVERIFY(saveSession(first, path).ok());
        const QByteArray before = readAll(path);
        const Session second = sampleSession();

        // A read-only folder (root writes there anyway, so as root this part cannot fail).
        QVERIFY(QFile::setPermissions(dir.path(), QFileDevice::ReadOwner | QFileDevice::ExeOwner));
        const Result<bool> readOnly = saveSession(second, path);
        QFile::setPermissions(
            dir.path(), QFileDevice::ReadOwner | QFileDevice::WriteOwner | QFileDevice::ExeOwner);
        if (geteuid() != 0) {
            QVERIFY(!readOnly.ok());
            QVERIFY2(readOnly.error().contains(path), qPrintable(readOnly.error()));
            QCOMPARE(readAll(path), before);
        }

        // A disk that fills up mid-write, for every user: the file size limit makes the write
        // of the temporary file fail with EFBIG (SIGXFSZ ignored so it is an error, not a kill).
        QVERIFY(saveSession(first, path).ok());
        rlimit old {};
        QCOMPARE(getrlimit(RLIMIT_FSIZE, &old), 0);
        const auto oldHandler = std::signal(SIGXFSZ, SIG_IGN);
        rlimit small = old;
        small.rlim_cur = rlim_t(before.size() + 100);
        QCOMPARE(setrlimit(RLIMIT_FSIZE, &small), 0);
        const Result<bool> full = saveSession(second, path);
        setrlimit(RLIMIT_FSIZE, &old);
        std::signal(SIGXFSZ, oldHandler);
        QVERIFY(!full.ok());
        QVERIFY2(full.error().startsWith(u"cannot write "_s + path), qPrintable(full.error()));
        QCOMPARE(readAll(path), before);
        QCOMPARE(QDir(dir.path()).entryList(QDir::Files), QStringList { u"s.json"_s });
    }
};

#include "facet_test.h"
FACET_TEST_GUILESS_MAIN(TestSession)
#include "test_session.moc"
