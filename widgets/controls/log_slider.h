// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QWidget>

class QSlider;

namespace facet {

class LogSpinBox;

// A positive parameter on a logarithmic scale (METHODS.md 1.3: lambda from 1e-2 to 1e4): a slider
// with kStepsPerDecade positions per decade for the rough choice and a LogSpinBox for an exact
// one. The value is the spin box's (3 significant digits); the slider follows it to the nearest
// position. The end positions are the range's end points exactly.
class LogSlider : public QWidget {
    Q_OBJECT

public:
    static constexpr int kStepsPerDecade = 20;

    // 0 < minimum < maximum.
    LogSlider(double minimum, double maximum, QWidget* parent = nullptr);

    double value() const;
    // Clamped to the range and rounded to 3 significant digits; valueChanged() when it changes.
    void setValue(double value);
    double minimum() const { return m_minimum; }
    double maximum() const { return m_maximum; }

    // The value at a slider position, and the position nearest to a value.
    double valueAt(int position) const;
    int positionOf(double value) const;
    int positions() const { return m_positions; } // the last position; the first is 0

    // On the slider and the spin box too, which show their own tooltips.
    void setToolTips(const QString& toolTip);

    QSlider* slider() const { return m_slider; }
    LogSpinBox* spinBox() const { return m_spin; }

Q_SIGNALS:
    void valueChanged(double value);

private:
    void onSliderChanged(int position);
    void onSpinChanged(double value);

    double m_minimum;
    double m_maximum;
    double m_logMinimum;
    double m_logMaximum;
    int m_positions;
    QSlider* m_slider = nullptr;
    LogSpinBox* m_spin = nullptr;
};

} // namespace facet
