// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "data/dataset.h"
#include "data/dataset_source.h"

#include <QMetaType>
#include <QObject>
#include <QString>

#include <memory>

namespace facet {

// Loads and prepares a dataset on the global thread pool, so opening a large .mat file never
// blocks the event loop. Only the newest request reports: an answer to an older one is dropped
// here, the way SolveJob's receiver drops stale runs.
class DatasetLoadJob : public QObject {
    Q_OBJECT

public:
    explicit DatasetLoadJob(QObject* parent = nullptr);

    // GUI thread. Returns the request id carried by the answer.
    quint64 load(const DatasetRequest& request);
    bool isLoading() const { return m_pending > 0; }

Q_SIGNALS:
    void loaded(quint64 requestId, std::shared_ptr<const facet::Dataset> data);
    void failed(quint64 requestId, const QString& spec, const QString& message);

private:
    quint64 m_lastId = 0;
    int m_pending = 0;
};

} // namespace facet

Q_DECLARE_METATYPE(std::shared_ptr<const facet::Dataset>)
