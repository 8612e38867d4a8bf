// SPDX-License-Identifier: GPL-3.0-or-later
#include "views/cluster_view.h"

#include "common/class_colors.h"

#include "common/image_grid.h"
#include "data/image_render.h"
#include "views/confusion_heatmap.h"

#include <QLabel>
#include <QScrollArea>
#include <QTabWidget>
#include <QVBoxLayout>

#include <algorithm>
#include <vector>

namespace facet {

namespace {

// Thumbnails of about this many screen pixels across keep a row of a 40-class set readable.
constexpr int kThumbnailPixels = 48;

} // namespace

QString clusterComposition(const std::vector<int>& classCounts, const QStringList& classNames)
{
    const auto name = [&](int label) {
        return label >= 0 && label < classNames.size() ? classNames[label]
                                                       : QString::number(label + 1);
    };
    int total = 0;
    for (int n : classCounts)
        total += n;
    if (classCounts.empty() || total == 0)
        return {};
    const auto most = std::max_element(classCounts.begin(), classCounts.end());
    const int top = *most;
    const int label = int(most - classCounts.begin());
    if (2 * top > total)
        return ClusterView::tr("mostly class %1 (%2 of %3)").arg(name(label)).arg(top).arg(total);
    const auto tied = std::count(classCounts.begin(), classCounts.end(), top);
    if (tied == 1)
        return ClusterView::tr("largest: class %1 (%2 of %3)").arg(name(label)).arg(top).arg(total);
    if (tied > 3)
        return ClusterView::tr("no class holds more than %1 of %2").arg(top).arg(total);
    QStringList names;
    for (std::size_t c = 0; c < classCounts.size(); ++c)
        if (classCounts[c] == top)
            names << name(int(c));
    const QString last = names.takeLast();
    return ClusterView::tr("tied: classes %1 and %2 (%3 of %4 each)")
        .arg(names.join(QStringLiteral(", ")), last)
        .arg(top)
        .arg(total);
}

ClusterView::ClusterView(QWidget* parent)
    : QWidget(parent)
    , m_newerRun(new QLabel(this))
    , m_scores(new QLabel(this))
    , m_tabs(new QTabWidget(this))
    , m_scroll(new QScrollArea)
    , m_grid(new ImageGrid)
    , m_confusion(new ConfusionHeatmap)
{
    m_scores->setObjectName(QStringLiteral("clusterScores"));
    m_scores->setWordWrap(true);
    m_scores->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_grid->setPlaceholderText(tr("The samples, grouped by cluster, appear after a run."));
    m_scroll->setWidget(m_grid);
    m_scroll->setWidgetResizable(true);
    m_scroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    m_scroll->setFrameShape(QFrame::NoFrame);

    m_newerRun->setObjectName(QStringLiteral("clusterNewerRunNote"));
    m_newerRun->setWordWrap(true);
    m_newerRun->setStyleSheet(QStringLiteral(
        "QLabel { background: #fff4ce; color: #5c4400; border-radius: 3px; padding: 3px 6px; }"));
    m_newerRun->hide();

    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->addWidget(m_newerRun);
    layout->addWidget(m_scores);
    m_tabs->setObjectName(QStringLiteral("clusterTabs"));
    m_tabs->setDocumentMode(true);
    m_tabs->addTab(m_scroll, tr("Images"));
    m_tabs->addTab(m_confusion, tr("Confusion"));
    layout->addWidget(m_tabs, 1);
    connect(m_grid, &ImageGrid::tileClicked, this, [this](int section, int index) {
        if (const int sample = sampleAt(section, index); sample >= 0)
            Q_EMIT sampleActivated(sample);
    });
    connect(m_grid, &ImageGrid::zoomChanged, this, [this] {
        if (!m_settingZoom)
            m_autoZoom = false;
    });
    clear();
}

void ClusterView::setNewerRunNote(const QString& text)
{
    m_newerRun->setText(text);
    m_newerRun->setVisible(!text.isEmpty());
}

QString ClusterView::newerRunNote() const
{
    return m_newerRun->text();
}

void ClusterView::clear()
{
    setNewerRunNote({});
    m_scores->setText(tr("No clustering yet."));
    m_grid->clear();
    m_shown.clear();
    m_confusion->clear();
}

void ClusterView::setResult(const Dataset& dataset, const RunResult& result)
{
    const int clusters = result.clusters;
    if (int(result.predicted.size()) != dataset.samples() || clusters <= 0) {
        clear();
        return;
    }
    if (result.ac && result.nmi)
        m_scores->setText(tr("<b>AC %1</b> &nbsp; <b>NMI %2</b> &nbsp; %3 clusters of %4 samples, "
                             "%5 classes. Framed in their true class's colour: samples outside "
                             "their cluster's majority class.")
                              .arg(*result.ac, 0, 'f', 3)
                              .arg(*result.nmi, 0, 'f', 3)
                              .arg(clusters)
                              .arg(dataset.samples())
                              .arg(dataset.classCount()));
    else
        m_scores->setText(tr("<b>No labels</b>: AC and NMI need the true classes. "
                             "%1 clusters of %2 samples.")
                              .arg(clusters)
                              .arg(dataset.samples()));

    std::vector<std::vector<int>> members(static_cast<std::size_t>(clusters));
    for (int i = 0; i < int(result.predicted.size()); ++i) {
        const int cluster = result.predicted[std::size_t(i)];
        if (cluster >= 0 && cluster < clusters)
            members[std::size_t(cluster)].push_back(i);
    }

    if (m_autoZoom && dataset.height > 0 && dataset.width > 0) {
        m_settingZoom = true;
        m_grid->setZoomPercent(100 * kThumbnailPixels / std::max(dataset.height, dataset.width));
        m_settingZoom = false;
    }
    QList<ImageSection> sections;
    m_shown.clear();
    sections.reserve(clusters);
    for (int c = 0; c < clusters; ++c) {
        const std::vector<int>& samples = members[std::size_t(c)];
        ImageSection section;
        int majority = -1;
        std::vector<int> counts;
        if (dataset.hasLabels() && !samples.empty()) {
            counts.assign(std::size_t(std::max(1, dataset.classCount())), 0);
            for (int i : samples) {
                const int label = dataset.labels[std::size_t(i)];
                if (label >= 0 && label < int(counts.size()))
                    ++counts[std::size_t(label)];
            }
            majority = int(std::max_element(counts.begin(), counts.end()) - counts.begin());
        }
        section.title = majority >= 0
            ? tr("Cluster %1 — %2 samples, %3")
                  .arg(c + 1)
                  .arg(samples.size())
                  .arg(clusterComposition(counts, dataset.classNames))
            : tr("Cluster %1 — %2 samples").arg(c + 1).arg(samples.size());
        const int shown = std::min(int(samples.size()), kMaxThumbnailsPerCluster);
        m_shown.emplace_back(samples.begin(), samples.begin() + shown);
        if (shown < int(samples.size()))
            section.title += tr(" (first %1 shown)").arg(shown);
        section.tiles.reserve(shown);
        for (int s = 0; s < shown; ++s) {
            const int i = samples[std::size_t(s)];
            ImageTile tile;
            tile.image = columnToImage(
                dataset.X.col(i), dataset.height, dataset.width, ImageScaling::PerImage);
            if (dataset.hasLabels()) {
                const int label = dataset.labels[std::size_t(i)];
                tile.flagged = label != majority;
                // The true class's colour, as in the representation view's scatter.
                tile.frameColor = classColor(label, dataset.classCount());
                tile.toolTip = tr("Sample %1, class %2").arg(i + 1).arg(dataset.className(label));
            } else {
                tile.toolTip = tr("Sample %1").arg(i + 1);
            }
            section.tiles.append(tile);
        }
        sections.append(section);
    }
    m_grid->setSections(sections);
    m_confusion->setResult(dataset, result);
}

int ClusterView::sampleAt(int section, int index) const
{
    if (section < 0 || section >= int(m_shown.size()) || index < 0
        || index >= int(m_shown[std::size_t(section)].size()))
        return -1;
    return m_shown[std::size_t(section)][std::size_t(index)];
}

int ClusterView::clusterCount() const
{
    return int(m_grid->sections().size());
}

int ClusterView::thumbnailCount() const
{
    return m_grid->tileCount();
}

QString ClusterView::scoreText() const
{
    return m_scores->text();
}

} // namespace facet
