// SPDX-License-Identifier: GPL-3.0-or-later
// Running the real facet-cli from a test (FACET_CLI_PATH is set by tests/app/CMakeLists.txt for
// the tests that drive the executable) and reading the files it wrote.
#pragma once

#include "child_process.h"

#include <QByteArray>
#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QString>
#include <QStringList>

#ifndef FACET_CLI_PATH
#error "cli_process.h needs FACET_CLI_PATH (tests/app/CMakeLists.txt sets it)"
#endif

namespace facet::testing {

struct CliRun {
    int exitCode = -1; // -1 when it crashed or did not finish in time
    QString out;
    QString err;
};

// The facet-cli built with this test executable.
inline QString cliPath()
{
    return QStringLiteral(FACET_CLI_PATH);
}

inline CliRun runCli(const QStringList& arguments)
{
    ChildProcess process; // not QProcess: see child_process.h
    if (!process.start(cliPath(), arguments))
        return {};
    if (!process.waitForFinished(600000))
        return {};
    return { process.exitCode(), process.out(), process.err() };
}

// The file's bytes; empty when it cannot be read.
inline QByteArray readBytes(const QString& path)
{
    QFile file(path);
    return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray();
}

// The file's JSON object; empty when it cannot be read.
inline QJsonObject readJson(const QString& path)
{
    return QJsonDocument::fromJson(readBytes(path)).object();
}

} // namespace facet::testing
