// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QStatusBar>

namespace facet {

// A status bar whose message never runs silently into the permanent widgets: a message too long
// for its room is drawn elided in the middle (the start says what happened, the end how it
// ended), and the full text is the bar's tooltip. QStatusBar clips it at the first permanent
// widget, mid-word, with nothing to say that more was there.
class ElidingStatusBar : public QStatusBar {
    Q_OBJECT
    Q_PROPERTY(QString displayedMessage READ displayedMessage)

public:
    explicit ElidingStatusBar(QWidget* parent = nullptr);

    // The message as drawn now: currentMessage(), elided to the room left of the permanent
    // widgets.
    QString displayedMessage() const;
    // Where the message is drawn: from the left edge to the first permanent widget (or the size
    // grip), as QStatusBar lays it out.
    QRect messageRect() const;

protected:
    void paintEvent(QPaintEvent* event) override;

private:
    void updateToolTip();
};

} // namespace facet
