// SPDX-License-Identifier: GPL-3.0-or-later
#include "controls/log_spin_box.h"

#include <QLocale>

#include <algorithm>
#include <cmath>

namespace facet {

namespace {

// Plain notation covers the parameter ranges the panel offers; beyond it 'g' notation is shorter.
constexpr double kPlainMin = 1e-4;
constexpr double kPlainMax = 1e6;

bool mayStartANumber(const QString& text)
{
    return std::all_of(text.begin(), text.end(), [](QChar c) {
        return c.isDigit() || c == u'.' || c == u',' || c == u'e' || c == u'E' || c == u'+'
            || c == u'-';
    });
}

} // namespace

LogSpinBox::LogSpinBox(QWidget* parent)
    : QDoubleSpinBox(parent)
{
    // QDoubleSpinBox rounds every value to decimals(); enough of them that 3 significant digits
    // of the smallest offered value survive.
    setDecimals(12);
    setKeyboardTracking(false);
    setAccelerated(true);
}

double LogSpinBox::roundToSignificant(double value)
{
    if (value == 0 || !std::isfinite(value))
        return value;
    // Through the decimal text, so 0.3 stays the double nearest to 0.3.
    return QString::number(value, 'g', kSignificantDigits).toDouble();
}

void LogSpinBox::stepBy(int steps)
{
    const double current = value() > 0 ? value() : minimum();
    const double next = current * std::pow(10.0, double(steps) / kStepsPerDecade);
    setValue(std::clamp(roundToSignificant(next), minimum(), maximum()));
}

QString LogSpinBox::textFromValue(double value) const
{
    QLocale plain = locale();
    plain.setNumberOptions(QLocale::OmitGroupSeparator);
    const double rounded = roundToSignificant(value);
    const double magnitude = std::abs(rounded);
    if (magnitude == 0)
        return plain.toString(0);
    if (magnitude < kPlainMin || magnitude >= kPlainMax)
        return plain.toString(rounded, 'g', kSignificantDigits);
    const int exponent = int(std::floor(std::log10(magnitude)));
    const int decimals = std::max(0, kSignificantDigits - 1 - exponent);
    QString text = plain.toString(rounded, 'f', decimals);
    const QString point = plain.decimalPoint();
    if (decimals > 0 && text.contains(point)) {
        while (text.endsWith(u'0'))
            text.chop(1);
        if (text.endsWith(point))
            text.chop(point.size());
    }
    return text;
}

std::optional<double> LogSpinBox::parse(const QString& text) const
{
    const QString trimmed = text.trimmed();
    bool ok = false;
    double value = locale().toDouble(trimmed, &ok);
    if (!ok)
        value = QLocale::c().toDouble(trimmed, &ok);
    if (!ok || !std::isfinite(value))
        return std::nullopt;
    return value;
}

double LogSpinBox::valueFromText(const QString& text) const
{
    return std::clamp(parse(text).value_or(value()), minimum(), maximum());
}

QValidator::State LogSpinBox::validate(QString& text, int&) const
{
    const QString trimmed = text.trimmed();
    if (trimmed.isEmpty())
        return QValidator::Intermediate;
    if (const std::optional<double> value = parse(trimmed))
        return *value >= minimum() && *value <= maximum() ? QValidator::Acceptable
                                                          : QValidator::Intermediate;
    return mayStartANumber(trimmed) ? QValidator::Intermediate : QValidator::Invalid;
}

void LogSpinBox::fixup(QString& text) const
{
    if (const std::optional<double> value = parse(text))
        text = textFromValue(std::clamp(*value, minimum(), maximum()));
}

} // namespace facet
