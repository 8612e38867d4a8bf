// SPDX-License-Identifier: GPL-3.0-or-later
#include "common/color_bar.h"

#include <QLinearGradient>
#include <QPainter>

namespace facet {

namespace {
constexpr int kBarMargin = 8;
constexpr int kBarHeight = 12;
} // namespace

ColorBar::ColorBar(QWidget* parent)
    : QWidget(parent)
    , m_stops { { 0.0, Qt::black }, { 1.0, Qt::white } }
{
    setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Fixed);
}

void ColorBar::setStops(const QGradientStops& stops)
{
    m_stops = stops;
    update();
}

void ColorBar::setLabels(const QString& low, const QString& high, const QString& title)
{
    m_low = low;
    m_high = high;
    m_title = title;
    update();
}

QSize ColorBar::sizeHint() const
{
    return QSize(300, kBarHeight + fontMetrics().height() + 3 * 4);
}

QSize ColorBar::minimumSizeHint() const
{
    return QSize(120, sizeHint().height());
}

void ColorBar::paintEvent(QPaintEvent*)
{
    QPainter painter(this);
    const QRect bar(kBarMargin, 4, width() - 2 * kBarMargin, kBarHeight);
    QLinearGradient gradient(bar.topLeft(), bar.topRight());
    gradient.setStops(m_stops);
    painter.fillRect(bar, gradient);
    painter.setPen(palette().color(QPalette::Mid));
    painter.drawRect(bar.adjusted(0, 0, -1, -1));

    painter.setPen(palette().color(QPalette::WindowText));
    const QRect text(bar.left(), bar.bottom() + 3, bar.width(), fontMetrics().height());
    painter.drawText(text, Qt::AlignLeft | Qt::AlignTop, m_low);
    painter.drawText(text, Qt::AlignRight | Qt::AlignTop, m_high);
    // The title only where it does not collide with the end labels.
    const int room = bar.width()
        - 2
            * std::max(
                fontMetrics().horizontalAdvance(m_low), fontMetrics().horizontalAdvance(m_high))
        - 16;
    if (room > 0)
        painter.drawText(text, Qt::AlignHCenter | Qt::AlignTop,
            fontMetrics().elidedText(m_title, Qt::ElideRight, room));
}

} // namespace facet
