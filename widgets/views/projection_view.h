// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "data/dataset_source.h"
#include "data/new_sample.h"
#include "experiment/projection.h"

#include <QFutureWatcher>
#include <QWidget>

#include <memory>
#include <optional>

class QLabel;
class QPushButton;

namespace facet {

class ImageGrid;

// Out-of-sample projection (issue 5, item 9): an image from outside the dataset, prepared like
// the dataset, expressed in the current factorization's basis with the basis fixed
// (experiment/projection.h). Shows the prepared image, its reconstruction and residual, its
// largest coefficients as basis thumbnails, and the nearest cluster with some of its members.
// Decoding, face detection and the projection run on the thread pool.
class ProjectionView : public QWidget {
    Q_OBJECT

public:
    static constexpr int kTopCoefficients = 8;
    static constexpr int kClusterMembers = 8;

    explicit ProjectionView(QWidget* parent = nullptr);
    ~ProjectionView() override;

    // The factorization new images are projected into (null data: none; the view then explains
    // what it needs).
    void setContext(std::shared_ptr<const Dataset> data, const DatasetRequest& request,
        std::shared_ptr<const RunResult> result, const RunOptions& options);
    void clear();
    // Starts the projection of an image file; projected() or failed() answers.
    void projectFile(const QString& path);
    bool isBusy() const { return m_watcher.isRunning(); }
    bool hasContext() const { return m_data && m_result; }

    const std::optional<Projection>& projection() const { return m_projection; }
    ImageGrid* grid() const { return m_grid; }
    QLabel* summaryLabel() const { return m_summary; }

Q_SIGNALS:
    void projected(const QString& path);
    void failed(const QString& message);

private:
    struct Outcome {
        QString path;
        QString error;
        NewSample sample;
        Projection projection;
    };
    void onFinished();
    void showOutcome(const Outcome& outcome);
    void chooseFile();

    std::shared_ptr<const Dataset> m_data;
    DatasetRequest m_request;
    std::shared_ptr<const RunResult> m_result;
    RunOptions m_options;
    std::optional<Projection> m_projection;
    quint64 m_generation = 0; // of the context; answers for an older one are dropped
    quint64 m_pendingGeneration = 0;
    QFutureWatcher<Outcome> m_watcher;

    QLabel* m_summary;
    QPushButton* m_open;
    ImageGrid* m_grid;
};

} // namespace facet
