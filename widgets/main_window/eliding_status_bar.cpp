// SPDX-License-Identifier: GPL-3.0-or-later
#include "main_window/eliding_status_bar.h"

#include <QPainter>
#include <QSizeGrip>
#include <QStyleOption>

#include <algorithm>

namespace facet {

ElidingStatusBar::ElidingStatusBar(QWidget* parent)
    : QStatusBar(parent)
{
    connect(this, &QStatusBar::messageChanged, this, &ElidingStatusBar::updateToolTip);
}

QRect ElidingStatusBar::messageRect() const
{
    // QStatusBarPrivate::messageRect(), for a left-to-right layout: 6 px in from the left, 12 px
    // from the right, and 2 px before the first visible widget. While a message shows, only the
    // permanent widgets and the size grip are shown.
    int right = width() - 12;
    for (const QWidget* child : findChildren<QWidget*>(Qt::FindDirectChildrenOnly)) {
        if (child->isWindow())
            continue;
        // The grip sits at the right end once laid out (offscreen it never is: it stays at 0, 0),
        // so it counts by its width; the widgets wherever they are not hidden.
        if (qobject_cast<const QSizeGrip*>(child)) {
            if (child->isVisible())
                right = std::min(right, width() - child->width());
        } else if (child->isVisibleTo(this)) {
            right = std::min(right, child->x() - 2);
        }
    }
    const int left = 6;
    return QRect(left, 0, std::max(0, right - left), height());
}

QString ElidingStatusBar::displayedMessage() const
{
    return fontMetrics().elidedText(currentMessage(), Qt::ElideMiddle, messageRect().width());
}

void ElidingStatusBar::paintEvent(QPaintEvent* event)
{
    // The permanent widgets' widths change with their texts, not only with the bar's.
    updateToolTip();
    const QString message = currentMessage();
    if (message.isEmpty() || layoutDirection() == Qt::RightToLeft) {
        QStatusBar::paintEvent(event);
        return;
    }
    // QStatusBar::paintEvent() with the message elided: the panel, the frames of the visible
    // (permanent) widgets, then the text.
    QPainter painter(this);
    QStyleOption option;
    option.initFrom(this);
    style()->drawPrimitive(QStyle::PE_PanelStatusBar, &option, &painter, this);
    for (QWidget* child : findChildren<QWidget*>(Qt::FindDirectChildrenOnly)) {
        if (!child->isVisibleTo(this) || child->isWindow() || qobject_cast<QSizeGrip*>(child))
            continue;
        QStyleOption frame(0);
        frame.rect = child->geometry().adjusted(-2, -1, 2, 1);
        frame.palette = palette();
        frame.state = QStyle::State_None;
        style()->drawPrimitive(QStyle::PE_FrameStatusBarItem, &frame, &painter, child);
    }
    painter.setPen(palette().windowText().color());
    painter.drawText(messageRect(), Qt::AlignLeading | Qt::AlignVCenter | Qt::TextSingleLine,
        displayedMessage());
}

void ElidingStatusBar::updateToolTip()
{
    const QString message = currentMessage();
    setToolTip(displayedMessage() == message ? QString() : message);
}

} // namespace facet
