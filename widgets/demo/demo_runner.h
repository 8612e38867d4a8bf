// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "data/dataset.h"
#include "experiment/basis_trace.h"
#include "jobs/superseding_stop.h"

#include <QObject>
#include <QString>
#include <QThreadPool>

#include <memory>

namespace facet {

// One factorization of the 2-D demo: the data (shared read-only with the GUI), the options, and
// how often to record the basis for the animation (0 = no trace).
struct DemoRunRequest {
    std::shared_ptr<const Dataset> data;
    RunOptions options;
    int traceEvery = 0;
};

// Runs one panel's requests off the GUI thread (runTraced on a private one-thread pool), newest
// first: submitting cancels the request before it through its stop token, and only the answer to
// the newest request is delivered, so a superseded run can never overwrite a fresh picture. One
// thread per panel keeps a burst of drags from piling cancelled runs onto the machine: each stops
// after its current iteration. The destructor cancels and waits, so a panel closed mid-run
// leaves no work behind.
class DemoRunner : public QObject {
    Q_OBJECT

public:
    explicit DemoRunner(QObject* parent = nullptr);
    ~DemoRunner() override;

    // Returns the run id that finished() or failed() will carry.
    quint64 submit(DemoRunRequest request);
    // Stops the newest request between two iterations; its answer is dropped.
    void cancel();
    // cancel(), then blocks until the worker is idle (one iteration at most): for shutdown.
    void cancelAndWait();
    // A request is submitted and not answered (nor cancelled) yet.
    bool isRunning() const { return m_pending != 0; }
    quint64 lastRunId() const { return m_lastId; }

Q_SIGNALS:
    void finished(
        quint64 runId, std::shared_ptr<const facet::Dataset> data, const facet::TracedRun& run);
    void failed(quint64 runId, const QString& message);

private:
    QThreadPool m_pool;
    SupersedingStop m_stop;
    quint64 m_lastId = 0;
    quint64 m_pending = 0; // id of the request still awaited, 0 when none
};

} // namespace facet
