// SPDX-License-Identifier: GPL-3.0-or-later
#include "data/mat_reader_process.h"

#include "data/dataset_transfer.h"

#include <QCoreApplication>
#include <QDeadlineTimer>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QProcess>
#include <QTemporaryDir>

#include <sys/prctl.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <csignal>
#include <cstring>
#include <iterator>
#include <limits>

namespace facet {
namespace {

constexpr char kHelperName[] = "facet-mat-reader";
// Far above any honest file (MATLAB's largest sets load in seconds), short of forever: a damaged
// file could make libhdf5 loop.
constexpr int kHelperTimeoutMs = 10 * 60 * 1000;
constexpr qint64 kMessageBytes = 4096;
// How often a running helper is checked for the caller's stop request.
constexpr int kStopPollMs = 50;
// <temp>/facet-mat-reader-<PID>-XXXXXX, PID the caller's: reclaimAbandonedHelperFolders tells
// an abandoned folder by it.
constexpr char kScratchPrefix[] = "facet-mat-reader-";

QString findHelper()
{
    // Installed or in the build tree: beside facet and facet-cli. Tests and fuzz targets run
    // from elsewhere and use the build tree's copy.
    const QFileInfo self(QStringLiteral("/proc/self/exe"));
    const QString beside
        = QFileInfo(self.symLinkTarget()).dir().filePath(QLatin1String(kHelperName));
    if (QFileInfo(beside).isExecutable())
        return beside;
#ifdef FACET_MAT_READER_BUILD_PATH
    const QString built = QStringLiteral(FACET_MAT_READER_BUILD_PATH);
    if (QFileInfo(built).isExecutable())
        return built;
#endif
    return {};
}

bool processRunning(qint64 pid)
{
    // EPERM: it runs, as another user.
    return pid > 0 && pid <= std::numeric_limits<pid_t>::max()
        && (::kill(pid_t(pid), 0) == 0 || errno == EPERM);
}

// Why the helper ended without a dataset or a load error of its own. A signal that a user or the
// system sends to stop a process is said as such: an interrupt is not a damaged file.
QString helperEndedMessage(const QString& file, const QProcess& process)
{
    if (process.exitStatus() == QProcess::CrashExit) {
        const int signal = process.exitCode(); // Qt gives the signal's number
        const QString name = QString::fromLocal8Bit(strsignal(signal));
        switch (signal) {
        case SIGINT:
        case SIGTERM:
        case SIGHUP:
        case SIGQUIT:
            return QStringLiteral("%1: reading the MAT 7.3 file was interrupted: its reader, "
                                  "facet-mat-reader, was stopped by signal %2 (%3)")
                .arg(file, QString::number(signal), name);
        case SIGKILL:
            return QStringLiteral("%1: facet-mat-reader, which reads MAT 7.3 files, was killed "
                                  "(signal 9) before it finished: stopped by a user, or by the "
                                  "system when memory ran out")
                .arg(file);
        default:
            break;
        }
    } else if (process.exitCode() == kHelperOrphaned) {
        return QStringLiteral("%1: facet-mat-reader, which reads MAT 7.3 files, did not start: "
                              "the process that started it ended")
            .arg(file);
    }
    return QStringLiteral("%1: the file is damaged: libhdf5, which reads MAT 7.3 files, crashed "
                          "on it (in its own process, so nothing else is affected)")
        .arg(file);
}

} // namespace

int reclaimAbandonedHelperFolders()
{
    const QDir temp(QDir::tempPath());
    const QString prefix = QLatin1String(kScratchPrefix);
    int removed = 0;
    // No symbolic links: /tmp is everyone's, and a link named like ours must not make us empty
    // the folder it points to. Only this user's folders, of processes that no longer run.
    const QFileInfoList folders = temp.entryInfoList(
        { prefix + u'*' }, QDir::Dirs | QDir::NoDotAndDotDot | QDir::NoSymLinks);
    for (const QFileInfo& folder : folders) {
        const QStringList parts = folder.fileName().mid(prefix.size()).split(u'-');
        bool ok = false;
        const qint64 pid = parts.size() == 2 ? parts[0].toLongLong(&ok) : 0;
        if (!ok || folder.isSymLink() || folder.ownerId() != ::geteuid() || processRunning(pid))
            continue;
        if (QDir(folder.absoluteFilePath()).removeRecursively())
            ++removed;
    }
    return removed;
}

bool isHdf5MatFile(const QString& path)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return false;
    const QByteArray head = file.read(520);
    if (head.size() >= 128) {
        const auto byte = [&head](int i) { return int(uchar(head[i])); };
        // Bytes 124-125 hold the version in the writer's order, which bytes 126-127 tell: "IM"
        // from a little-endian writer, "MI" from a big-endian one.
        const int version = head.mid(126, 2) == "IM" ? byte(124) | byte(125) << 8
            : head.mid(126, 2) == "MI"               ? byte(124) << 8 | byte(125)
                                                     : 0;
        if (version == 0x0200)
            return true;
    }
    return head.size() >= 520 && head.mid(512, 8) == QByteArray("\x89HDF\r\n\x1a\n", 8);
}

