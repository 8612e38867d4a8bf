// SPDX-License-Identifier: GPL-3.0-or-later
// The log slider and its spin box: exact end points, every position a 3-significant-digit value
// that maps back to it, typed values kept, plain-notation text, steps by a constant factor.

#include "controls/log_slider.h"
#include "controls/log_spin_box.h"

#include <QSlider>
#include <QtTest>

using namespace facet;

class TestLogSlider : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void mapping();
    void spinBoxTextAndSteps();
};

void TestLogSlider::mapping()
{
    LogSlider slider(1e-2, 1e4);
    QCOMPARE(slider.positions(), 6 * LogSlider::kStepsPerDecade);
    // Exact at the end points.
    QCOMPARE(slider.valueAt(0), 1e-2);
    QCOMPARE(slider.valueAt(slider.positions()), 1e4);
    slider.slider()->setValue(0);
    QCOMPARE(slider.value(), 1e-2);
    slider.slider()->setValue(slider.positions());
    QCOMPARE(slider.value(), 1e4);
    QTest::keyClick(slider.slider(), Qt::Key_Home);
    QCOMPARE(slider.value(), 1e-2);
    QTest::keyClick(slider.slider(), Qt::Key_End);
    QCOMPARE(slider.value(), 1e4);
    // Powers of ten sit on a position; every position's value has 3 significant digits and maps
    // back to that position.
    QCOMPARE(slider.positionOf(1), 2 * LogSlider::kStepsPerDecade);
    QCOMPARE(slider.valueAt(2 * LogSlider::kStepsPerDecade), 1.0);
    QCOMPARE(slider.valueAt(4 * LogSlider::kStepsPerDecade), 100.0);
    for (int position = 0; position <= slider.positions(); ++position) {
        const double value = slider.valueAt(position);
        QCOMPARE(LogSpinBox::roundToSignificant(value), value);
        QCOMPARE(slider.positionOf(value), position);
        slider.slider()->setValue(position);
        QCOMPARE(slider.value(), value);
    }
    // A typed value between positions is kept (to 3 significant digits), the slider goes near it.
    slider.setValue(0.3);
    QCOMPARE(slider.value(), 0.3);
    QCOMPARE(slider.slider()->value(), slider.positionOf(0.3));
    slider.setValue(123.456);
    QCOMPARE(slider.value(), 123.0);
    slider.setValue(1e9);
    QCOMPARE(slider.value(), 1e4);
    // The spin box reads what it shows.
    QCOMPARE(slider.spinBox()->textFromValue(0.3), QStringLiteral("0.3"));
    QCOMPARE(slider.spinBox()->textFromValue(1e4), QStringLiteral("10000"));
    QCOMPARE(slider.spinBox()->textFromValue(0.0125), QStringLiteral("0.0125"));
    QCOMPARE(slider.spinBox()->valueFromText(QStringLiteral("1e3")), 1000.0);
}

void TestLogSlider::spinBoxTextAndSteps()
{
    LogSpinBox spin;
    spin.setRange(1e-3, 1e3);
    QCOMPARE(spin.textFromValue(0.001), QStringLiteral("0.001"));
    QCOMPARE(spin.textFromValue(0.00125), QStringLiteral("0.00125"));
    QCOMPARE(spin.textFromValue(1), QStringLiteral("1"));
    QCOMPARE(spin.textFromValue(1234), QStringLiteral("1230"));
    QCOMPARE(spin.valueFromText(QStringLiteral("5e-2")), 0.05);
    QCOMPARE(spin.valueFromText(QStringLiteral("1e9")), 1e3); // clamped
    int position = 0;
    QString text = QStringLiteral("abc");
    QCOMPARE(spin.validate(text, position), QValidator::Invalid);
    text = QStringLiteral("1e");
    QCOMPARE(spin.validate(text, position), QValidator::Intermediate);
    text = QStringLiteral("0.5");
    QCOMPARE(spin.validate(text, position), QValidator::Acceptable);

    // kStepsPerDecade steps make a decade, each rounded to 3 significant digits.
    spin.setValue(100);
    spin.stepBy(1);
    QCOMPARE(spin.value(), 126.0);
    spin.setValue(100);
    spin.stepBy(LogSpinBox::kStepsPerDecade);
    QCOMPARE(spin.value(), 1000.0);
    spin.stepBy(1);
    QCOMPARE(spin.value(), 1000.0); // at the maximum
    spin.setValue(1);
    spin.stepBy(-LogSpinBox::kStepsPerDecade);
    QCOMPARE(spin.value(), 0.1);
}

#include "facet_test.h"
FACET_TEST_MAIN(TestLogSlider)
#include "test_log_slider.moc"
