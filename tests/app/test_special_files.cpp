// SPDX-License-Identifier: GPL-3.0-or-later
// Issue 36 item 11: a dataset or a start file that is a FIFO blocked facet-cli in open() forever,
// and /dev/zero or /dev/urandom were reported as "the file is empty (0 bytes)". Paths that are
// neither regular files nor folders are refused at once, with what they are, in facet-cli and in
// the loaders the explorer uses.
#include "cli_process.h"
#include "data/dataset_source.h"
#include "data/mat_loader.h"

#include <QTemporaryDir>
#include <QtTest>

#include <sys/stat.h>

using namespace facet;
using namespace facet::testing;

class TestSpecialFiles : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void refusedWithoutBlocking_data();
    void refusedWithoutBlocking();

private:
    QTemporaryDir m_dir;
};

void TestSpecialFiles::refusedWithoutBlocking_data()
{
    QTest::addColumn<QString>("path");
    QTest::addColumn<QString>("kind");
    const QString fifo = m_dir.filePath(QStringLiteral("data.mat"));
    QVERIFY(::mkfifo(QFile::encodeName(fifo).constData(), 0600) == 0);
    QTest::newRow("fifo named .mat") << fifo << QStringLiteral("a FIFO (named pipe)");
    const QString bare = m_dir.filePath(QStringLiteral("pipe"));
    QVERIFY(::mkfifo(QFile::encodeName(bare).constData(), 0600) == 0);
    QTest::newRow("fifo") << bare << QStringLiteral("a FIFO (named pipe)");
    QTest::newRow("/dev/zero") << QStringLiteral("/dev/zero")
                               << QStringLiteral("a character device");
    QTest::newRow("/dev/urandom") << QStringLiteral("/dev/urandom")
                                  << QStringLiteral("a character device");
}

void TestSpecialFiles::refusedWithoutBlocking()
{
    QFETCH(QString, path);
    QFETCH(QString, kind);
    // The explorer's loader and the warm start's reader, in this process (a regression blocks
    // here on a FIFO; the facet-cli runs below are bounded).
    DatasetRequest request;
    request.spec = path;
    const Result<Dataset> data = loadDataset(request);
    QVERIFY(!data);
    QVERIFY2(data.error().contains(kind), qPrintable(data.error()));
    const auto factors = readMatMatrices(path, { QStringLiteral("U"), QStringLiteral("V") });
    QVERIFY(!factors);
    QVERIFY2(factors.error().contains(kind), qPrintable(factors.error()));

    for (const QStringList& arguments : { QStringList { QStringLiteral("info"), path },
             QStringList { QStringLiteral("run"), QStringLiteral("--dataset"),
                 QStringLiteral("builtin:swimmer"), QStringLiteral("--method"),
                 QStringLiteral("nmf"), QStringLiteral("--rank"), QStringLiteral("3"),
                 QStringLiteral("--init-from"), path, QStringLiteral("--json"),
                 m_dir.filePath(QStringLiteral("run.json")) } }) {
        ChildProcess cli;
        QVERIFY(cli.start(cliPath(), arguments));
        QVERIFY2(cli.waitForFinished(60000),
            qPrintable(QStringLiteral("facet-cli %1 did not return").arg(arguments.join(u' '))));
        QCOMPARE(cli.exitCode() == 0, false);
        QVERIFY2(cli.err().contains(kind), qPrintable(cli.err()));
    }
}

#include "facet_test.h"
FACET_TEST_GUILESS_MAIN(TestSpecialFiles)
#include "test_special_files.moc"
