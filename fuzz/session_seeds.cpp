// SPDX-License-Identifier: GPL-3.0-or-later
// facet-fuzz-session-seeds DIR: session files (and a version-0 facet-cli run report, which
// parseSession migrates) written by Facet's own serializers from two tiny real runs.
#include "data/dataset_source.h"
#include "experiment/run_report.h"
#include "session/session.h"

#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QJsonDocument>

#include <cstdio>

namespace {

using namespace facet;

bool writeFile(const QString& path, const QByteArray& bytes)
{
    QFile file(path);
    return file.open(QIODevice::WriteOnly | QIODevice::Truncate)
        && file.write(bytes) == bytes.size();
}

} // namespace

int main(int argc, char** argv)
{
    QCoreApplication app(argc, argv);
    if (argc != 2) {
        std::fprintf(stderr, "usage: facet-fuzz-session-seeds DIR\n");
        return 2;
    }
    const QString dir = QFile::decodeName(argv[1]);
    QDir().mkpath(dir);
    DatasetRequest request;
    request.spec = QStringLiteral("builtin:gaussians");
    const Result<Dataset> data = loadDataset(request);
    if (!data) {
        std::fprintf(stderr, "facet-fuzz-session-seeds: %s\n", qPrintable(data.error()));
        return 1;
    }
    Session session;
    session.dataset = request;
    bool ok = writeFile(dir + QStringLiteral("/empty.json"), serializeSession(session, dir));
    for (const char* method : { "nmf", "cf" }) {
        RunOptions options;
        options.method = method;
        options.params.rank = 2;
        options.driver.maxIter = 5;
        const RunResult result = runAndCluster(data->X, data->labels, options);
        session.runs.push_back(makeRunRecord(options, result, *data, QString::fromLatin1(method)));
        if (session.runs.size() == 1)
            ok = ok
                && writeFile(dir + QStringLiteral("/report-v0.json"),
                    QJsonDocument(runReport(*data, request, options, result, {})).toJson());
    }
    ok = ok && writeFile(dir + QStringLiteral("/two-runs.json"), serializeSession(session, dir));
    session.dataset->spec = dir + QStringLiteral("/data/faces.mat");
    ok = ok && writeFile(dir + QStringLiteral("/relative.json"), serializeSession(session, dir));
    if (!ok) {
        std::fprintf(stderr, "facet-fuzz-session-seeds: could not write into %s\n", argv[1]);
        return 1;
    }
    return 0;
}
