// SPDX-License-Identifier: GPL-3.0-or-later
#include "common/vertical_scroll_area.h"

#include <QEvent>
#include <QScrollBar>

#include <algorithm>

namespace facet {

VerticalScrollArea::VerticalScrollArea(QWidget* content, QWidget* parent)
    : QScrollArea(parent)
{
    setWidget(content);
    setWidgetResizable(true);
    setFrameShape(QFrame::NoFrame);
    setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    // The content's minimum width changes with what it shows (another method's parameters).
    content->installEventFilter(this);
    keepNaturalHeight();
}

void VerticalScrollArea::keepNaturalHeight()
{
    // Scroll rather than squeeze: the layout would otherwise press the rows down to their
    // minimum heights (a spin box's text cut in half, a caption over the row below) before the
    // scroll bar appeared.
    if (widget())
        widget()->setMinimumHeight(widget()->sizeHint().height());
}

QSize VerticalScrollArea::minimumSizeHint() const
{
    const QSize content = widget() ? widget()->minimumSizeHint() : QSize();
    return { content.width() + verticalScrollBar()->sizeHint().width(),
        QScrollArea::minimumSizeHint().height() };
}

QSize VerticalScrollArea::sizeHint() const
{
    const QSize content = widget() ? widget()->sizeHint() : QSize();
    return { std::max(content.width(), widget() ? widget()->minimumSizeHint().width() : 0)
            + verticalScrollBar()->sizeHint().width(),
        content.height() };
}

bool VerticalScrollArea::eventFilter(QObject* watched, QEvent* event)
{
    if (watched == widget() && event->type() == QEvent::LayoutRequest) {
        keepNaturalHeight();
        updateGeometry();
    }
    return QScrollArea::eventFilter(watched, event);
}

} // namespace facet
