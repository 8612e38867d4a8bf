// SPDX-License-Identifier: GPL-3.0-or-later
// The basis gallery's tools and behaviour: order, scale and zoom (Fit follows the window until the
// user zooms), a clicked image's samples strip, and Esc. How a basis column becomes a tile, and
// the colour bar that goes with the scale, are in basis_gallery_tiles.cpp.
#include "views/basis_gallery.h"

#include "common/color_bar.h"
#include "common/image_grid.h"
#include "data/dataset.h"
#include "metrics/basis_usage.h"
#include "views/basis_samples_strip.h"

#include <QComboBox>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QKeyEvent>
#include <QLabel>
#include <QResizeEvent>
#include <QScrollArea>
#include <QSignalBlocker>
#include <QSlider>
#include <QToolButton>
#include <QVBoxLayout>

#include <algorithm>

namespace facet {

namespace {

// Zooms Fit tries, largest first: whole multiples keep every image pixel the same size on screen.
constexpr int kFitZooms[] = { 400, 300, 200, 150, 100, 75, 50, 33, 25 };
// When even the smallest zoom needs scrolling, tiles of about this size are still legible.
constexpr int kScrollingTilePixels = 64;
constexpr int kMinFitTilePixels = 24;

} // namespace

BasisGallery::BasisGallery(QWidget* parent)
    : QWidget(parent)
    , m_scaleCombo(new QComboBox(this))
    , m_orderCombo(new QComboBox(this))
    , m_zoomSlider(new QSlider(Qt::Horizontal, this))
    , m_zoomLabel(new QLabel(this))
    , m_fitButton(new QToolButton(this))
    , m_scroll(new QScrollArea(this))
    , m_grid(new ImageGrid)
    , m_strip(new BasisSamplesStrip(this))
    , m_colorBar(new ColorBar(this))
{
    m_scaleCombo->setObjectName(QStringLiteral("basisScaleCombo"));
    m_scaleCombo->addItem(tr("Per image"), int(Scale::PerImage));
    m_scaleCombo->addItem(tr("Shared range"), int(Scale::Shared));
    m_scaleCombo->addItem(tr("Signed"), int(Scale::Signed));
    m_scaleCombo->setToolTip(tr("Per image: each image from its own minimum to maximum.\n"
                                "Shared range: one range for all images, so strengths compare.\n"
                                "Signed: blue below zero, red above, white at zero (chosen by "
                                "itself when the basis has negative entries)."));

    m_orderCombo->setObjectName(QStringLiteral("basisOrderCombo"));
    m_orderCombo->addItem(tr("Weight"), int(Order::Weight));
    m_orderCombo->addItem(tr("Index"), int(Order::Index));
    m_orderCombo->setToolTip(tr("Weight: the most used parts first, by ||u_j||_2 * ||v_j||_1,\n"
                                "the size of part j's contribution summed over the samples.\n"
                                "Index: the solver's order."));

    m_zoomSlider->setObjectName(QStringLiteral("basisZoomSlider"));
    m_zoomSlider->setRange(ImageGrid::kMinZoomPercent, ImageGrid::kMaxZoomPercent);
    m_zoomSlider->setValue(m_grid->zoomPercent());
    m_zoomSlider->setToolTip(tr("Zoom (Ctrl+wheel over the images)"));
    // A toolbar squeezed by the docks would otherwise shrink it to a handle with no groove.
    m_zoomSlider->setMinimumWidth(90);
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
    // The viewport shrinks when the sample strip opens; Fit follows it, not only the window.
    m_scroll->viewport()->installEventFilter(this);
    m_strip->hide();

    // The tools in two groups, side by side, or the zoom under the others when the gallery is
    // narrower than one row (placeTools): one row held the main window at 540 px of gallery.
    m_viewTools = new QWidget(this);
    auto* view = new QHBoxLayout(m_viewTools);
    view->setContentsMargins(0, 0, 0, 0);
    view->addWidget(new QLabel(tr("Order:"), this));
    view->addWidget(m_orderCombo);
    view->addSpacing(12);
    view->addWidget(new QLabel(tr("Scale:"), this));
    view->addWidget(m_scaleCombo);
    view->addStretch(0);
    m_zoomTools = new QWidget(this);
    auto* zoom = new QHBoxLayout(m_zoomTools);
    zoom->setContentsMargins(0, 0, 0, 0);
    zoom->addWidget(new QLabel(tr("Zoom:"), this));
    zoom->addWidget(m_zoomSlider, 1);
    zoom->addWidget(m_zoomLabel);
    zoom->addWidget(m_fitButton);
    m_tools = new QGridLayout;
    m_tools->setHorizontalSpacing(12);
    m_tools->setVerticalSpacing(2);

    m_newerRun = new QLabel(this);
    m_newerRun->setObjectName(QStringLiteral("galleryNewerRunNote"));
    m_newerRun->setWordWrap(true);
    m_newerRun->setStyleSheet(QStringLiteral(
        "QLabel { background: #fff4ce; color: #5c4400; border-radius: 3px; padding: 3px 6px; }"));
    m_newerRun->hide();

    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->addLayout(m_tools);
    layout->addWidget(m_newerRun);
    layout->addWidget(m_scroll, 1);
    layout->addWidget(m_strip);
    layout->addWidget(m_colorBar);
    placeTools(true);
    // The width of the two-row arrangement: the layout would otherwise hold the gallery at the
    // width of one row.
    setMinimumWidth(std::max({ m_viewTools->minimumSizeHint().width(),
                        m_zoomTools->minimumSizeHint().width(), m_colorBar->minimumWidth() })
        + 8);

    connect(m_zoomSlider, &QSlider::valueChanged, this, [this](int value) {
        m_autoZoom = false;
        m_grid->setZoomPercent(value);
    });
    connect(m_grid, &ImageGrid::zoomChanged, this, [this](int sharePercent) {
        const QSignalBlocker blocker(m_zoomSlider);
        m_zoomSlider->setValue(sharePercent);
        m_zoomLabel->setText(tr("%1%").arg(sharePercent));
        if (!m_fitting)
            m_autoZoom = false;
    });
    connect(m_fitButton, &QToolButton::clicked, this, [this] {
        m_autoZoom = true;
        fitZoom();
    });
    connect(m_scaleCombo, &QComboBox::currentIndexChanged, this, [this] {
        if (!m_choosingScale)
            m_userScale = scale();
        rebuild();
    });
    connect(m_orderCombo, &QComboBox::currentIndexChanged, this, [this] { rebuild(); });
    connect(m_grid, &ImageGrid::tileClicked, this, [this](int, int index) {
        if (index >= 0 && index < int(m_order.size()))
            activateBasis(m_order[std::size_t(index)]);
    });
    connect(m_strip, &BasisSamplesStrip::closeRequested, this, &BasisGallery::hideSamples);
    rebuild();
}

void BasisGallery::setBasis(const Matrix& basis, int height, int width)
{
    setFactors(basis, Matrix(), nullptr, height, width);
}

void BasisGallery::setFactors(const Matrix& basis, const Matrix& V,
    std::shared_ptr<const Dataset> dataset, int height, int width)
{
    setNewerRunNote({});
    hideSamples();
    m_basis = basis;
    m_height = height;
    m_width = width;
    m_min = basis.size() ? double(basis.minCoeff()) : 0.0;
    m_max = basis.size() ? double(basis.maxCoeff()) : 0.0;
    const bool haveV = V.size() && V.cols() == basis.cols();
    m_V = haveV ? V : Matrix();
    // The strip draws samples as h x w images, so only data of exactly that shape qualifies.
    const bool dataFits = haveV && dataset && dataset->samples() == V.rows()
        && dataset->height == height && dataset->width == width
        && dataset->features() == Eigen::Index(height) * width;
    m_data = dataFits ? std::move(dataset) : nullptr;
    m_weights = haveV ? basisWeights(basis, V) : std::vector<double>();
    m_orderCombo->setEnabled(haveV);
    chooseScaleFor(basis);
    rebuild();
    fitZoom();
}

void BasisGallery::chooseScaleFor(const Matrix& basis)
{
    const Scale wanted = basis.size() && basis.minCoeff() < 0 ? Scale::Signed : m_userScale;
    m_choosingScale = true;
    m_scaleCombo->setCurrentIndex(m_scaleCombo->findData(int(wanted)));
    m_choosingScale = false;
}

void BasisGallery::placeTools(bool oneRow)
{
    if (m_tools->count() > 0 && oneRow == m_toolsInOneRow)
        return;
    m_toolsInOneRow = oneRow;
    m_tools->removeWidget(m_viewTools);
    m_tools->removeWidget(m_zoomTools);
    m_tools->addWidget(m_viewTools, 0, 0);
    m_tools->addWidget(m_zoomTools, oneRow ? 0 : 1, oneRow ? 1 : 0);
    m_tools->setColumnStretch(1, oneRow ? 1 : 0);
    m_tools->setColumnStretch(0, oneRow ? 0 : 1);
}

void BasisGallery::resizeEvent(QResizeEvent* event)
{
    const int oneRow = m_viewTools->sizeHint().width() + m_tools->horizontalSpacing()
        + m_zoomTools->minimumSizeHint().width() + 8;
    placeTools(event->size().width() >= oneRow);
    QWidget::resizeEvent(event);
}

bool BasisGallery::eventFilter(QObject* watched, QEvent* event)
{
    if (watched == m_scroll->viewport() && event->type() == QEvent::Resize)
        fitZoom();
    return QWidget::eventFilter(watched, event);
}

void BasisGallery::fitZoom()
{
    if (!m_autoZoom || m_grid->tileCount() == 0)
        return;
    const QSize area = m_scroll->viewport()->size();
    const int side = std::max(1, std::max(m_height, m_width));
    int chosen = 0;
    for (int sharePercent : kFitZooms) {
        // Below kMinFitTilePixels a face is a smudge: scroll instead (40 ORL images in a small
        // window fitted at 33 %, 10 pixels each).
        if (side * sharePercent / 100 < kMinFitTilePixels)
            break;
        if (m_grid->contentHeight(area.width(), sharePercent) <= area.height()) {
            chosen = sharePercent;
            break;
        }
    }
    if (chosen == 0) {
        chosen = std::clamp(100 * kScrollingTilePixels / side, ImageGrid::kMinZoomPercent, 400);
    }
    m_fitting = true;
    m_grid->setZoomPercent(chosen);
    m_fitting = false;
}

void BasisGallery::clear()
{
    setFactors(Matrix(), Matrix(), nullptr, 0, 0);
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

BasisGallery::Order BasisGallery::order() const
{
    return Order(m_orderCombo->currentData().toInt());
}

void BasisGallery::setOrder(Order order)
{
    m_orderCombo->setCurrentIndex(m_orderCombo->findData(int(order)));
}

int BasisGallery::zoomPercent() const
{
    return m_grid->zoomPercent();
}

void BasisGallery::setZoomPercent(int sharePercent)
{
    m_grid->setZoomPercent(sharePercent);
}

ImageScaling BasisGallery::exportScaling() const
{
    return scale() == Scale::Signed ? ImageScaling::Signed : ImageScaling::PerImage;
}

void BasisGallery::activateBasis(int j)
{
    if (j < 0 || j >= m_basis.cols())
        return;
    m_active = j;
    const auto at = std::find(m_order.begin(), m_order.end(), j);
    m_grid->setSelectedTile({ 0, int(at - m_order.begin()) });
    if (m_data) {
        m_strip->showSamples(*m_data, m_V, j);
        m_strip->show();
    }
    Q_EMIT basisActivated(j);
}

void BasisGallery::hideSamples()
{
    m_active = -1;
    m_grid->setSelectedTile({});
    m_strip->hide();
    m_strip->clear();
}

bool BasisGallery::event(QEvent* event)
{
    // Esc closes the strip before the window's Esc shortcut (cancel a run) sees it.
    if (event->type() == QEvent::ShortcutOverride && m_strip->isVisible()
        && static_cast<QKeyEvent*>(event)->key() == Qt::Key_Escape) {
        event->accept();
        return true;
    }
    return QWidget::event(event);
}

void BasisGallery::keyPressEvent(QKeyEvent* event)
{
    if (event->key() == Qt::Key_Escape && m_strip->isVisible()) {
        hideSamples();
        event->accept();
        return;
    }
    QWidget::keyPressEvent(event);
}

void BasisGallery::setNewerRunNote(const QString& text)
{
    m_newerRun->setText(text);
    m_newerRun->setVisible(!text.isEmpty());
}

QString BasisGallery::newerRunNote() const
{
    return m_newerRun->text();
}

} // namespace facet
