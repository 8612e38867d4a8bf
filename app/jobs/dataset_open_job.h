// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "data/dataset.h"
#include "data/dataset_source.h"
#include "jobs/superseding_stop.h"

#include <QMetaType>
#include <QObject>
#include <QString>
#include <QStringList>

#include <memory>

namespace facet {

struct LoadProgressRelay; // dataset_open_job.cpp

// A loaded dataset with the request that made it and what the face detector missed, so a view
// can offer to reload the same source with other settings (pixel order, no-face policy).
struct OpenedDataset {
    DatasetRequest request;
    std::shared_ptr<const Dataset> data;
    QStringList noFace; // images without a face (skipped or centre-cropped, per the request)
    QString sha256; // dataSha256(data->X), computed on the worker; empty when not computed
};

// Opens a dataset on the global thread pool (only the newest request answers) and keeps
// the preprocessing report, which loadDataset() does not return. The image steps report their
// progress per image and stop between images: a new request stops the one before it, and
// cancel() stops the current one, whose answer is then cancelled() whatever the worker had got to.
class DatasetOpenJob : public QObject {
    Q_OBJECT

public:
    explicit DatasetOpenJob(QObject* parent = nullptr);
    ~DatasetOpenJob() override;

    // GUI thread. Returns the request id carried by the answer.
    quint64 open(const DatasetRequest& request);
    // GUI thread: the current request answers cancelled() (none when nothing is loading).
    void cancel();
    bool isLoading() const { return m_pending > 0; }

Q_SIGNALS:
    void opened(quint64 requestId, const facet::OpenedDataset& opened);
    void failed(quint64 requestId, const facet::DatasetRequest& request, const QString& message);
    // The image steps (faces, size) have done `done` of `total` images; at most one a percent.
    void progress(quint64 requestId, int done, int total);
    // The request stopped at cancel(); the data loaded before it stays.
    void cancelled(quint64 requestId);

private:
    quint64 m_lastId = 0;
    quint64 m_cancelledId = 0;
    int m_pending = 0;
    SupersedingStop m_stop;
    std::shared_ptr<LoadProgressRelay> m_relay; // the workers' way to progress()
};

} // namespace facet

Q_DECLARE_METATYPE(facet::OpenedDataset)
Q_DECLARE_METATYPE(facet::DatasetRequest)
