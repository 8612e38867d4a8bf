// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "data/dataset.h"
#include "experiment/run.h"
#include "jobs/superseding_stop.h"
#include "util/thread_handoff.h"

#include <QList>
#include <QMetaType>
#include <QObject>
#include <QString>

#include <memory>
#include <mutex>
#include <stop_token>
#include <vector>

namespace facet {

// One factorization to run: the data is shared read-only with the GUI, so a request costs no copy
// of X however large the set is.
struct SolveRequest {
    quint64 runId = 0;
    std::shared_ptr<const Dataset> data;
    RunOptions options;
    // One inner thread (Eigen and OpenMP), as every experiment cell runs: a trial re-opened from
    // an experiment then repeats the cell's numbers bit for bit.
    bool singleInnerThread = false;
};

// Runs runAndCluster() on whatever thread it lives on (the owner moves it to its own QThread and
// connects QThread::finished to deleteLater). Requests go in through submit(); results come back
// by signal as value types, tagged with the request's run id so the receiver can drop results of
// superseded runs. No exception leaves run(): every one becomes failed().
class SolveJob : public QObject {
    Q_OBJECT

public:
    // At most this often a progress batch is emitted: faster than a screen needs, slow enough that
    // thousands of cheap iterations never flood the GUI's event queue.
    static constexpr int kProgressIntervalMs = 33;

    explicit SolveJob(QObject* parent = nullptr);
    // On the job's thread (deleteLater when it finishes), after the owner published its last use.
    ~SolveJob() override;

    // Any thread. Queues the request on the job's thread; a request still running or queued is
    // cancelled first, because the new one supersedes it.
    void submit(SolveRequest request);
    // Any thread. Stops the current request between two iterations; it still finishes normally
    // with StopReason::Cancelled and consistent factors.
    void cancel();

Q_SIGNALS:
    void started(quint64 runId);
    // Iterations since the previous batch, in order.
    void progress(quint64 runId, const QList<facet::IterationReport>& reports);
    // A long set-up step begins (SolveControl::onStage); empty: the set-up is over.
    void stageStarted(quint64 runId, const QString& stage);
    // How far that step has come (SolveControl::onStageProgress), at most every
    // kProgressIntervalMs, and always when it reaches 1.
    void stageProgress(quint64 runId, double fraction);
    void finished(quint64 runId, const facet::RunResult& result);
    void failed(quint64 runId, const QString& message);

private:
    // Runs the oldest submitted request (invoked by name on the job's thread, see submit()).
    Q_INVOKABLE void runNext();
    void run(const SolveRequest& request, std::stop_token stop);

    // The shared set-up of recent runs (runAndCluster's SetupCache) with the data it was built
    // from: a re-run on the same data with the same graph options (a new lambda from the slider,
    // another rank or seed) reuses the kNN graph. The two most recent data sets are kept, the
    // loaded one and its unit-norm copy for the CF family, so alternating NMF and CF runs does
    // not rebuild either. The data is held weakly: once the window lets a data set go, so does
    // the cache (its entry is never used again, and is dropped at the next run). Only the job's
    // thread touches them.
    struct CachedSetup {
        std::weak_ptr<const Dataset> data;
        SetupCache setup;
    };
    // The entry of `data`, made if needed; null for a single-inner-thread request, whose bits
    // must not depend on a kernel formed by an earlier run on more threads.
    SetupCache* setupFor(const SolveRequest& request);
    std::vector<CachedSetup> m_setups; // most recent last, at most kCachedDataSets
    static constexpr std::size_t kCachedDataSets = 2;

    JobInbox<std::pair<SolveRequest, std::stop_token>> m_inbox;
    SupersedingStop m_stop;
};

// Registers the signal argument types for queued connections; idempotent.
void registerSolveJobMetaTypes();

} // namespace facet

Q_DECLARE_METATYPE(facet::IterationReport)
Q_DECLARE_METATYPE(facet::RunResult)
