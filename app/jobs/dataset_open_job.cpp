// SPDX-License-Identifier: GPL-3.0-or-later
#include "jobs/dataset_open_job.h"

#include "data/dataset_identity.h"
#include "data/noise.h"
#include "data/preprocess.h"
#include "util/thread_handoff.h"

#include <QFutureWatcher>

#include <exception>
#include <new>

namespace facet {

namespace {

// Result<OpenedDataset> has no default state, which QFuture needs; this carries either outcome.
struct OpenOutcome {
    OpenedDataset opened;
    QString error;
};

// The face steps of image folders, lists and .mat files, run here rather than in loadDataset()
// to keep their report; the tail (noise, then preparation) is loadDataset()'s.
Result<Dataset> loadWithReport(const DatasetRequest& request, PreprocessReport& report)
{
    const QString spec = request.spec.trimmed();
    const DatasetKind kind = datasetKind(spec);
    Result<Dataset> processed = Error {};
    if (kind == DatasetKind::MatFile) {
        auto raw = loadMat(spec, request.mat);
        if (!raw)
            return raw;
        processed = preprocessDataset(*raw, request.preprocess, &report);
    } else {
        auto set = loadImageSet(spec);
        if (!set)
            return Error { set.error() };
        processed = preprocessImages(*set, request.preprocess, &report);
    }
    if (!processed)
        return processed;
    Dataset data = std::move(*processed);
    if (auto noisy = addNoise(data, request.preprocess.noise); !noisy)
        return Error { QStringLiteral("%1: %2").arg(spec, noisy.error()) };
    prepareDataset(data, request.prepare);
    return data;
}

OpenOutcome openOutcome(const DatasetRequest& request)
{
    OpenOutcome outcome;
    outcome.opened.request = request;
    try {
        const DatasetKind kind = datasetKind(request.spec.trimmed());
        const bool withReport = request.preprocess.detectFaces
            && (kind == DatasetKind::ImageFolder || kind == DatasetKind::ImageList
                || kind == DatasetKind::MatFile);
        PreprocessReport report;
        Result<Dataset> result
            = withReport ? loadWithReport(request, report) : loadDataset(request);
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
{
    qRegisterMetaType<facet::OpenedDataset>();
    qRegisterMetaType<facet::DatasetRequest>();
}

quint64 DatasetOpenJob::open(const DatasetRequest& request)
{
    const quint64 id = ++m_lastId;
    ++m_pending;
    auto* watcher = new QFutureWatcher<OpenOutcome>(this);
    connect(watcher, &QFutureWatcher<OpenOutcome>::finished, this, [this, watcher, id] {
        --m_pending;
        const OpenOutcome outcome = watcher->result();
        watcher->deleteLater();
        if (id != m_lastId)
            return;
        if (outcome.opened.data)
            Q_EMIT opened(id, outcome.opened);
        else
            Q_EMIT failed(id, outcome.opened.request, outcome.error);
    });
    watcher->setFuture(
        runOnPool(QThreadPool::globalInstance(), [request] { return openOutcome(request); }));
    return id;
}

} // namespace facet
