// SPDX-License-Identifier: GPL-3.0-or-later
#include "views/basis_samples_strip.h"

#include "common/image_grid.h"
#include "data/dataset.h"
#include "data/image_render.h"
#include "metrics/basis_usage.h"

#include <QHBoxLayout>
#include <QLabel>
#include <QStyle>
#include <QToolButton>
#include <QVBoxLayout>

#include <algorithm>
#include <stdexcept>

namespace facet {

namespace {
// Sample images are drawn about this many pixels on their long side: large enough to recognise a
// face, small enough that a dozen fit in one row beside the gallery's docks.
constexpr int kSampleTilePixels = 64;
} // namespace

BasisSamplesStrip::BasisSamplesStrip(QWidget* parent)
    : QFrame(parent)
    , m_title(new QLabel(this))
    , m_close(new QToolButton(this))
    , m_grid(new ImageGrid(this))
{
    setObjectName(QStringLiteral("basisSamplesStrip"));
    setFrameShape(QFrame::StyledPanel);
    m_title->setObjectName(QStringLiteral("basisSamplesTitle"));
    m_title->setTextFormat(Qt::PlainText);
    m_close->setObjectName(QStringLiteral("basisSamplesClose"));
    m_close->setIcon(style()->standardIcon(QStyle::SP_TitleBarCloseButton));
    m_close->setAutoRaise(true);
    m_close->setToolTip(tr("Hide the samples (Esc)"));
    m_grid->setObjectName(QStringLiteral("basisSamplesGrid"));

    auto* header = new QHBoxLayout;
    header->addWidget(m_title, 1);
    header->addWidget(m_close);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 2, 4, 2);
    layout->setSpacing(0);
    layout->addLayout(header);
    layout->addWidget(m_grid);

    connect(m_close, &QToolButton::clicked, this, &BasisSamplesStrip::closeRequested);
}

void BasisSamplesStrip::showSamples(const Dataset& samples, const Matrix& V, int j, int count)
{
    if (V.rows() != samples.samples() || samples.height * samples.width != samples.features())
        throw std::invalid_argument("the coefficients do not belong to this dataset");
    m_part = j;
    m_samples = strongestSamples(V, j, count);
    const bool signedV = V.size() && V.minCoeff() < 0;
    m_title->setText(signedV ? tr("Basis %1: the %2 samples with the largest |V(i, %1)|")
                                   .arg(j + 1)
                                   .arg(m_samples.size())
                             : tr("Basis %1: the %2 samples with the largest V(i, %1)")
                                   .arg(j + 1)
                                   .arg(m_samples.size()));

    ImageSection section;
    for (int i : m_samples) {
        ImageTile tile;
        tile.image = columnToImage(samples.X.col(i), samples.height, samples.width);
        const double value = double(V(i, j));
        tile.caption = QString::number(value, 'g', 3);
        const QString className = samples.hasLabels()
            ? samples.classNames.value(samples.labels[std::size_t(i)])
            : QString();
        tile.toolTip = className.isEmpty()
            ? tr("Sample %1: V(%1, %2) = %3").arg(i + 1).arg(j + 1).arg(value, 0, 'g', 4)
            : tr("Sample %1 (class %4): V(%1, %2) = %3")
                  .arg(i + 1)
                  .arg(j + 1)
                  .arg(value, 0, 'g', 4)
                  .arg(className);
        section.tiles.append(tile);
    }
    const int side = std::max(1, std::max(samples.height, samples.width));
    m_grid->setZoomPercent(std::clamp(
        100 * kSampleTilePixels / side, ImageGrid::kMinZoomPercent, ImageGrid::kMaxZoomPercent));
    m_grid->setSections({ section });
}

void BasisSamplesStrip::clear()
{
    m_part = -1;
    m_samples.clear();
    m_title->clear();
    m_grid->clear();
}

} // namespace facet
