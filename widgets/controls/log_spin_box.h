// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QDoubleSpinBox>

#include <optional>

namespace facet {

// A spin box for a positive value that spans decades (lambda, beta, a kernel width). It shows
// kSignificantDigits significant digits in plain notation ("0.3", "100", "0.00125"), accepts
// anything the user types that parses (1e3, 0.05), and its arrows multiply by a constant factor
// (kStepsPerDecade steps per decade) instead of adding a constant.
class LogSpinBox : public QDoubleSpinBox {
public:
    static constexpr int kSignificantDigits = 3;
    static constexpr int kStepsPerDecade = 10;

    explicit LogSpinBox(QWidget* parent = nullptr);

    // value rounded to kSignificantDigits significant digits (0 and non-finite values unchanged).
    static double roundToSignificant(double value);

    void stepBy(int steps) override;
    QString textFromValue(double value) const override;
    double valueFromText(const QString& text) const override;
    QValidator::State validate(QString& text, int& position) const override;
    void fixup(QString& text) const override;

private:
    // The number in text, in the widget's locale or else in C notation.
    std::optional<double> parse(const QString& text) const;
};

} // namespace facet
