// SPDX-License-Identifier: GPL-3.0-or-later
// Running the real facet-cli from a test (FACET_CLI_PATH is set by tests/app/CMakeLists.txt for
// the tests that drive the executable) and reading the JSON it wrote.
#pragma once

#include "child_process.h"

#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QString>
#include <QStringList>

namespace facet::testing {

struct CliRun {
    int exitCode = -1; // -1 when it crashed or did not finish in time
    QString out;
    QString err;
};

inline CliRun runCli(const QStringList& arguments)
{
    ChildProcess process; // not QProcess: see child_process.h
    if (!process.start(QStringLiteral(FACET_CLI_PATH), arguments))
        return {};
    if (!process.waitForFinished(600000))
        return {};
    return { process.exitCode(), process.out(), process.err() };
}

// The file's JSON object; empty when it cannot be read.
inline QJsonObject readJson(const QString& path)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return {};
    return QJsonDocument::fromJson(file.readAll()).object();
}

} // namespace facet::testing
