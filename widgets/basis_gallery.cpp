// SPDX-License-Identifier: GPL-3.0-or-later
#include "basis_gallery.h"

#include "color_bar.h"
#include "image_grid.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QResizeEvent>
#include <QScrollArea>
#include <QSignalBlocker>
#include <QSlider>
#include <QToolButton>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>

namespace facet {

namespace {

// Zooms Fit tries, largest first: whole multiples keep every image pixel the same size on screen.
constexpr int kFitZooms[] = { 400, 300, 200, 150, 100, 75, 50, 33, 25 };
// When even the smallest zoom needs scrolling, tiles of about this size are still legible.
constexpr int kScrollingTilePixels = 64;

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

QString number(double value)
{
    return QString::number(value, 'g', 3);
}

} // namespace

BasisGallery::BasisGallery(QWidget* parent)
    : QWidget(parent)
    , m_scaleCombo(new QComboBox(this))
    , m_zoomSlider(new QSlider(Qt::Horizontal, this))
    , m_zoomLabel(new QLabel(this))
    , m_fitButton(new QToolButton(this))
    , m_scroll(new QScrollArea(this))
    , m_grid(new ImageGrid)
    , m_colorBar(new ColorBar(this))
{
    m_scaleCombo->setObjectName(QStringLiteral("basisScaleCombo"));
    m_scaleCombo->addItem(tr("Per image"), int(Scale::PerImage));
    m_scaleCombo->addItem(tr("Shared range"), int(Scale::Shared));
    m_scaleCombo->addItem(tr("Signed"), int(Scale::Signed));
    m_scaleCombo->setToolTip(tr("Per image: each image from its own minimum to maximum.\n"
                                "Shared range: one range for all images, so strengths compare.\n"
                                "Signed: blue below zero, red above, white at zero."));

    m_zoomSlider->setObjectName(QStringLiteral("basisZoomSlider"));
    m_zoomSlider->setRange(ImageGrid::kMinZoomPercent, ImageGrid::kMaxZoomPercent);
    m_zoomSlider->setValue(m_grid->zoomPercent());
    m_zoomSlider->setToolTip(tr("Zoom (Ctrl+wheel over the images)"));
    m_zoomLabel->setMinimumWidth(fontMetrics().horizontalAdvance(QStringLiteral("1600%")) + 4);
    m_zoomLabel->setText(tr("%1%").arg(m_grid->zoomPercent()));

    m_fitButton->setObjectName(QStringLiteral("basisFitButton"));
    m_fitButton->setText(tr("Fit"));
    m_fitButton->setToolTip(tr("Zoom so that all basis images are visible"));

    m_grid->setPlaceholderText(tr("Run a factorization to see its basis images."));
    m_scroll->setWidget(m_grid);
    m_scroll->setWidgetResizable(true);
    m_scroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    m_scroll->setFrameShape(QFrame::NoFrame);

    auto* tools = new QHBoxLayout;
    tools->addWidget(new QLabel(tr("Scale:"), this));
    tools->addWidget(m_scaleCombo);
    tools->addSpacing(12);
    tools->addWidget(new QLabel(tr("Zoom:"), this));
    tools->addWidget(m_zoomSlider, 1);
    tools->addWidget(m_zoomLabel);
    tools->addWidget(m_fitButton);

    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->addLayout(tools);
    layout->addWidget(m_scroll, 1);
    layout->addWidget(m_colorBar);

    connect(m_zoomSlider, &QSlider::valueChanged, this, [this](int value) {
        m_autoZoom = false;
        m_grid->setZoomPercent(value);
    });
    connect(m_grid, &ImageGrid::zoomChanged, this, [this](int percent) {
        const QSignalBlocker blocker(m_zoomSlider);
        m_zoomSlider->setValue(percent);
        m_zoomLabel->setText(tr("%1%").arg(percent));
        if (!m_fitting)
            m_autoZoom = false;
    });
    connect(m_fitButton, &QToolButton::clicked, this, [this] {
        m_autoZoom = true;
        fitZoom();
    });
    connect(m_scaleCombo, &QComboBox::currentIndexChanged, this, [this] { rebuild(); });
    updateColorBar();
}

void BasisGallery::setBasis(const Matrix& basis, int height, int width)
{
    m_basis = basis;
    m_height = height;
    m_width = width;
    m_min = basis.size() ? double(basis.minCoeff()) : 0.0;
    m_max = basis.size() ? double(basis.maxCoeff()) : 0.0;
    rebuild();
    fitZoom();
}

void BasisGallery::resizeEvent(QResizeEvent* event)
{
    QWidget::resizeEvent(event);
    fitZoom();
}

void BasisGallery::fitZoom()
{
    if (!m_autoZoom || m_grid->tileCount() == 0)
        return;
    const QSize area = m_scroll->viewport()->size();
    int chosen = 0;
    for (int percent : kFitZooms) {
        if (m_grid->contentHeight(area.width(), percent) <= area.height()) {
            chosen = percent;
            break;
        }
    }
    if (chosen == 0) {
        const int side = std::max(1, std::max(m_height, m_width));
        chosen = std::clamp(100 * kScrollingTilePixels / side, ImageGrid::kMinZoomPercent, 400);
    }
    m_fitting = true;
    m_grid->setZoomPercent(chosen);
    m_fitting = false;
}

void BasisGallery::clear()
{
    m_basis.resize(0, 0);
    m_height = m_width = 0;
    rebuild();
}

int BasisGallery::imageCount() const
{
    return m_grid->tileCount();
}

BasisGallery::Scale BasisGallery::scale() const
{
    return Scale(m_scaleCombo->currentData().toInt());
}

void BasisGallery::setScale(Scale scale)
{
    m_scaleCombo->setCurrentIndex(m_scaleCombo->findData(int(scale)));
}

int BasisGallery::zoomPercent() const
{
    return m_grid->zoomPercent();
}

void BasisGallery::setZoomPercent(int percent)
{
    m_grid->setZoomPercent(percent);
}

ImageScaling BasisGallery::exportScaling() const
{
    return scale() == Scale::Signed ? ImageScaling::Signed : ImageScaling::PerImage;
}

void BasisGallery::rebuild()
{
    updateColorBar();
    if (m_basis.size() == 0 || m_height * m_width != m_basis.rows()) {
        m_grid->clear();
        return;
    }
    ImageSection section;
    section.tiles.reserve(m_basis.cols());
    for (Eigen::Index j = 0; j < m_basis.cols(); ++j) {
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
        tile.caption = QString::number(j + 1);
        tile.toolTip = tr("Basis image %1: values %2 to %3")
                           .arg(j + 1)
                           .arg(number(column.minCoeff()), number(column.maxCoeff()));
        section.tiles.append(tile);
    }
    m_grid->setSections({ section });
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
            m_colorBar->setLabels(number(m_min), number(m_max), tr("one range for all images"));
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
