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

ExperimentJob::~ExperimentJob()
{
    receiveHandOff();
}

void ExperimentJob::submit(ExperimentRequest request)
{
    const std::stop_token token = m_stop.renew();
    m_inbox.push({ std::move(request), token });
    // By name: the request crosses threads through the inbox (util/thread_handoff.h).
    QMetaObject::invokeMethod(this, "runNext", Qt::QueuedConnection);
}

void ExperimentJob::runNext()
{
    if (std::optional<std::pair<ExperimentRequest, std::stop_token>> next = m_inbox.take())
        run(next->first, next->second);
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
        validateExperimentSizes(request.options, request.data->raw().classSizes());
        const std::vector<ExperimentCell> cells
            = request.cells.empty() ? planCells(request.options) : request.cells;
        handOff([&] { Q_EMIT started(runId, int(cells.size())); });
        const SweepRunOutcome outcome
            = runCellsInParallel(*request.data, request.options, cells, request.threads, stop,
                [&](const TrialResult& t) { handOff([&] { Q_EMIT trialFinished(runId, t); }); });
        handOff([&] {
            if (!outcome.error.empty())
                Q_EMIT failed(runId, QString::fromStdString(outcome.error));
            else
                Q_EMIT finished(runId, outcome.finished, outcome.stopped);
        });
    } catch (const std::exception& e) {
        handOff([&] { Q_EMIT failed(runId, QString::fromStdString(e.what())); });
    } catch (...) {
        handOff([&] { Q_EMIT failed(runId, QStringLiteral("unknown error in the experiment")); });
    }
}

} // namespace facet
