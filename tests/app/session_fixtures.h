// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Sessions made of real runs, and edits of their JSON, for the session tests.

#include "run_record_fixtures.h"
#include "session/session.h"
#include "session/session_matrix.h"
#include "util/params_json.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QtTest>

#include <cstring>
#include <functional>
#include <limits>

namespace facet::fixtures {

using namespace Qt::StringLiterals;

inline bool sameBits(const Matrix& a, const Matrix& b)
{
    return a.rows() == b.rows() && a.cols() == b.cols()
        && (a.size() == 0 // an empty matrix's data() may be null, which memcmp must not get
            || std::memcmp(a.data(), b.data(), std::size_t(a.size()) * sizeof(Scalar)) == 0);
}

// Every field of RunOptions, so a field added later and forgotten by the JSON fails here.
inline void compareOptions(const RunOptions& a, const RunOptions& b)
{
    QCOMPARE(a.method, b.method);
    const MethodOptions &p = a.params, &q = b.params;
    QCOMPARE(p.rank, q.rank);
    QVERIFY(p.init == q.init);
    QCOMPARE(p.initSet, q.initSet);
    QCOMPARE(p.lambda, q.lambda);
    QCOMPARE(p.p, q.p);
    QVERIFY(p.weight == q.weight);
    QCOMPARE(p.heatT, q.heatT);
    QVERIFY(p.knnSearch == q.knnSearch);
    QCOMPARE(p.beta, q.beta);
    QCOMPARE(p.mu, q.mu);
    QCOMPARE(p.clusters, q.clusters);
    QCOMPARE(p.outerIterations, q.outerIterations);
    QCOMPARE(p.innerSteps, q.innerSteps);
    QCOMPARE(p.paperVariant, q.paperVariant);
    QVERIFY(p.kernel == q.kernel);
    QCOMPARE(p.degree, q.degree);
    QCOMPARE(p.offset, q.offset);
    QCOMPARE(p.sigma, q.sigma);
    QCOMPARE(p.ncw, q.ncw);
    QCOMPARE(p.generalForm, q.generalForm);
    QCOMPARE(p.normalizeEach, q.normalizeEach);
    QVERIFY(p.knownLabels == q.knownLabels);
    QCOMPARE(a.driver.maxIter, b.driver.maxIter);
    QCOMPARE(a.driver.minIter, b.driver.minIter);
    QCOMPARE(a.driver.tol, b.driver.tol);
    QCOMPARE(a.driver.replicates, b.driver.replicates);
    QCOMPARE(a.driver.seed, b.driver.seed);
    QVERIFY(a.cluster.mode == b.cluster.mode);
    QCOMPARE(a.cluster.cosine, b.cluster.cosine);
    QCOMPARE(a.cluster.replicates, b.cluster.replicates);
    QCOMPARE(a.clusters, b.clusters);
    QCOMPARE(a.labeledFraction, b.labeledFraction);
    QCOMPARE(a.labeledPerClass, b.labeledPerClass);
}

// Every option away from its default, with values JSON cannot hold as doubles (the seed).
inline RunOptions unusualOptions()
{
    RunOptions o;
    o.method = "lccf";
    MethodOptions& m = o.params;
    m.rank = 7;
    m.init = InitKind::Nndsvd;
    m.initSet = true;
    m.lambda = 0.1 + 0.2; // not a short decimal: the round trip must keep every bit
    m.p = 9;
    m.weight = GraphWeight::Heat;
    m.heatT = 1.0 / 3.0;
    m.knnSearch = KnnSearch::Approximate;
    m.beta = 0.25;
    m.mu = 2.5;
    m.clusters = 4;
    m.outerIterations = 12;
    m.innerSteps = 3;
    m.paperVariant = true;
    m.kernel = KernelKind::Gaussian;
    m.degree = 3;
    m.offset = -1.5;
    m.sigma = 2.0 / 7.0;
    m.ncw = true;
    m.generalForm = true;
    m.normalizeEach = true;
    m.knownLabels = { -1, 0, 2, -1 };
    o.driver.maxIter = 123;
    o.driver.minIter = 7;
    o.driver.tol = 3e-7;
    o.driver.replicates = 4;
    o.driver.seed = std::numeric_limits<std::uint64_t>::max() - 5; // past 2^53
    o.cluster.mode = ClusterMode::ArgMax;
    o.cluster.cosine = true;
    o.cluster.replicates = 11;
    o.clusters = 5;
    o.labeledFraction = 0.3;
    o.labeledPerClass = 2;
    return o;
}

inline Session sampleSession()
{
    const Dataset data = fixtures::labelledBars();
    Session s;
    DatasetRequest request;
    request.spec = u"builtin:swimmer"_s;
    request.prepare.l2Normalize = true;
    s.dataset = request;
    s.runs.push_back(fixtures::solvedRecord(data, "nmf", 3, 1, u"first, \"quoted\" ü"_s));
    s.runs.back().id = 1;
    s.runs.push_back(fixtures::solvedRecord(data, "cf", 4, 2));
    s.runs.back().id = 5;
    s.runs.back().options = unusualOptions();
    s.runs.back().options.params.rank = 4;
    return s;
}

inline QJsonObject sampleJson()
{
    return QJsonDocument::fromJson(serializeSession(sampleSession(), u"/tmp"_s)).object();
}

inline QByteArray toBytes(const QJsonObject& o)
{
    return QJsonDocument(o).toJson(QJsonDocument::Compact);
}

// Applies `edit` to the first run of the sample session.
inline QByteArray withFirstRun(const std::function<void(QJsonObject&)>& edit)
{
    QJsonObject root = sampleJson();
    QJsonArray runs = root.value(u"runs"_s).toArray();
    QJsonObject run = runs.at(0).toObject();
    edit(run);
    runs.replace(0, run);
    root.insert(u"runs"_s, runs);
    return toBytes(root);
}

template <class F> QByteArray withFirstRunMatrix(const QString& key, F edit)
{
    return withFirstRun([&](QJsonObject& run) {
        QJsonObject m = run.value(key).toObject();
        edit(m);
        run.insert(key, m);
    });
}

inline QString base64Doubles(const std::vector<double>& values)
{
    Matrix m(Eigen::Index(values.size()), 1);
    for (std::size_t i = 0; i < values.size(); ++i)
        m(Eigen::Index(i), 0) = values[i];
    return matrixToJson(m).value(u"data"_s).toString();
}

inline QByteArray readAll(const QString& path)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

} // namespace facet::fixtures
