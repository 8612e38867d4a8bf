// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "data/dataset.h"
#include "experiment/run.h"

#include <QWidget>

class QLabel;
class QScrollArea;

namespace facet {

class ImageGrid;

// The samples grouped by predicted cluster, one titled section per cluster with thumbnails, and
// the scores (AC, NMI) on top. When the data has labels each section names its majority class
// and frames the samples of other classes, so a confusion is visible at a glance.
class ClusterView : public QWidget {
    Q_OBJECT

public:
    // A cluster of MNIST holds thousands of samples; past this many the section says how many
    // more there are instead of painting them all.
    static constexpr int kMaxThumbnailsPerCluster = 60;

    explicit ClusterView(QWidget* parent = nullptr);

    void setResult(const Dataset& dataset, const RunResult& result);
    void clear();

    int clusterCount() const;
    int thumbnailCount() const;
    QString scoreText() const;
    ImageGrid* grid() const { return m_grid; }

private:
    QLabel* m_scores = nullptr;
    QScrollArea* m_scroll = nullptr;
    ImageGrid* m_grid = nullptr;
    bool m_autoZoom = true; // until the user zooms, thumbnails get a size that fits the dataset
    bool m_settingZoom = false;
};

} // namespace facet
