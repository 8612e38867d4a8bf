// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "data/dataset.h"
#include "data/dataset_source.h"

#include <QMetaType>
#include <QObject>
#include <QString>
#include <QStringList>

#include <memory>

namespace facet {

// A loaded dataset with the request that made it and what the face detector missed, so a view
// can offer to reload the same source with other settings (pixel order, no-face policy).
struct OpenedDataset {
    DatasetRequest request;
    std::shared_ptr<const Dataset> data;
    QStringList noFace; // images without a face (skipped or centre-cropped, per the request)
    QString sha256; // dataSha256(data->X), computed on the worker; empty when not computed
};

// Opens a dataset on the global thread pool (only the newest request answers) and keeps
// the preprocessing report, which loadDataset() does not return.
class DatasetOpenJob : public QObject {
    Q_OBJECT

public:
    explicit DatasetOpenJob(QObject* parent = nullptr);

    // GUI thread. Returns the request id carried by the answer.
    quint64 open(const DatasetRequest& request);
    bool isLoading() const { return m_pending > 0; }

Q_SIGNALS:
    void opened(quint64 requestId, const facet::OpenedDataset& opened);
    void failed(quint64 requestId, const facet::DatasetRequest& request, const QString& message);

private:
    quint64 m_lastId = 0;
    int m_pending = 0;
};

} // namespace facet

Q_DECLARE_METATYPE(facet::OpenedDataset)
Q_DECLARE_METATYPE(facet::DatasetRequest)
