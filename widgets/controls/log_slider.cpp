// SPDX-License-Identifier: GPL-3.0-or-later
#include "controls/log_slider.h"

#include "controls/log_spin_box.h"

#include <QHBoxLayout>
#include <QSignalBlocker>
#include <QSlider>

#include <algorithm>
#include <cmath>

namespace facet {

LogSlider::LogSlider(double minimum, double maximum, QWidget* parent)
    : QWidget(parent)
    , m_minimum(minimum)
    , m_maximum(maximum)
    , m_logMinimum(std::log10(minimum))
    , m_logMaximum(std::log10(maximum))
    , m_positions(std::max(1, int(std::lround((m_logMaximum - m_logMinimum) * kStepsPerDecade))))
    , m_slider(new QSlider(Qt::Horizontal))
    , m_spin(new LogSpinBox)
{
    m_slider->setRange(0, m_positions);
    m_slider->setPageStep(kStepsPerDecade);
    m_slider->setTickPosition(QSlider::TicksBelow);
    m_slider->setTickInterval(kStepsPerDecade); // one tick per decade
    m_slider->setMinimumWidth(60);
    m_spin->setRange(minimum, maximum);
    m_spin->setValue(minimum);

    auto* layout = new QHBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_slider, 1);
    layout->addWidget(m_spin);
    setFocusProxy(m_spin);

    connect(m_slider, &QSlider::valueChanged, this, &LogSlider::onSliderChanged);
    connect(m_spin, &LogSpinBox::valueChanged, this, &LogSlider::onSpinChanged);
}

double LogSlider::value() const
{
    return m_spin->value();
}

void LogSlider::setValue(double value)
{
    if (!std::isfinite(value))
        return;
    m_spin->setValue(std::clamp(LogSpinBox::roundToSignificant(value), m_minimum, m_maximum));
}

double LogSlider::valueAt(int position) const
{
    if (position <= 0)
        return m_minimum;
    if (position >= m_positions)
        return m_maximum;
    const double exponent
        = m_logMinimum + (m_logMaximum - m_logMinimum) * double(position) / m_positions;
    return LogSpinBox::roundToSignificant(std::pow(10.0, exponent));
}

int LogSlider::positionOf(double value) const
{
    if (!(value > m_minimum))
        return 0;
    if (!(value < m_maximum))
        return m_positions;
    const double fraction = (std::log10(value) - m_logMinimum) / (m_logMaximum - m_logMinimum);
    return std::clamp(int(std::lround(fraction * m_positions)), 0, m_positions);
}

void LogSlider::setToolTips(const QString& toolTip)
{
    setToolTip(toolTip);
    m_slider->setToolTip(toolTip);
    m_spin->setToolTip(toolTip);
}

void LogSlider::onSliderChanged(int position)
{
    m_spin->setValue(valueAt(position));
}

void LogSlider::onSpinChanged(double value)
{
    {
        // A typed value between two positions moves the slider without being replaced by it.
        const QSignalBlocker blocker(m_slider);
        m_slider->setValue(positionOf(value));
    }
    Q_EMIT valueChanged(value);
}

} // namespace facet
