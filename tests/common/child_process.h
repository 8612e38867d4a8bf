// SPDX-License-Identifier: GPL-3.0-or-later
// A child process for the tests that run facet-cli, started with posix_spawn rather than
// QProcess. Qt 6.4 starts a child through glibc's clone() with CLONE_VM | CLONE_VFORK (forkfd's
// vforkfd); clang 14's ThreadSanitizer runtime, which the tsan preset builds with, intercepts
// that clone and fails its own check in the child ("CHECK failed: tsan_rtl.cpp:234
// ((!thr->slot)) != (0)", in ForkAfter), which kills the test. posix_spawn clones inside glibc,
// where no interceptor runs, and the child execs at once.
#pragma once

#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QString>
#include <QStringList>
#include <QTemporaryDir>
#include <QThread>

#include <algorithm>
#include <csignal>
#include <fcntl.h>
#include <spawn.h>
#include <string>
#include <sys/wait.h>
#include <vector>

extern char** environ;

namespace facet::testing {

class ChildProcess {
public:
    enum class Output { Capture, Inherit };

    ChildProcess() = default;
    ChildProcess(const ChildProcess&) = delete;
    ChildProcess& operator=(const ChildProcess&) = delete;
    ~ChildProcess()
    {
        if (running()) {
            kill(SIGKILL);
            waitForFinished(-1);
        }
    }

    // NAME=value entries that replace or join this process's environment in the next start.
    void setEnvironment(const QStringList& entries) { m_environment = entries; }
    // Whether the next start makes the child the leader of a process group of its own, which
    // killGroup signals as a terminal's Ctrl+C does (the child's own children included).
    void setOwnProcessGroup(bool own) { m_ownGroup = own; }

    // Starts `program` with `arguments`; with Output::Capture its standard output and error go
    // to files read by out() and err(), otherwise they are this process's. False when the
    // program could not be started (it does not exist, or the spawn failed).
    bool start(
        const QString& program, const QStringList& arguments, Output output = Output::Capture)
    {
        m_finished = false;
        m_status = 0;
        std::vector<std::string> owned { QFile::encodeName(program).toStdString() };
        for (const QString& argument : arguments)
            owned.push_back(argument.toStdString());
        std::vector<char*> argv;
        for (std::string& s : owned)
            argv.push_back(s.data());
        argv.push_back(nullptr);

        posix_spawn_file_actions_t actions;
        posix_spawn_file_actions_init(&actions);
        std::string outPath, errPath;
        if (output == Output::Capture) {
            outPath = QFile::encodeName(m_dir.filePath(QStringLiteral("out"))).toStdString();
            errPath = QFile::encodeName(m_dir.filePath(QStringLiteral("err"))).toStdString();
            posix_spawn_file_actions_addopen(
                &actions, 1, outPath.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
            posix_spawn_file_actions_addopen(
                &actions, 2, errPath.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
        }
        m_capture = output == Output::Capture;
        std::vector<std::string> environment;
        for (char** entry = environ; *entry; ++entry) {
            const std::string text = *entry;
            const auto replaced = [&text](const QString& e) {
                const std::string name = e.section(QLatin1Char('='), 0, 0).toStdString() + '=';
                return text.compare(0, name.size(), name) == 0;
            };
            if (std::none_of(m_environment.begin(), m_environment.end(), replaced))
                environment.push_back(text);
        }
        for (const QString& entry : m_environment)
            environment.push_back(QFile::encodeName(entry).toStdString());
        std::vector<char*> envp;
        for (std::string& s : environment)
            envp.push_back(s.data());
        envp.push_back(nullptr);
        posix_spawnattr_t attributes;
        posix_spawnattr_init(&attributes);
        if (m_ownGroup) {
            posix_spawnattr_setflags(&attributes, POSIX_SPAWN_SETPGROUP);
            posix_spawnattr_setpgroup(&attributes, 0);
        }
        const int rc
            = posix_spawn(&m_pid, argv[0], &actions, &attributes, argv.data(), envp.data());
        posix_spawnattr_destroy(&attributes);
        posix_spawn_file_actions_destroy(&actions);
        if (rc != 0) {
            m_pid = -1;
            return false;
        }
        return true;
    }

    // Whether the child is still running (reaps it when it has ended).
    bool running()
    {
        if (m_pid <= 0 || m_finished)
            return false;
        int status = 0;
        const pid_t r = waitpid(m_pid, &status, WNOHANG);
        if (r == m_pid) {
            m_finished = true;
            m_status = status;
        }
        return !m_finished;
    }

    // Waits up to `ms` milliseconds (-1: for ever); true when the child has ended.
    bool waitForFinished(int ms)
    {
        QElapsedTimer clock;
        clock.start();
        while (running()) {
            if (ms >= 0 && clock.elapsed() >= ms)
                return false;
            QThread::msleep(5);
        }
        return m_pid > 0;
    }

    void kill(int signal) const
    {
        if (m_pid > 0)
            ::kill(m_pid, signal);
    }
    // The child's process group (setOwnProcessGroup): the child and what it started.
    void killGroup(int signal) const
    {
        if (m_pid > 0 && m_ownGroup)
            ::kill(-m_pid, signal);
    }

    pid_t pid() const { return m_pid; }
    bool crashed() const { return m_finished && WIFSIGNALED(m_status); }
    // The exit code, or -1 when the child was killed by a signal or has not ended.
    int exitCode() const { return m_finished && WIFEXITED(m_status) ? WEXITSTATUS(m_status) : -1; }
    QString out() const { return captured(QStringLiteral("out")); }
    QString err() const { return captured(QStringLiteral("err")); }

private:
    QString captured(const QString& name) const
    {
        QFile file(m_dir.filePath(name));
        if (!m_capture || !file.open(QIODevice::ReadOnly))
            return {};
        return QString::fromUtf8(file.readAll());
    }

    QTemporaryDir m_dir;
    QStringList m_environment;
    bool m_ownGroup = false;
    pid_t m_pid = -1;
    bool m_finished = false;
    bool m_capture = false;
    int m_status = 0;
};

} // namespace facet::testing
