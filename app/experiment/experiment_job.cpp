// SPDX-License-Identifier: GPL-3.0-or-later
#include "experiment/experiment_job.h"

#include "experiment/sweep_runner.h"

#include <QMetaObject>

#include <exception>
#include <stdexcept>

namespace facet {

void registerExperimentJobMetaTypes()
{
    qRegisterMetaType<facet::TrialResult>();
}

ExperimentJob::ExperimentJob(QObject* parent)
    : QObject(parent)
{
    registerExperimentJobMetaTypes();
}

void ExperimentJob::submit(ExperimentRequest request)
{
    const std::stop_token token = m_stop.renew();
    QMetaObject::invokeMethod(
        this, [this, request = std::move(request), token] { run(request, token); },
        Qt::QueuedConnection);
}

void ExperimentJob::cancel()
{
    m_stop.cancel();
}

void ExperimentJob::run(const ExperimentRequest& request, std::stop_token stop)
{
    const quint64 runId = request.runId;
    try {
        if (!request.data)
            throw std::invalid_argument("an experiment needs a dataset");
        validateExperiment(request.options, request.data->raw().classCount());
        const std::vector<ExperimentCell> cells
            = request.cells.empty() ? planCells(request.options) : request.cells;
        Q_EMIT started(runId, int(cells.size()));
        const SweepRunOutcome outcome = runCellsInParallel(*request.data, request.options, cells,
            request.threads, stop, [&](const TrialResult& t) { Q_EMIT trialFinished(runId, t); });
        if (!outcome.error.empty())
            Q_EMIT failed(runId, QString::fromStdString(outcome.error));
        else
            Q_EMIT finished(runId, outcome.finished, outcome.stopped);
    } catch (const std::exception& e) {
        Q_EMIT failed(runId, QString::fromStdString(e.what()));
    } catch (...) {
        Q_EMIT failed(runId, QStringLiteral("unknown error in the experiment"));
    }
}

} // namespace facet
