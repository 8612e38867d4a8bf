// SPDX-License-Identifier: GPL-3.0-or-later
#include "common/image_grid.h"

#include <QAbstractScrollArea>
#include <QCoreApplication>
#include <QHelpEvent>
#include <QMouseEvent>
#include <QPaintEvent>
#include <QPainter>
#include <QToolTip>
#include <QWheelEvent>

#include <algorithm>
#include <cmath>

namespace facet {

namespace {
constexpr int kGridMargin = 8;
constexpr int kGap = 6;
constexpr int kCaptionGap = 2;
constexpr int kSectionGap = 10;
} // namespace

ImageGrid::ImageGrid(QWidget* parent)
    : QWidget(parent)
{
    QSizePolicy policy(QSizePolicy::Preferred, QSizePolicy::Preferred);
    policy.setHeightForWidth(true);
    setSizePolicy(policy);
    setBackgroundRole(QPalette::Base);
    setAutoFillBackground(true);
    // A clicked tile takes the keyboard focus, so Esc reaches the view that shows its details.
    setFocusPolicy(Qt::ClickFocus);
}

void ImageGrid::setSections(QList<ImageSection> sections)
{
    m_sections = std::move(sections);
    m_selected = {};
    contentChanged();
}

void ImageGrid::clear()
{
    m_sections.clear();
    m_selected = {};
    contentChanged();
}

int ImageGrid::tileCount() const
{
    int count = 0;
    for (const ImageSection& section : m_sections)
        count += int(section.tiles.size());
    return count;
}

void ImageGrid::setZoomPercent(int percent)
{
    percent = std::clamp(percent, kMinZoomPercent, kMaxZoomPercent);
    if (percent == m_zoomPercent)
        return;
    m_zoomPercent = percent;
    contentChanged();
    Q_EMIT zoomChanged(percent);
}

void ImageGrid::setPlaceholderText(const QString& text)
{
    m_placeholder = text;
    update();
}

QSize ImageGrid::scaledSize(const QImage& image, int zoomPercent)
{
    return QSize(std::max(1, int(std::lround(image.width() * zoomPercent / 100.0))),
        std::max(1, int(std::lround(image.height() * zoomPercent / 100.0))));
}

int ImageGrid::layOut(int width, int zoomPercent,
    const std::function<void(const ImageSection&, const QRect&)>& onTitle,
    const TileVisitor& onTile) const
{
    const QFontMetrics metrics = fontMetrics();
    const int lineHeight = metrics.height();
    int y = kGridMargin;
    for (int s = 0; s < m_sections.size(); ++s) {
        const ImageSection& section = m_sections[s];
        if (!section.title.isEmpty()) {
            const QRect titleRect(
                kGridMargin, y, std::max(1, width - 2 * kGridMargin), lineHeight + 2);
            if (onTitle)
                onTitle(section, titleRect);
            y += titleRect.height() + kCaptionGap;
        }
        if (section.tiles.isEmpty()) {
            y += kSectionGap;
            continue;
        }
        // All tiles of a section come from one dataset and share a size.
        const QSize image = scaledSize(section.tiles.front().image, zoomPercent);
        // Cells are as wide as the widest caption, so a caption is never cut at small zooms.
        int captionWidth = 0;
        for (const ImageTile& tile : section.tiles) {
            if (!tile.caption.isEmpty())
                captionWidth = std::max(captionWidth, metrics.horizontalAdvance(tile.caption) + 4);
        }
        const bool captions = captionWidth > 0;
        const int cellWidth = std::max(image.width(), captionWidth);
        const int cellHeight = image.height() + (captions ? kCaptionGap + lineHeight : 0);
        const int columns = std::max(1, (width - 2 * kGridMargin + kGap) / (cellWidth + kGap));
        for (int i = 0; i < section.tiles.size(); ++i) {
            const int row = i / columns;
            const int column = i % columns;
            const QRect rect(
                kGridMargin + column * (cellWidth + kGap) + (cellWidth - image.width()) / 2,
                y + row * (cellHeight + kGap), image.width(), image.height());
            if (onTile)
                onTile({ s, i }, section.tiles[i], rect);
        }
        const int rows = (int(section.tiles.size()) + columns - 1) / columns;
        y += rows * (cellHeight + kGap) - kGap + kSectionGap;
    }
    return y + kGridMargin;
}

int ImageGrid::heightForWidth(int width) const
{
    return contentHeight(width, m_zoomPercent);
}

int ImageGrid::contentHeight(int width, int zoomPercent) const
{
    return m_sections.isEmpty() ? 0 : layOut(width, zoomPercent, {}, {});
}

QSize ImageGrid::sizeHint() const
{
    return QSize(400, std::max(200, heightForWidth(400)));
}

QSize ImageGrid::minimumSizeHint() const
{
    return QSize(kGridMargin * 2 + 32, 32);
}

void ImageGrid::contentChanged()
{
    updateGeometry();
    // A resizable QScrollArea only re-reads heightForWidth() when it is resized or asked to lay
    // out again, and a child's updateGeometry() reaches its viewport, not the area itself.
    if (QWidget* viewport = parentWidget()) {
        if (auto* area = qobject_cast<QAbstractScrollArea*>(viewport->parentWidget()))
            QCoreApplication::postEvent(area, new QEvent(QEvent::LayoutRequest));
    }
    update();
}

void ImageGrid::paintEvent(QPaintEvent* event)
{
    QPainter painter(this);
    if (m_sections.isEmpty()) {
        painter.setPen(palette().color(QPalette::PlaceholderText));
        painter.drawText(rect().adjusted(kGridMargin, kGridMargin, -kGridMargin, -kGridMargin),
            Qt::AlignCenter | Qt::TextWordWrap, m_placeholder);
        return;
    }
    const QRect exposed = event->rect();
    const QFontMetrics metrics = fontMetrics();
    QFont bold = font();
    bold.setBold(true);
    painter.setRenderHint(QPainter::SmoothPixmapTransform, m_zoomPercent < 100);
    layOut(
        width(), m_zoomPercent,
        [&](const ImageSection& section, const QRect& rect) {
            if (!rect.intersects(exposed))
                return;
            painter.setFont(bold);
            painter.setPen(palette().color(QPalette::Text));
            painter.drawText(rect, Qt::AlignLeft | Qt::AlignVCenter,
                QFontMetrics(bold).elidedText(section.title, Qt::ElideRight, rect.width()));
            painter.setFont(font());
        },
        [&](TilePosition position, const ImageTile& tile, const QRect& rect) {
            const int captionWidth = tile.caption.isEmpty()
                ? 0
                : std::max(rect.width(), metrics.horizontalAdvance(tile.caption) + 4);
            // The selection frame reaches 3 pixels outside the image; captions can be wider.
            const int spill = std::max(kGap / 2, (captionWidth - rect.width()) / 2 + 1);
            const QRect withCaption = rect.adjusted(-spill, -4, spill, metrics.height() + 4);
            if (!withCaption.intersects(exposed))
                return;
            painter.drawImage(rect, tile.image);
            if (tile.flagged) {
                painter.setPen(
                    QPen(tile.frameColor.isValid() ? tile.frameColor : QColor(200, 30, 30), 3));
                painter.setBrush(Qt::NoBrush);
                painter.drawRect(rect.adjusted(-1, -1, 0, 0));
            }
            if (position == m_selected) {
                // Outside the image, so no pixel of the selected image is hidden.
                painter.setPen(QPen(palette().color(QPalette::Highlight), 3));
                painter.setBrush(Qt::NoBrush);
                painter.drawRect(rect.adjusted(-3, -3, 2, 2));
            }
            if (!tile.caption.isEmpty()) {
                painter.setPen(palette().color(QPalette::Text));
                const QRect captionRect(rect.center().x() - captionWidth / 2,
                    rect.bottom() + 1 + kCaptionGap, captionWidth, metrics.height());
                painter.drawText(captionRect, Qt::AlignHCenter | Qt::AlignTop, tile.caption);
            }
        });
}

void ImageGrid::wheelEvent(QWheelEvent* event)
{
    if (!(event->modifiers() & Qt::ControlModifier) || m_sections.isEmpty()) {
        event->ignore(); // the scroll area scrolls
        return;
    }
    const int steps = event->angleDelta().y() / 120;
    if (steps != 0)
        setZoomPercent(int(std::lround(m_zoomPercent * std::pow(1.25, steps))));
    event->accept();
}

bool ImageGrid::event(QEvent* event)
{
    if (event->type() != QEvent::ToolTip)
        return QWidget::event(event);
    const QPoint position = static_cast<QHelpEvent*>(event)->pos();
    QString text;
    if (const TilePosition at = tileAt(position); at.isValid())
        text = m_sections[at.section].tiles[at.index].toolTip;
    if (text.isEmpty()) {
        QToolTip::hideText();
        event->ignore();
    } else {
        QToolTip::showText(static_cast<QHelpEvent*>(event)->globalPos(), text, this);
    }
    return true;
}

QRect ImageGrid::tileRect(int section, int index) const
{
    QRect found;
    layOut(width(), m_zoomPercent, {}, [&](TilePosition at, const ImageTile&, const QRect& rect) {
        if (at.section == section && at.index == index)
            found = rect;
    });
    return found;
}

TilePosition ImageGrid::tileAt(const QPoint& position) const
{
    TilePosition found;
    layOut(width(), m_zoomPercent, {}, [&](TilePosition at, const ImageTile&, const QRect& rect) {
        if (rect.contains(position))
            found = at;
    });
    return found;
}

void ImageGrid::setSelectedTile(TilePosition position)
{
    if (position == m_selected)
        return;
    m_selected = position;
    update();
}

void ImageGrid::mousePressEvent(QMouseEvent* event)
{
    const TilePosition at
        = event->button() == Qt::LeftButton ? tileAt(event->position().toPoint()) : TilePosition {};
    if (!at.isValid()) {
        QWidget::mousePressEvent(event);
        return;
    }
    event->accept();
    Q_EMIT tileClicked(at.section, at.index);
}

} // namespace facet
