// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "experiment/experiment_data.h"
#include "jobs/superseding_stop.h"
#include "util/thread_handoff.h"

#include <QMetaType>
#include <QObject>
#include <QString>

#include <memory>
#include <mutex>
#include <stop_token>

namespace facet {

// One experiment to run interactively (the GUI's experiment view): the data is shared
// read-only, so a request costs no copy of X.
struct ExperimentRequest {
    quint64 runId = 0;
    std::shared_ptr<const ExperimentDataset> data;
    ExperimentOptions options;
    std::vector<ExperimentCell> cells; // empty: the whole plan (planCells); else only these
    int threads = 0; // pool size, 0 = one per core
};

// Runs experiments with runCellsInParallel on whatever thread it lives on (the owner moves it to
// its own QThread, like SolveJob). Every finished cell comes back at once by trialFinished, so
// live tables and plots grow while the experiment runs; a new request or cancel() stops the
// current one after its running cells' next iteration, keeping the cells already reported.
// No exception leaves the job: a failing cell ends the run with failed().
class ExperimentJob : public QObject {
    Q_OBJECT

public:
    explicit ExperimentJob(QObject* parent = nullptr);
    // On the job's thread (deleteLater when it finishes), after the owner published its last use.
    ~ExperimentJob() override;

    // Any thread. Cancels what runs or waits, then queues the request on the job's thread.
    void submit(ExperimentRequest request);
    // Any thread.
    void cancel();

Q_SIGNALS:
    void started(quint64 runId, int cells);
    // Emitted from a pool thread: receivers in other threads get it queued (AutoConnection).
    void trialFinished(quint64 runId, const facet::TrialResult& trial);
    void finished(quint64 runId, int finishedCells, bool stopped);
    void failed(quint64 runId, const QString& message);

private:
    // Runs the oldest submitted request (invoked by name on the job's thread, see submit()).
    Q_INVOKABLE void runNext();
    void run(const ExperimentRequest& request, std::stop_token stop);

    JobInbox<std::pair<ExperimentRequest, std::stop_token>> m_inbox;
    SupersedingStop m_stop;
};

// Registers the signal argument types for queued connections; idempotent.
void registerExperimentJobMetaTypes();

} // namespace facet

Q_DECLARE_METATYPE(facet::TrialResult)
