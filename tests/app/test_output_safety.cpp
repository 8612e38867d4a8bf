// SPDX-License-Identifier: GPL-3.0-or-later
// Outputs that would destroy something (issue 36, items 3 and 4): `--json /dev/stdout` while the
// output is appended to a log replaced the whole log; two options naming the same file lost one
// output. Both are refused before any work, and `--json -` streams the JSON to standard output.
#include "cli/cli_options.h"
#include "cli/commands.h"
#include "cli_process.h"
#include "util/atomic_write.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QtTest>

#include <unistd.h>

using namespace facet;
using namespace facet::cli;
using namespace facet::testing;
using namespace Qt::StringLiterals;

namespace {

const QStringList kSmallSafetyRun { u"run"_s, u"--dataset"_s, u"builtin:swimmer"_s, u"--method"_s,
    u"nmf"_s, u"--rank"_s, u"3"_s, u"--max-iter"_s, u"5"_s };

} // namespace

class TestOutputSafety : public QObject {
    Q_OBJECT
private slots:
    void sameFileTwiceIsRefused_data()
    {
        QTest::addColumn<QStringList>("outputs");
        QTest::addColumn<QString>("needle");
        QTest::newRow("json, factors") << QStringList { u"--json"_s, u"@DIR@/x"_s, u"--factors"_s,
            u"@DIR@/x"_s } << u"--json and --factors name the same file"_s;
        QTest::newRow("json, basis-png")
            << QStringList { u"--json"_s, u"@DIR@/x.png"_s, u"--basis-png"_s, u"@DIR@/x.png"_s }
            << u"--json and --basis-png"_s;
        QTest::newRow("factors, basis-png, other spelling") << QStringList { u"--json"_s,
            u"@DIR@/r.json"_s, u"--factors"_s, u"@DIR@/x.png"_s, u"--basis-png"_s,
            u"@DIR@/sub/../x.png"_s } << u"--basis-png and --factors"_s;
        QTest::newRow("hard link") << QStringList { u"--json"_s, u"@DIR@/old"_s, u"--factors"_s,
            u"@DIR@/link"_s } << u"name the same file"_s;
        QTest::newRow("symbolic link")
            << QStringList { u"--json"_s, u"@DIR@/old"_s, u"--basis-png"_s, u"@DIR@/symlink.png"_s }
            << u"name the same file"_s;
        QTest::newRow("factors to standard output") << QStringList { u"--json"_s, u"@DIR@/r.json"_s,
            u"--factors"_s, u"-"_s } << u"only --json can go to standard output"_s;
    }
    void sameFileTwiceIsRefused()
    {
        QFETCH(QStringList, outputs);
        QFETCH(QString, needle);
        QTemporaryDir dir;
        QVERIFY(QDir(dir.path()).mkdir(u"sub"_s));
        QFile old(dir.filePath(u"old"_s));
        QVERIFY(old.open(QIODevice::WriteOnly) && old.write("kept") == 4);
        old.close();
        QCOMPARE(::link(QFile::encodeName(old.fileName()).constData(),
                     QFile::encodeName(dir.filePath(u"link"_s)).constData()),
            0);
        QVERIFY(QFile::link(old.fileName(), dir.filePath(u"symlink.png"_s)));
        outputs.replaceInStrings(u"@DIR@"_s, dir.path());

        const Result<CliOptions> parsed = parseArguments(kSmallSafetyRun + outputs);
        QVERIFY(!parsed.ok());
        QVERIFY2(parsed.error().contains(needle), qPrintable(parsed.error()));

        // The real program says the same before loading anything, and writes nothing.
        const CliRun run = runCli(kSmallSafetyRun + outputs);
        QCOMPARE(run.exitCode, int(kExitUsage));
        QVERIFY2(run.err.contains(needle), qPrintable(run.err));
        QCOMPARE(readBytes(old.fileName()), QByteArray("kept"));
        QVERIFY(!QFileInfo::exists(dir.filePath(u"x"_s)));
        QVERIFY(!QFileInfo::exists(dir.filePath(u"x.png"_s)));
    }

    void distinctFilesAreAccepted()
    {
        QTemporaryDir dir;
        const Result<CliOptions> parsed = parseArguments(kSmallSafetyRun
            + QStringList { u"--json"_s, dir.filePath(u"r.json"_s), u"--factors"_s,
                dir.filePath(u"f.mat"_s), u"--basis-png"_s, dir.filePath(u"b.png"_s) });
        QVERIFY2(parsed.ok(), parsed.ok() ? "" : qPrintable(parsed.error()));
        QVERIFY(
            sameOutputProblem({ { u"--json"_s, u"-"_s }, { u"--factors"_s, u"-"_s } }).isEmpty());
    }

    // `... --json /dev/stdout >> log`: /dev/stdout is the log itself, a regular file, which the
    // rename of a finished output would have replaced whole.
    void standardOutputFileIsNotReplaced()
    {
        QTemporaryDir dir;
        const QString log = dir.filePath(u"log"_s);
        const QString script
            = u"printf 'earlier lines\\n' > \"$1\"; shift; "
              "\"$@\" --json /dev/stdout >> \"$0\" 2>&1; echo \"exit $?\" >> \"$0\""_s;
        ChildProcess shell;
        QVERIFY(shell.start(u"/bin/sh"_s,
            QStringList { u"-c"_s, script, log, log, QStringLiteral(FACET_CLI_PATH) }
                + kSmallSafetyRun));
        QVERIFY(shell.waitForFinished(120000));
        const QByteArray written = readBytes(log);
        QVERIFY2(written.startsWith("earlier lines\n"), written.constData());
        QVERIFY2(written.contains("is this program's standard output"), written.constData());
        QVERIFY2(written.endsWith("exit 1\n"), written.constData());
        QVERIFY2(!written.contains("\"objective_history\""), written.constData());
    }

    // `--json -`: standard output carries the JSON alone, what the run says goes to stderr.
    void jsonStreamsToStandardOutput()
    {
        const CliRun run = runCli(kSmallSafetyRun + QStringList { u"--json"_s, u"-"_s });
        QCOMPARE(run.exitCode, 0);
        QJsonParseError error;
        const QJsonDocument json = QJsonDocument::fromJson(run.out.toUtf8(), &error);
        QVERIFY2(error.error == QJsonParseError::NoError, qPrintable(run.out));
        QCOMPARE(json[u"method"_s].toString(), u"nmf"_s);
        QCOMPARE(json[u"iterations"_s].toInt(), 5);
        QVERIFY2(run.err.contains(u"nmf rank 3 on"_s), qPrintable(run.err));
    }
};

#include "facet_test.h"
FACET_TEST_GUILESS_MAIN(TestOutputSafety)
#include "test_output_safety.moc"
