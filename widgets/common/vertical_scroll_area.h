// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QScrollArea>

namespace facet {

// A scroll area that scrolls only vertically and is as wide as its widget needs (plus the scroll
// bar), so a dock holding it is never narrower than its contents and nothing is cut off at the
// right; a plain QScrollArea lets the dock shrink below the contents' minimum width.
class VerticalScrollArea : public QScrollArea {
    Q_OBJECT

public:
    explicit VerticalScrollArea(QWidget* content, QWidget* parent = nullptr);

    QSize minimumSizeHint() const override;
    QSize sizeHint() const override;
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    // Holds the content at least at its size hint's height, so it scrolls instead of squeezing.
    void keepNaturalHeight();
};

} // namespace facet