QStringList helperArguments(
    const QString& path, const QString& output, const MatLoadOptions& options)
{
    return { path, output, QString::number(options.memoryBudgetBytes),
        QString::number(int(options.pixelOrder)), QString::number(options.height),
        QString::number(options.width),
        // Prefixed, so an empty name is still an argument.
        QLatin1Char('=') + options.dataVariable, QLatin1Char('=') + options.labelVariable,
        QString::number(options.part), QString::number(options.parts) };
}

std::optional<HelperRequest> fromHelperArguments(const QStringList& arguments)
{
    if (arguments.size() != 10 || !arguments[6].startsWith(QLatin1Char('='))
        || !arguments[7].startsWith(QLatin1Char('=')))
        return std::nullopt;
    HelperRequest request;
    request.path = arguments[0];
    request.output = arguments[1];
    bool ok[6] = {};
    request.options.memoryBudgetBytes = arguments[2].toLongLong(&ok[0]);
    const int order = arguments[3].toInt(&ok[1]);
    request.options.height = arguments[4].toInt(&ok[2]);
    request.options.width = arguments[5].toInt(&ok[3]);
    request.options.part = arguments[8].toInt(&ok[4]);
    request.options.parts = arguments[9].toInt(&ok[5]);
    if (std::find(std::begin(ok), std::end(ok), false) != std::end(ok)
        || order < int(PixelOrder::Auto) || order > int(PixelOrder::RowMajor))
        return std::nullopt;
    request.options.pixelOrder = PixelOrder(order);
    request.options.dataVariable = arguments[6].mid(1);
    request.options.labelVariable = arguments[7].mid(1);
    request.options.isolateHdf5 = false;
    return request;
}

std::optional<Result<Dataset>> loadMatInHelper(const QString& path, const MatLoadOptions& options)
{
    const QString helper = findHelper();
    if (helper.isEmpty())
        return std::nullopt;
    const QString file = QFileInfo(path).fileName();
    reclaimAbandonedHelperFolders();
    QTemporaryDir scratch(
        QDir(QDir::tempPath())
            .filePath(QLatin1String(kScratchPrefix)
                + QString::number(QCoreApplication::applicationPid()) + QStringLiteral("-XXXXXX")));
    if (!scratch.isValid())
        return Result<Dataset>(Error { QStringLiteral("%1: cannot make a temporary folder for "
                                                      "reading the MAT 7.3 file: %2")
                                           .arg(file, scratch.errorString()) });
    const QString output = scratch.filePath(QStringLiteral("dataset.bin"));
    QProcess process;
    process.setProgram(helper);
    process.setArguments(helperArguments(QFileInfo(path).absoluteFilePath(), output, options));
    process.setStandardOutputFile(QProcess::nullDevice());
    // In the child, before the exec: the helper gets SIGKILL when the thread that started it
    // ends, so a facet-cli killed mid-load does not leave a reader holding gigabytes. A parent
    // that died before the prctl is seen by the parent ID having changed.
    const pid_t parent = ::getpid();
    process.setChildProcessModifier([parent] {
        if (::prctl(PR_SET_PDEATHSIG, SIGKILL) != 0 || ::getppid() != parent)
            ::_exit(kHelperOrphaned);
    });
    process.start();
    if (!process.waitForStarted())
        return Result<Dataset>(Error { QStringLiteral("%1: could not start %2 to read the MAT 7.3 "
                                                      "file: %3")
                                           .arg(file, helper, process.errorString()) });
    const QString interrupted
        = QStringLiteral("%1: reading the MAT 7.3 file was interrupted").arg(file);
    const QDeadlineTimer deadline(kHelperTimeoutMs);
    while (process.state() != QProcess::NotRunning && !process.waitForFinished(kStopPollMs)) {
        const bool stop = options.stop.stop_requested();
        if (stop || deadline.hasExpired()) {
            process.kill();
            process.waitForFinished(-1);
            if (stop)
                return Result<Dataset>(Error { interrupted });
            return Result<Dataset>(Error { QStringLiteral("%1: reading the MAT 7.3 (HDF5) file "
                                                          "took longer than %2 minutes; it may be "
                                                          "damaged")
                                               .arg(file)
                                               .arg(kHelperTimeoutMs / 60000) });
        }
    }
    if (process.exitStatus() == QProcess::NormalExit && process.exitCode() == kHelperLoadError) {
        const QByteArray message = process.readAllStandardError().right(kMessageBytes).trimmed();
        return Result<Dataset>(Error { QString::fromUtf8(message) });
    }
    if (process.exitStatus() != QProcess::NormalExit || process.exitCode() != 0)
        // Ctrl+C reaches the helper too (one process group): the caller asked for the stop.
        return Result<Dataset>(Error {
            options.stop.stop_requested() ? interrupted : helperEndedMessage(file, process) });
    return readDatasetTransfer(output);
}

} // namespace facet
