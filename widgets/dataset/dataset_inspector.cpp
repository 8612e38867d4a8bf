// SPDX-License-Identifier: GPL-3.0-or-later
#include "dataset/dataset_inspector.h"

#include "common/image_grid.h"
#include "data/image_render.h"

#include <QComboBox>
#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QListWidget>
#include <QPlainTextEdit>
#include <QScrollArea>
#include <QTextDocument>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>

namespace facet {

namespace {

constexpr int kTileSide = 64; // thumbnails are zoomed to about this many pixels

bool isImageData(const Dataset& data)
{
    return data.height > 1 && data.width > 0
        && Eigen::Index(data.height) * data.width == data.features();
}

QString statNumber(double value)
{
    return QString::number(value, 'g', 4);
}

QLabel* valueLabel()
{
    auto* label = new QLabel;
    label->setWordWrap(true);
    label->setTextInteractionFlags(Qt::TextSelectableByMouse);
    return label;
}

} // namespace

DatasetInspector::DatasetInspector(QWidget* parent)
    : QWidget(parent)
    , m_name(valueLabel())
    , m_source(valueLabel())
    , m_images(valueLabel())
    , m_classes(valueLabel())
    , m_values(valueLabel())
    , m_steps(valueLabel())
    , m_pixelOrderLabel(new QLabel(tr("&Pixel order:")))
    , m_pixelOrder(new QComboBox)
    , m_notes(new QPlainTextEdit)
    , m_noFaceGroup(new QGroupBox)
    , m_noFaceList(new QListWidget)
    , m_noFace(new QComboBox)
    , m_scroll(new QScrollArea)
    , m_grid(new ImageGrid)
{
    setObjectName(QStringLiteral("datasetInspector"));
    m_pixelOrder->addItem(tr("Auto"), int(PixelOrder::Auto));
    m_pixelOrder->addItem(tr("Column-major (MATLAB)"), int(PixelOrder::ColumnMajor));
    m_pixelOrder->addItem(tr("Row-major (C, Python)"), int(PixelOrder::RowMajor));
    m_pixelOrder->setToolTip(tr("How each row of the file holds its image. If the thumbnails "
                                "look transposed, pick the other order: the file is reloaded."));
    m_pixelOrderLabel->setBuddy(m_pixelOrder);
    m_noFace->addItem(tr("Keep them, centre crop"), int(NoFacePolicy::CenterCrop));
    m_noFace->addItem(tr("Skip them"), int(NoFacePolicy::Skip));
    m_notes->setReadOnly(true);
    m_notes->setLineWrapMode(QPlainTextEdit::WidgetWidth);
    // Four whole lines: a half-cut fifth line reads as clipped text rather than as more to scroll.
    m_notes->setFixedHeight(m_notes->fontMetrics().height() * 4
        + int(m_notes->document()->documentMargin()) + 2 * m_notes->frameWidth());
    m_noFaceList->setMaximumHeight(m_noFaceList->fontMetrics().lineSpacing() * 5 + 8);

    auto* form = new QFormLayout;
    form->setFieldGrowthPolicy(QFormLayout::AllNonFixedFieldsGrow);
    form->setLabelAlignment(Qt::AlignRight | Qt::AlignTop);
    form->addRow(tr("Name:"), m_name);
    form->addRow(tr("Source:"), m_source);
    form->addRow(tr("Images:"), m_images);
    form->addRow(tr("Classes:"), m_classes);
    form->addRow(tr("Values:"), m_values);
    form->addRow(tr("Steps:"), m_steps);
    form->addRow(m_pixelOrderLabel, m_pixelOrder);

    auto* noFaceLayout = new QVBoxLayout(m_noFaceGroup);
    noFaceLayout->addWidget(m_noFaceList);
    auto* noFaceRow = new QHBoxLayout;
    auto* noFaceLabel = new QLabel(tr("&These images:"));
    noFaceLabel->setBuddy(m_noFace);
    noFaceRow->addWidget(noFaceLabel);
    noFaceRow->addWidget(m_noFace, 1);
    noFaceLayout->addLayout(noFaceRow);
    m_noFaceGroup->hide();

    m_grid->setPlaceholderText(tr("Open a dataset to see its images by class."));
    m_scroll->setWidget(m_grid);
    m_scroll->setWidgetResizable(true);
    m_scroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    m_scroll->setFrameShape(QFrame::NoFrame);

    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(6, 6, 6, 0);
    layout->addLayout(form);
    layout->addWidget(m_notes);
    layout->addWidget(m_noFaceGroup);
    layout->addWidget(m_scroll, 1);

    connect(m_pixelOrder, &QComboBox::activated, this, [this] {
        const auto order = PixelOrder(m_pixelOrder->currentData().toInt());
        if (m_opened.data && order != m_opened.request.mat.pixelOrder)
            Q_EMIT pixelOrderRequested(order);
    });
    connect(m_noFace, &QComboBox::activated, this, [this] {
        const auto policy = NoFacePolicy(m_noFace->currentData().toInt());
        if (m_opened.data && policy != m_opened.request.preprocess.noFace)
            Q_EMIT noFacePolicyRequested(policy);
    });
    clear();
}

void DatasetInspector::clear()
{
    m_opened = {};
    m_classCounts.clear();
    for (QLabel* label : { m_name, m_source, m_images, m_classes, m_values, m_steps })
        label->setText(QStringLiteral("—"));
    m_notes->clear();
    m_pixelOrderLabel->hide();
    m_pixelOrder->hide();
    m_noFaceGroup->hide();
    m_grid->clear();
}

void DatasetInspector::revertChoices()
{
    m_pixelOrder->setCurrentIndex(m_pixelOrder->findData(int(m_opened.request.mat.pixelOrder)));
    m_noFace->setCurrentIndex(m_noFace->findData(int(m_opened.request.preprocess.noFace)));
}

QString DatasetInspector::classesText() const
{
    return m_classes->text();
}

void DatasetInspector::setDataset(const OpenedDataset& opened)
{
    if (!opened.data) {
        clear();
        return;
    }
    m_opened = opened;
    const Dataset& set = *opened.data;
    m_name->setText(set.name);
    m_source->setText(set.source);
    m_source->setToolTip(set.source);
    m_images->setText(isImageData(set)
            ? tr("%1 of %2×%3 pixels (m = %4)")
                  .arg(set.samples())
                  .arg(set.height)
                  .arg(set.width)
                  .arg(set.features())
            : tr("%1 samples of %2 features (not images)").arg(set.samples()).arg(set.features()));

    m_classCounts.clear();
    if (set.hasLabels()) {
        const std::vector<int> sizes = set.classSizes();
        for (std::size_t c = 0; c < sizes.size(); ++c)
            m_classCounts.append({ set.classNames.value(int(c)), sizes[c] });
        const auto [smallest, largest] = std::minmax_element(sizes.begin(), sizes.end());
        m_classes->setText(sizes.empty() ? tr("none")
                : *smallest == *largest
                ? tr("%1, %2 images each").arg(sizes.size()).arg(*smallest)
                : tr("%1, %2 to %3 images").arg(sizes.size()).arg(*smallest).arg(*largest));
    } else {
        m_classCounts.append({ tr("All images"), int(set.samples()) });
        m_classes->setText(tr("none (unlabelled)"));
    }

    if (set.X.size() > 0)
        m_values->setText(
            tr("%1 .. %2")
                .arg(statNumber(double(set.X.minCoeff())), statNumber(double(set.X.maxCoeff()))));
    else
        m_values->setText(tr("empty"));
    QStringList steps;
    const PreprocessSettings& s = opened.request.preprocess;
    if (s != PreprocessSettings {})
        steps << describePreprocess(s);
    if (opened.request.prepare.scaleTo01)
        steps << tr("scaled to [0, 1]");
    if (opened.request.prepare.l2Normalize)
        steps << tr("unit L2 norm");
    m_steps->setText(steps.isEmpty() ? tr("none") : steps.join(QStringLiteral(", ")));
    m_notes->setPlainText(set.notes.join(QLatin1Char('\n')));

    const bool mat = datasetKind(opened.request.spec) == DatasetKind::MatFile;
    m_pixelOrderLabel->setVisible(mat);
    m_pixelOrder->setVisible(mat);

    m_noFaceList->clear();
    m_noFaceList->addItems(opened.noFace);
    m_noFaceGroup->setTitle(tr("No face found in %1 of the images").arg(opened.noFace.size()));
    m_noFaceGroup->setVisible(!opened.noFace.isEmpty());
    revertChoices();
    showThumbnails(set);
}

void DatasetInspector::showThumbnails(const Dataset& set)
{
    if (!isImageData(set)) {
        m_grid->clear();
        m_grid->setPlaceholderText(
            tr("The samples are %1-feature vectors, not images.").arg(set.features()));
        return;
    }
    // The samples of each class in file order (one group when unlabelled).
    std::vector<std::vector<Eigen::Index>> members(std::size_t(m_classCounts.size()));
    for (Eigen::Index j = 0; j < set.samples(); ++j) {
        const std::size_t group = set.hasLabels() ? std::size_t(set.labels[std::size_t(j)]) : 0;
        if (group < members.size() && int(members[group].size()) < kMaxPerClass)
            members[group].push_back(j);
    }
    QList<ImageSection> sections;
    int tiles = 0;
    for (std::size_t c = 0; c < members.size() && tiles < kMaxTiles; ++c) {
        const auto& [name, count] = m_classCounts[qsizetype(c)];
        ImageSection section;
        const QString images = count == 1 ? tr("1 image") : tr("%1 images").arg(count);
        section.title = set.hasLabels() ? tr("%1 · %2").arg(name, images) : images;
        for (Eigen::Index j : members[c]) {
            if (tiles++ >= kMaxTiles)
                break;
            ImageTile tile;
            tile.image = columnToImage(set.X.col(j), set.height, set.width);
            tile.toolTip = set.hasLabels() ? tr("Sample %1, class %2").arg(j + 1).arg(name)
                                           : tr("Sample %1").arg(j + 1);
            section.tiles.append(tile);
        }
        if (section.tiles.size() < count)
            section.title += tr(" (first %1 shown)").arg(section.tiles.size());
        sections.append(section);
    }
    const int side = std::max(set.height, set.width);
    m_grid->setZoomPercent(int(std::lround(100.0 * kTileSide / side)));
    m_grid->setSections(sections);
}

} // namespace facet
