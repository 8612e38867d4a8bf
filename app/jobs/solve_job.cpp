// SPDX-License-Identifier: GPL-3.0-or-later
#include "jobs/solve_job.h"

#include "experiment/sweep_runner.h"

#include <QElapsedTimer>
#include <QMetaObject>

#include <algorithm>
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

SolveJob::~SolveJob()
{
    receiveHandOff();
}

void SolveJob::submit(SolveRequest request)
{
    const std::stop_token token = m_stop.renew();
    m_inbox.push({ std::move(request), token });
    // By name rather than with a functor carrying the request: the request crosses threads
    // through the inbox's mutex, which ThreadSanitizer can see (util/thread_handoff.h).
    QMetaObject::invokeMethod(this, "runNext", Qt::QueuedConnection);
}

void SolveJob::runNext()
{
    if (std::optional<std::pair<SolveRequest, std::stop_token>> next = m_inbox.take())
        run(next->first, next->second);
}

void SolveJob::cancel()
{
    m_stop.cancel();
}

SetupCache* SolveJob::setupFor(const SolveRequest& request)
{
    std::erase_if(m_setups, [](const CachedSetup& c) { return c.data.expired(); });
    if (request.singleInnerThread)
        return nullptr;
    const auto same = [&request](const CachedSetup& c) { return c.data.lock() == request.data; };
    if (const auto found = std::find_if(m_setups.begin(), m_setups.end(), same);
        found != m_setups.end()) {
        std::rotate(found, found + 1, m_setups.end());
    } else {
        if (m_setups.size() == kCachedDataSets)
            m_setups.erase(m_setups.begin());
        m_setups.push_back({ request.data, {} });
    }
    return &m_setups.back().setup;
}

void SolveJob::run(const SolveRequest& request, std::stop_token stop)
{
    const quint64 runId = request.runId;
    handOff([&] { Q_EMIT started(runId); });

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
        if (!batch.isEmpty()) {
            handOff([&] { Q_EMIT progress(runId, batch); });
        }
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

    control.onStage = [&](std::string_view stage) {
        const QString name = QString::fromUtf8(stage.data(), qsizetype(stage.size()));
        handOff([&] { Q_EMIT stageStarted(runId, name); });
    };
    QElapsedTimer sinceStageProgress;
    sinceStageProgress.start();
    control.onStageProgress = [&](double fraction) {
        if (fraction < 1 && sinceStageProgress.elapsed() < kProgressIntervalMs)
            return;
        sinceStageProgress.restart();
        handOff([&] { Q_EMIT stageProgress(runId, fraction); });
    };

    try {
        if (!request.data)
            throw std::invalid_argument("no dataset is loaded");
        const Dataset& data = *request.data;
        std::optional<OmpSingleThread> single;
        if (request.singleInnerThread)
            single.emplace();
        // Missing entries (Data > Preprocessing) reach the solver as its weights, which share
        // the dataset's matrix; the request's options, which the Runs table keeps, do not hold it.
        RunOptions options = request.options;
        if (data.hasMask() && !options.params.weights)
            options.params.weights = std::shared_ptr<const Matrix>(request.data, &data.weights);
        RunResult result = runAndCluster(data.X, data.labels, options, control, setupFor(request));
        flush();
        handOff([&] { Q_EMIT finished(runId, result); });
    } catch (const std::exception& error) {
        flush();
        handOff([&] { Q_EMIT failed(runId, QString::fromStdString(error.what())); });
    } catch (...) {
        flush();
        handOff([&] { Q_EMIT failed(runId, tr("The solver stopped with an unknown error.")); });
    }
}

} // namespace facet
