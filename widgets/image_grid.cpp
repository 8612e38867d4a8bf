// SPDX-License-Identifier: GPL-3.0-or-later
#include "image_grid.h"

#include <QAbstractScrollArea>
#include <QCoreApplication>
#include <QHelpEvent>
#include <QPaintEvent>
#include <QPainter>
#include <QToolTip>
#include <QWheelEvent>

#include <algorithm>
#include <cmath>

namespace facet {

namespace {
constexpr int kMargin = 8;
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
}

void ImageGrid::setSections(QList<ImageSection> sections)
{
    m_sections = std::move(sections);
    contentChanged();
}

void ImageGrid::clear()
{
    m_sections.clear();
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
    const std::function<void(const ImageTile&, const QRect&)>& onTile) const
{
    const QFontMetrics metrics = fontMetrics();
    const int lineHeight = metrics.height();
    int y = kMargin;
    for (const ImageSection& section : m_sections) {
        if (!section.title.isEmpty()) {
            const QRect titleRect(kMargin, y, std::max(1, width - 2 * kMargin), lineHeight + 2);
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
        const bool captions = std::any_of(section.tiles.begin(), section.tiles.end(),
            [](const ImageTile& tile) { return !tile.caption.isEmpty(); });
        const int cellWidth = std::max(
            image.width(), captions ? metrics.horizontalAdvance(QStringLiteral("000")) : 0);
        const int cellHeight = image.height() + (captions ? kCaptionGap + lineHeight : 0);
        const int columns = std::max(1, (width - 2 * kMargin + kGap) / (cellWidth + kGap));
        for (int i = 0; i < section.tiles.size(); ++i) {
            const int row = i / columns;
            const int column = i % columns;
            const QRect rect(
                kMargin + column * (cellWidth + kGap) + (cellWidth - image.width()) / 2,
                y + row * (cellHeight + kGap), image.width(), image.height());
            if (onTile)
                onTile(section.tiles[i], rect);
        }
        const int rows = (int(section.tiles.size()) + columns - 1) / columns;
        y += rows * (cellHeight + kGap) - kGap + kSectionGap;
    }
    return y + kMargin;
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
    return QSize(kMargin * 2 + 32, 32);
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
        painter.drawText(rect().adjusted(kMargin, kMargin, -kMargin, -kMargin),
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
        [&](const ImageTile& tile, const QRect& rect) {
            const QRect withCaption = rect.adjusted(-kGap / 2, -2, kGap / 2, metrics.height() + 2);
            if (!withCaption.intersects(exposed))
                return;
            painter.drawImage(rect, tile.image);
            if (tile.flagged) {
                painter.setPen(QPen(QColor(200, 30, 30), 2));
                painter.drawRect(rect.adjusted(-1, -1, 0, 0));
            }
            if (!tile.caption.isEmpty()) {
                painter.setPen(palette().color(QPalette::Text));
                const QRect captionRect(rect.center().x() - 100, rect.bottom() + 1 + kCaptionGap,
                    200, metrics.height());
                painter.drawText(captionRect, Qt::AlignHCenter | Qt::AlignTop,
                    metrics.elidedText(tile.caption, Qt::ElideRight, std::max(rect.width(), 24)));
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
    layOut(width(), m_zoomPercent, {}, [&](const ImageTile& tile, const QRect& rect) {
        if (rect.contains(position))
            text = tile.toolTip;
    });
    if (text.isEmpty()) {
        QToolTip::hideText();
        event->ignore();
    } else {
        QToolTip::showText(static_cast<QHelpEvent*>(event)->globalPos(), text, this);
    }
    return true;
}

} // namespace facet
