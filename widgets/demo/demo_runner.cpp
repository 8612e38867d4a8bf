// SPDX-License-Identifier: GPL-3.0-or-later
#include "demo/demo_runner.h"

#include "util/thread_handoff.h"

#include <QFutureWatcher>

#include <exception>
#include <utility>

namespace facet {

namespace {

struct Outcome {
    TracedRun run;
    QString error; // empty on success
    bool cancelled = false;
};

// Worker side: no exception crosses the thread (ARCHITECTURE.md, Errors).
Outcome runRequest(const DemoRunRequest& request, std::stop_token stop)
{
    Outcome outcome;
    if (stop.stop_requested()) {
        // Superseded while queued behind the previous run: nobody waits for this answer.
        outcome.cancelled = true;
        return outcome;
    }
    try {
        SolveControl control;
        control.stop = stop;
        const Dataset& data = *request.data;
        outcome.run = runTraced(data.X, data.labels, request.options, request.traceEvery, control);
        outcome.cancelled = stop.stop_requested();
    } catch (const std::exception& error) {
        outcome.error = QString::fromStdString(error.what());
    } catch (...) {
        outcome.error = QObject::tr("The solver stopped with an unknown error.");
    }
    return outcome;
}

} // namespace

DemoRunner::DemoRunner(QObject* parent)
    : QObject(parent)
{
    m_pool.setMaxThreadCount(1);
}

DemoRunner::~DemoRunner()
{
    // The watchers' answers, still queued, die with their parent.
    cancelAndWait();
}

quint64 DemoRunner::submit(DemoRunRequest request)
{
    const quint64 id = ++m_lastId;
    m_pending = id;
    const std::stop_token token = m_stop.renew();
    auto* watcher = new QFutureWatcher<Outcome>(this);
    connect(watcher, &QFutureWatcher<Outcome>::finished, this,
        [this, watcher, id, data = request.data] {
            const Outcome outcome = watcher->result();
            watcher->deleteLater();
            if (id != m_pending)
                return; // superseded or cancelled: its picture is stale
            m_pending = 0;
            if (!outcome.error.isEmpty())
                Q_EMIT failed(id, outcome.error);
            else if (!outcome.cancelled)
                Q_EMIT finished(id, data, outcome.run);
        });
    watcher->setFuture(runOnPool(
        &m_pool, [request = std::move(request), token] { return runRequest(request, token); }));
    return id;
}

void DemoRunner::cancel()
{
    m_stop.cancel();
    m_pending = 0;
}

void DemoRunner::cancelAndWait()
{
    cancel();
    m_pool.waitForDone();
}

} // namespace facet
