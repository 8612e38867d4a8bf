// SPDX-License-Identifier: GPL-3.0-or-later
#include "jobs/solve_job.h"

#include "experiment/sweep_runner.h"

#include <QElapsedTimer>
#include <QMetaObject>

#include <exception>
#include <optional>
#include <stdexcept>
#include <utility>

namespace facet {

void registerSolveJobMetaTypes()
{
    qRegisterMetaType<facet::IterationReport>();
    qRegisterMetaType<QList<facet::IterationReport>>();
    qRegisterMetaType<facet::RunResult>();
}

SolveJob::SolveJob(QObject* parent)
    : QObject(parent)
{
    registerSolveJobMetaTypes();
}

void SolveJob::submit(SolveRequest request)
{
    const std::stop_token token = m_stop.renew();
    QMetaObject::invokeMethod(
        this, [this, request = std::move(request), token] { run(request, token); },
        Qt::QueuedConnection);
}

void SolveJob::cancel()
{
    m_stop.cancel();
}

void SolveJob::run(const SolveRequest& request, std::stop_token stop)
{
    const quint64 runId = request.runId;
    Q_EMIT started(runId);

    // The driver calls onIteration on this thread today, but the buffer is guarded anyway so a
    // solver that reports from a worker of its own stays correct.
    std::mutex bufferMutex;
    QList<IterationReport> pending;
    QElapsedTimer sinceFlush;
    sinceFlush.start();
    const auto flush = [&] {
        QList<IterationReport> batch;
        {
            std::lock_guard lock(bufferMutex);
            batch.swap(pending);
            sinceFlush.restart();
        }
        if (!batch.isEmpty())
            Q_EMIT progress(runId, batch);
    };

    SolveControl control;
    control.stop = stop;
    control.onIteration = [&](const IterationReport& report) {
        bool due = false;
        {
            std::lock_guard lock(bufferMutex);
            pending.append(report);
            due = sinceFlush.elapsed() >= kProgressIntervalMs;
        }
        if (due)
            flush();
    };

    try {
        if (!request.data)
            throw std::invalid_argument("no dataset is loaded");
        const Dataset& data = *request.data;
        std::optional<EigenSingleThread> eigen;
        std::optional<OmpSingleThread> omp;
        if (request.singleInnerThread) {
            eigen.emplace();
            omp.emplace();
        }
        RunResult result = runAndCluster(data.X, data.labels, request.options, control);
        flush();
        Q_EMIT finished(runId, result);
    } catch (const std::exception& error) {
        flush();
        Q_EMIT failed(runId, QString::fromStdString(error.what()));
    } catch (...) {
        flush();
        Q_EMIT failed(runId, tr("The solver stopped with an unknown error."));
    }
}

} // namespace facet
