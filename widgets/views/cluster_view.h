// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "data/dataset.h"
#include "experiment/run.h"

#include <QWidget>

#include <vector>

class QLabel;
class QScrollArea;
class QTabWidget;

namespace facet {

class ConfusionHeatmap;
class ImageGrid;

// What a cluster holds, from its samples' counts per class, for the Clusters headings and the
// Projection (one rule for both): "mostly class 3 (8 of 10)" when one class has more than half,
// "largest: class 3 (4 of 10)" when one class has the most but not half, "tied: classes 1 and 16
// (6 of 12 each)" when two or three tie for the most, "no class holds more than 1 of 13" when
// more do.
QString clusterComposition(const std::vector<int>& classCounts, const QStringList& classNames);

// The samples grouped by predicted cluster, one titled section per cluster with thumbnails, and
// the scores (AC, NMI) on top. When the data has labels each section names its majority class
// and frames the samples of other classes, so a confusion is visible at a glance. A second tab
// holds the confusion matrix (classes x clusters in the order of AC's matching).
class ClusterView : public QWidget {
    Q_OBJECT

public:
    // A cluster of MNIST holds thousands of samples; past this many the section says how many
    // more there are instead of painting them all.
    static constexpr int kMaxThumbnailsPerCluster = 60;

    explicit ClusterView(QWidget* parent = nullptr);

    void setResult(const Dataset& dataset, const RunResult& result);
    void clear();
    // While a newer run computes, the clusters shown are the previous run's: `text` says so above
    // them (empty: no note).
    void setNewerRunNote(const QString& text);
    QString newerRunNote() const;

    int clusterCount() const;
    int thumbnailCount() const;
    QString scoreText() const;
    ImageGrid* grid() const { return m_grid; }
    ConfusionHeatmap* confusion() const { return m_confusion; }
    QTabWidget* tabs() const { return m_tabs; }
    // The sample shown at a thumbnail (section = cluster), or -1.
    int sampleAt(int section, int index) const;

Q_SIGNALS:
    // A click on a sample's thumbnail, so another view can show it.
    void sampleActivated(int sample);

private:
    QLabel* m_newerRun = nullptr;
    QLabel* m_scores = nullptr;
    QTabWidget* m_tabs = nullptr;
    QScrollArea* m_scroll = nullptr;
    ImageGrid* m_grid = nullptr;
    ConfusionHeatmap* m_confusion = nullptr;
    std::vector<std::vector<int>> m_shown; // per cluster, the samples of its thumbnails
    bool m_autoZoom = true; // until the user zooms, thumbnails get a size that fits the dataset
    bool m_settingZoom = false;
};

} // namespace facet
