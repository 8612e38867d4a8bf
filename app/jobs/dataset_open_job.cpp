// SPDX-License-Identifier: GPL-3.0-or-later
#include "jobs/dataset_open_job.h"

#include "data/dataset_identity.h"
#include "data/noise.h"
#include "data/preprocess.h"
#include "util/thread_handoff.h"

#include <QFutureWatcher>

#include <exception>
#include <mutex>
#include <new>

namespace facet {

// Progress from a worker to the job while the job exists: the job clears `job` under the mutex
// as it goes, so a worker never posts to a deleted job (and ~QObject drops what was posted).
struct LoadProgressRelay {
    std::mutex mutex;
    DatasetOpenJob* job = nullptr;

    void post(quint64 id, int done, int total)
    {
        std::lock_guard lock(mutex);
        if (!job)
            return;
        handOff([&] {
            QMetaObject::invokeMethod(
                job, [job = job, id, done, total] { Q_EMIT job->progress(id, done, total); },
                Qt::QueuedConnection);
        });
    }
};

namespace {

// Result<OpenedDataset> has no default state, which QFuture needs; this carries either outcome.
struct OpenOutcome {
    OpenedDataset opened;
    QString error;
};

// The face steps of image folders, lists and .mat files, run here rather than in loadDataset()
// to keep their report; the tail (noise, then preparation) is loadDataset()'s.
Result<Dataset> loadWithReport(
    const DatasetRequest& request, PreprocessReport& report, const PreprocessControl& control)
{
    const QString spec = request.spec.trimmed();
    const DatasetKind kind = datasetKind(spec);
    Result<Dataset> processed = Error {};
    if (kind == DatasetKind::MatFile) {
        auto raw = loadMat(spec, request.mat);
        if (!raw)
            return raw;
        processed = preprocessDataset(*raw, request.preprocess, &report, control);
    } else {
        auto set = loadImageSet(spec);
        if (!set)
            return Error { set.error() };
        processed = preprocessImages(*set, request.preprocess, &report, control);
    }
    if (!processed)
        return processed;
    Dataset data = std::move(*processed);
    if (auto noisy = addNoise(data, request.preprocess.noise); !noisy)
        return Error { QStringLiteral("%1: %2").arg(spec, noisy.error()) };
    prepareDataset(data, request.prepare);
    return data;
}

// Face detection, the step that takes seconds, runs here with progress and stop; other loads are
// loadDataset()'s.
OpenOutcome openOutcome(const DatasetRequest& request, const PreprocessControl& control)
{
    OpenOutcome outcome;
    outcome.opened.request = request;
    try {
        const DatasetKind kind = datasetKind(request.spec.trimmed());
        const bool withReport = request.preprocess.detectFaces
            && (kind == DatasetKind::ImageFolder || kind == DatasetKind::ImageList
                || kind == DatasetKind::MatFile);
        PreprocessReport report;
        DatasetRequest watched = request;
        watched.mat.stop = control.stop; // a MAT 7.3 file's helper stops too
        Result<Dataset> result
            = withReport ? loadWithReport(watched, report, control) : loadDataset(watched);
        if (!result) {
            outcome.error = result.error();
            return outcome;
        }
        outcome.opened.data = std::make_shared<const Dataset>(std::move(result.value()));
        // The identity every run of this data records (0.8 s at 70,000 x 1,024; here, off the
        // GUI thread).
        outcome.opened.sha256 = dataSha256(outcome.opened.data->X);
        outcome.opened.noFace = report.noFace;
    } catch (const std::bad_alloc&) {
        outcome.error = QObject::tr("%1: not enough memory to load the data").arg(request.spec);
    } catch (const std::exception& error) {
        outcome.error
            = QStringLiteral("%1: %2").arg(request.spec, QString::fromLocal8Bit(error.what()));
    } catch (...) {
        outcome.error = QObject::tr("Loading %1 failed with an unknown error.").arg(request.spec);
    }
    return outcome;
}

} // namespace

DatasetOpenJob::DatasetOpenJob(QObject* parent)
    : QObject(parent)
    , m_relay(std::make_shared<LoadProgressRelay>())
{
    qRegisterMetaType<facet::OpenedDataset>();
    qRegisterMetaType<facet::DatasetRequest>();
    m_relay->job = this;
}

DatasetOpenJob::~DatasetOpenJob()
{
    m_stop.cancel();
    std::lock_guard lock(m_relay->mutex);
    m_relay->job = nullptr;
}

void DatasetOpenJob::cancel()
{
    if (m_pending == 0)
        return;
    m_cancelledId = m_lastId;
    m_stop.cancel();
}

quint64 DatasetOpenJob::open(const DatasetRequest& request)
{
    const quint64 id = ++m_lastId;
    ++m_pending;
    PreprocessControl control;
    control.stop = m_stop.renew(); // the request before this one stops between its images
    // At most one report a percent: resizing alone takes well under a millisecond an image.
    control.onImage = [relay = m_relay, id](int done, int total) {
        if (done == total || (done * 100) / total != ((done - 1) * 100) / total)
            relay->post(id, done, total);
    };
    auto* watcher = new QFutureWatcher<OpenOutcome>(this);
    connect(watcher, &QFutureWatcher<OpenOutcome>::finished, this, [this, watcher, id] {
        --m_pending;
        const OpenOutcome outcome = watcher->result();
        watcher->deleteLater();
        if (id != m_lastId)
            return;
        // Cancelled is cancelled even when the worker finished before it saw the stop.
        if (id == m_cancelledId)
            Q_EMIT cancelled(id);
        else if (outcome.opened.data)
            Q_EMIT opened(id, outcome.opened);
        else
            Q_EMIT failed(id, outcome.opened.request, outcome.error);
    });
    watcher->setFuture(runOnPool(QThreadPool::globalInstance(),
        [request, control] { return openOutcome(request, control); }));
    return id;
}

} // namespace facet
