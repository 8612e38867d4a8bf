// SPDX-License-Identifier: GPL-3.0-or-later
// The basis gallery's tiles: each basis column as an upright grey image under the chosen scale,
// captioned with its share of the total weight, in weight or index order; and the colour bar
// that says how values became grey levels.
#include "views/basis_gallery.h"

#include "common/color_bar.h"
#include "common/image_grid.h"
#include "metrics/basis_usage.h"

#include <algorithm>
#include <cmath>
#include <numeric>

namespace facet {

namespace {

// A shared range for all images: columnToImage() only scales per image or per sign, and the
// gallery's point in Shared mode is one fixed range across the set.
QImage sharedScaleImage(
    const Eigen::Ref<const Vector>& column, int height, int width, double low, double high)
{
    QImage image(width, height, QImage::Format_Grayscale8);
    const double span = high > low ? high - low : 1.0;
    for (int r = 0; r < height; ++r) {
        uchar* line = image.scanLine(r);
        for (int c = 0; c < width; ++c) {
            const double t = (double(column[r * width + c]) - low) / span;
            line[c] = uchar(std::lround(255.0 * std::clamp(t, 0.0, 1.0)));
        }
    }
    return image;
}

QString shortNumber(double value)
{
    return QString::number(value, 'g', 3);
}

// A share in sharePercent with two significant digits: "18%", "4.2%", "0.31%".
QString sharePercent(double share)
{
    if (share >= 10)
        return QString::number(share, 'f', 0);
    if (share >= 1)
        return QString::number(share, 'f', 1);
    return QString::number(share, 'g', 2);
}

} // namespace

ImageTile BasisGallery::tileFor(int j) const
{
    const auto column = m_basis.col(j);
    ImageTile tile;
    switch (scale()) {
    case Scale::PerImage:
        tile.image = columnToImage(column, m_height, m_width, ImageScaling::PerImage);
        break;
    case Scale::Shared:
        tile.image = sharedScaleImage(column, m_height, m_width, m_min, m_max);
        break;
    case Scale::Signed:
        tile.image = columnToImage(column, m_height, m_width, ImageScaling::Signed);
        break;
    }
    tile.toolTip = tr("Basis image %1: values %2 to %3")
                       .arg(j + 1)
                       .arg(shortNumber(column.minCoeff()), shortNumber(column.maxCoeff()));
    if (m_weights.empty()) {
        tile.caption = QString::number(j + 1);
        return tile;
    }
    // The caption shows the share of the total weight: the raw weight depends on the data's
    // scale, the share reads the same for every dataset.
    const double total = std::accumulate(m_weights.begin(), m_weights.end(), 0.0);
    const double weight = m_weights[std::size_t(j)];
    const QString share = total > 0 ? sharePercent(100.0 * weight / total) : QStringLiteral("0");
    tile.caption = tr("%1 \u00b7 %2%").arg(j + 1).arg(share);
    tile.toolTip += tr("\nWeight ||u_%1||_2 ||v_%1||_1 = %2, %3% of the total")
                        .arg(j + 1)
                        .arg(shortNumber(weight), share);
    if (m_data)
        tile.toolTip += tr("\nClick to see the samples that use it most.");
    return tile;
}

void BasisGallery::rebuild()
{
    updateColorBar();
    if (m_basis.size() == 0 || m_height * m_width != m_basis.rows()) {
        m_order.clear();
        m_grid->clear();
        return;
    }
    if (order() == Order::Weight && !m_weights.empty()) {
        m_order = orderByWeight(m_weights);
    } else {
        m_order.resize(std::size_t(m_basis.cols()));
        std::iota(m_order.begin(), m_order.end(), 0);
    }
    ImageSection section;
    section.tiles.reserve(qsizetype(m_order.size()));
    for (int j : m_order)
        section.tiles.append(tileFor(j));
    m_grid->setSections({ section });
    if (m_active >= 0) {
        const auto at = std::find(m_order.begin(), m_order.end(), m_active);
        m_grid->setSelectedTile({ 0, int(at - m_order.begin()) });
    }
}

void BasisGallery::updateColorBar()
{
    switch (scale()) {
    case Scale::PerImage:
        m_colorBar->setStops({ { 0.0, Qt::black }, { 1.0, Qt::white } });
        m_colorBar->setLabels(tr("image min"), tr("image max"), tr("each image on its own range"));
        break;
    case Scale::Shared:
        m_colorBar->setStops({ { 0.0, Qt::black }, { 1.0, Qt::white } });
        if (m_basis.size())
            m_colorBar->setLabels(
                shortNumber(m_min), shortNumber(m_max), tr("one range for all images"));
        else
            m_colorBar->setLabels(tr("min"), tr("max"), tr("one range for all images"));
        break;
    case Scale::Signed:
        m_colorBar->setStops(
            { { 0.0, QColor(33, 102, 172) }, { 0.5, Qt::white }, { 1.0, QColor(178, 24, 43) } });
        m_colorBar->setLabels(tr("-|max|"), tr("+|max|"), tr("0 is white, per image"));
        break;
    }
}

} // namespace facet
