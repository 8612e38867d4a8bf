// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QGradientStops>
#include <QString>
#include <QWidget>

namespace facet {

// A horizontal legend for how values map to colours: the gradient, the values at both ends and a
// title between them. The ends are text so a view can say "image min" when every image is scaled
// on its own and there is no single number to show.
class ColorBar : public QWidget {
    Q_OBJECT

public:
    explicit ColorBar(QWidget* parent = nullptr);

    void setStops(const QGradientStops& stops);
    void setLabels(const QString& low, const QString& high, const QString& title = {});
    QString lowLabel() const { return m_low; }
    QString highLabel() const { return m_high; }

    QSize sizeHint() const override;
    QSize minimumSizeHint() const override;

protected:
    void paintEvent(QPaintEvent* event) override;

private:
    QGradientStops m_stops;
    QString m_low;
    QString m_high;
    QString m_title;
};

} // namespace facet
