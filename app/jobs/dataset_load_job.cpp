// SPDX-License-Identifier: GPL-3.0-or-later
#include "jobs/dataset_load_job.h"

#include <QFutureWatcher>
#include <QtConcurrent/QtConcurrentRun>

#include <exception>

namespace facet {

namespace {

// Result<Dataset> has no default state, which QFuture needs; this carries either outcome.
struct LoadOutcome {
    std::shared_ptr<const Dataset> data;
    QString error;
};

LoadOutcome loadOutcome(const DatasetRequest& request)
{
    try {
        Result<Dataset> result = loadDataset(request);
        if (!result)
            return { nullptr, result.error() };
        return { std::make_shared<const Dataset>(std::move(result.value())), {} };
    } catch (const std::exception& error) {
        return { nullptr, QString::fromStdString(error.what()) };
    } catch (...) {
        return { nullptr,
            QObject::tr("Loading %1 failed with an unknown error.").arg(request.spec) };
    }
}

} // namespace

DatasetLoadJob::DatasetLoadJob(QObject* parent)
    : QObject(parent)
{
    qRegisterMetaType<std::shared_ptr<const facet::Dataset>>();
}

quint64 DatasetLoadJob::load(const DatasetRequest& request)
{
    const quint64 id = ++m_lastId;
    ++m_pending;
    auto* watcher = new QFutureWatcher<LoadOutcome>(this);
    connect(watcher, &QFutureWatcher<LoadOutcome>::finished, this, [this, watcher, id, request] {
        --m_pending;
        const LoadOutcome outcome = watcher->result();
        watcher->deleteLater();
        if (id != m_lastId)
            return;
        if (outcome.data)
            Q_EMIT loaded(id, outcome.data);
        else
            Q_EMIT failed(id, request.spec, outcome.error);
    });
    watcher->setFuture(QtConcurrent::run(loadOutcome, request));
    return id;
}

} // namespace facet
