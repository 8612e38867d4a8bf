// SPDX-License-Identifier: GPL-3.0-or-later
// Damaged and hostile session files: each is refused with a message that names the run, the key
// and what was found, and no prefix of a good file crashes the parser.
#include "session_fixtures.h"

#include <QtTest>

using namespace facet;
using namespace facet::fixtures;
using namespace Qt::StringLiterals;

class TestSessionMalformed : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void malformedFilesAreRefused_data()
    {
        QTest::addColumn<QByteArray>("json");
        QTest::addColumn<QString>("message");
        const QByteArray good = toBytes(sampleJson());
        QTest::newRow("empty") << QByteArray() << u"not valid JSON"_s;
        QTest::newRow("truncated") << good.left(good.size() / 2) << u"not valid JSON"_s;
        QTest::newRow("array") << QByteArray("[1, 2]") << u"a session is a JSON object"_s;
        QJsonObject root = sampleJson();
        root.insert(u"format"_s, u"something-else"_s);
        QTest::newRow("format") << toBytes(root) << u"not a Facet session"_s;
        root = sampleJson();
        root.remove(u"format"_s);
        QTest::newRow("no format") << toBytes(root) << u"not a Facet session"_s;
        root = sampleJson();
        root.insert(u"version"_s, 2);
        QTest::newRow("newer")
            << toBytes(root)
            << u"this session was written by a newer Facet (version 2); this build reads up to 1"_s;
        root.insert(u"version"_s, u"1"_s);
        QTest::newRow("version type") << toBytes(root) << u"\"version\" must be a whole number"_s;
        root.insert(u"version"_s, 1.5);
        QTest::newRow("version fraction") << toBytes(root) << u"\"version\" must be a whole"_s;
        root = sampleJson();
        root.insert(u"runs"_s, QJsonObject());
        QTest::newRow("runs type") << toBytes(root) << u"\"runs\" must be an array"_s;
        root.insert(u"runs"_s, QJsonArray { 3 });
        QTest::newRow("run type") << toBytes(root) << u"run 1 must be an object"_s;
        root = sampleJson();
        root.insert(u"dataset"_s, QJsonObject { { u"path"_s, 3 } });
        QTest::newRow("dataset path type") << toBytes(root) << u"dataset: "_s;
        root.insert(u"dataset"_s, u"x.mat"_s);
        QTest::newRow("dataset type") << toBytes(root) << u"\"dataset\" must be an object"_s;
        root = sampleJson();
        root.insert(u"shown_run"_s, 999);
        QTest::newRow("shown run unknown")
            << toBytes(root) << u"\"shown_run\" must be the id of one of the runs"_s;
        root.insert(u"shown_run"_s, 1e300); // beyond int: refused before any conversion
        QTest::newRow("shown run huge")
            << toBytes(root) << u"\"shown_run\" must be the id of one of the runs"_s;
        root.insert(u"shown_run"_s, u"1"_s);
        QTest::newRow("shown run type")
            << toBytes(root) << u"\"shown_run\" must be the id of one of the runs"_s;

        QTest::newRow("name type") << withFirstRun([](QJsonObject& r) { r[u"name"_s] = 3; })
                                   << u"run 1: \"name\" must be a string, found 3"_s;
        QTest::newRow("id missing") << withFirstRun([](QJsonObject& r) { r.remove(u"id"_s); })
                                    << u"run 1: \"id\" is missing"_s;
        QTest::newRow("duplicate id") << withFirstRun([](QJsonObject& r) { r[u"id"_s] = 5; })
                                      << u"run 2: id 5 is used by an earlier run"_s;
        QTest::newRow("iterations type") << withFirstRun([](QJsonObject& r) {
            QJsonObject s = r[u"summary"_s].toObject();
            s[u"iterations"_s] = u"many"_s;
            r[u"summary"_s] = s;
        }) << u"run 1: summary: \"iterations\" must be a whole number"_s;
        QTest::newRow("stop reason") << withFirstRun([](QJsonObject& r) {
            QJsonObject s = r[u"summary"_s].toObject();
            s[u"stop_reason"_s] = u"bored"_s;
            r[u"summary"_s] = s;
        }) << u"unknown stop_reason \"bored\""_s;
        QTest::newRow("set-up longer than the run") << withFirstRun([](QJsonObject& r) {
            QJsonObject s = r[u"summary"_s].toObject();
            s[u"setup_seconds"_s] = s[u"seconds"_s].toDouble() + 1;
            r[u"summary"_s] = s;
        }) << u"run 1: summary: \"setup_seconds\""_s;
        QTest::newRow("returned objective type") << withFirstRun([](QJsonObject& r) {
            QJsonObject s = r[u"summary"_s].toObject();
            s[u"returned_objective"_s] = u"low"_s;
            r[u"summary"_s] = s;
        }) << u"run 1: summary: \"returned_objective\" must be a number or null"_s;
        const auto option = [](const QString& key, const QJsonValue& value) {
            return withFirstRun([=](QJsonObject& r) {
                QJsonObject o = r[u"options"_s].toObject();
                o[key] = value;
                r[u"options"_s] = o;
            });
        };
        QTest::newRow("unknown method") << option(u"method"_s, u"frobnicate"_s)
                                        << u"run 1: options: unknown method \"frobnicate\""_s;
        QTest::newRow("negative seed") << option(u"seed"_s, -3) << u"\"seed\" must be a decimal"_s;
        QTest::newRow("seed text") << option(u"seed"_s, u"12abc"_s) << u"\"seed\" must be"_s;
        QTest::newRow("negative lambda") << option(u"lambda"_s, -1) << u"\"lambda\" must be"_s;
        QTest::newRow("knn choice")
            << option(u"knn"_s, u"psychic"_s) << u"\"knn\" must be auto, exact or approx"_s;
        QTest::newRow("rank huge") << option(u"rank"_s, 1e300) << u"\"rank\" must be"_s;
        QTest::newRow("known labels") << option(u"known-labels"_s, QJsonArray { 0, -7 })
                                      << u"\"known-labels\" holds class indices"_s;
        QTest::newRow("labels type")
            << withFirstRun([](QJsonObject& r) { r[u"labels"_s] = QJsonArray { u"a"_s }; })
            << u"run 1: \"labels\" entry 1 must be a whole number"_s;
        QTest::newRow("labels count") << withFirstRun([](QJsonObject& r) {
            r[u"labels"_s] = QJsonArray { 0, 1 };
        }) << u"run 1: 2 labels for 60 samples"_s;

        QTest::newRow("shape mismatch")
            << withFirstRunMatrix(u"basis"_s, [](QJsonObject& m) { m[u"rows"_s] = 65; })
            << u"run 1: basis: a 65 x 3 matrix needs 2080 base64 characters, found 2048"_s;
        QTest::newRow("huge shape") << withFirstRunMatrix(u"V"_s, [](QJsonObject& m) {
            m[u"rows"_s] = 2147483647;
            m[u"cols"_s] = 2147483647;
        }) << u"exceed the session's memory budget"_s;
        QTest::newRow("shape past int")
            << withFirstRunMatrix(u"V"_s, [](QJsonObject& m) { m[u"rows"_s] = 1e19; })
            << u"run 1: V: \"rows\" must be a whole number from 0 to 2147483647"_s;
        QTest::newRow("negative shape")
            << withFirstRunMatrix(u"V"_s, [](QJsonObject& m) { m[u"cols"_s] = -1; })
            << u"\"cols\" must be a whole number"_s;
        QTest::newRow("nan factor") << withFirstRunMatrix(u"basis"_s, [](QJsonObject& m) {
            m[u"rows"_s] = 2;
            m[u"cols"_s] = 1;
            m[u"data"_s] = base64Doubles({ 1.0, std::nan("") });
        }) << u"run 1: basis: entry (2, 1) is nan; factors must be finite"_s;
        QTest::newRow("inf factor") << withFirstRunMatrix(u"basis"_s, [](QJsonObject& m) {
            m[u"rows"_s] = 1;
            m[u"cols"_s] = 1;
            m[u"data"_s] = base64Doubles({ std::numeric_limits<double>::infinity() });
        }) << u"factors must be finite"_s;
        QTest::newRow("bad base64") << withFirstRunMatrix(u"basis"_s, [](QJsonObject& m) {
            m[u"rows"_s] = 1;
            m[u"cols"_s] = 1;
            m[u"data"_s] = u"!!!!!!!!!!!="_s;
        }) << u"not valid base64"_s;
        QTest::newRow("dtype") << withFirstRunMatrix(u"basis"_s, [](QJsonObject& m) {
            m[u"dtype"_s] = u"float32-le"_s;
        }) << u"dtype must be \"float64-le\""_s;
        QTest::newRow("rank mismatch") << withFirstRun([](QJsonObject& r) {
            QJsonObject m = r[u"basis"_s].toObject();
            m[u"rows"_s] = 48;
            m[u"cols"_s] = 4; // same 192 values, another shape
            r[u"basis"_s] = m;
        }) << u"run 1: basis is 48 x 4 but V is 60 x 3"_s;
        QTest::newRow("W shape") << withFirstRun([](QJsonObject& r) {
            QJsonObject w = r[u"V"_s].toObject();
            w[u"rows"_s] = 30;
            w[u"cols"_s] = 6; // V's 180 values, another shape
            r[u"W"_s] = w;
        }) << u"run 1: W is 30 x 6 but V is 60 x 3; W must have V's shape"_s;
        QTest::newRow("W alone") << withFirstRun([](QJsonObject& r) {
            r[u"W"_s] = r[u"V"_s];
            r[u"V"_s] = QJsonValue();
            r[u"basis"_s] = QJsonValue();
        }) << u"W must have V's shape"_s;
        QTest::newRow("one factor")
            << withFirstRun([](QJsonObject& r) { r[u"V"_s] = QJsonValue(); }) << u"both factors"_s;
        QTest::newRow("image size") << withFirstRun([](QJsonObject& r) {
            r[u"image"_s] = QJsonObject { { u"height"_s, 9 }, { u"width"_s, 8 } };
        }) << u"images of 9 x 8 pixels do not match 64 basis rows"_s;
        QTest::newRow("history type") << withFirstRun([](QJsonObject& r) {
            r[u"objective_history"_s] = QJsonArray { 1, u"x"_s };
        }) << u"\"objective_history\" holds numbers or null"_s;
    }

    void malformedFilesAreRefused()
    {
        QFETCH(QByteArray, json);
        QFETCH(QString, message);
        const Result<Session> s = parseSession(json, u"/tmp"_s);
        QVERIFY(!s.ok());
        QVERIFY2(s.error().contains(message), qPrintable(s.error()));
    }

    void everyTruncationIsAnErrorNotACrash()
    {
        const QByteArray good = toBytes(sampleJson());
        for (qsizetype n = 0; n < good.size(); n += 7)
            QVERIFY(!parseSession(good.left(n), u"/tmp"_s).ok());
        QVERIFY(parseSession(good, u"/tmp"_s).ok());
    }
};

#include "facet_test.h"
FACET_TEST_GUILESS_MAIN(TestSessionMalformed)
#include "test_session_malformed.moc"
