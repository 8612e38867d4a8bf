// SPDX-License-Identifier: GPL-3.0-or-later
// The parameter panel on its own: which parameters each method shows, the values that reach
// RunOptions, per-method memory, Defaults and settings. Runs through the window are in
// test_parameter_runs.cpp, the log slider's mapping in test_log_slider.cpp.

#include "controls/control_panel.h"
#include "controls/log_slider.h"
#include "controls/log_spin_box.h"
#include "controls/parameter_panel.h"
#include "methods/registry.h"
#include "screenshot.h"
#include "test_settings.h"

#include <QAbstractButton>
#include <QAbstractItemView>
#include <QAbstractSpinBox>
#include <QCheckBox>
#include <QComboBox>
#include <QLabel>
#include <QPushButton>
#include <QRadioButton>
#include <QSettings>
#include <QSlider>
#include <QSpinBox>
#include <QStandardItemModel>
#include <QStyleOptionComboBox>
#include <QTemporaryDir>
#include <QtTest>

#include <cmath>

using namespace facet;

namespace {

// What each method reads (METHODS.md and the registry entries), in the panel's display order.
QStringList expectedParameters(const QString& method)
{
    static const QHash<QString, QString> expected {
        { QStringLiteral("nmf"),
            QStringLiteral("ncw init algorithm replicates clusterMode cosine") },
        { QStringLiteral("cf"),
            QStringLiteral("kernel generalForm ncw init algorithm replicates clusterMode cosine") },
        { QStringLiteral("lccf"),
            QStringLiteral("lambda p weight kernel generalForm ncw init algorithm replicates "
                           "clusterMode cosine") },
        { QStringLiteral("gnmf"),
            QStringLiteral("lambda p weight algorithm replicates clusterMode cosine") },
        { QStringLiteral("semignmf"),
            QStringLiteral("lambda p weight algorithm replicates clusterMode cosine labels") },
        { QStringLiteral("lcf"),
            QStringLiteral(
                "lambda kernel normalizeEach init algorithm replicates clusterMode cosine") },
        { QStringLiteral("cnmf"),
            QStringLiteral("init algorithm replicates clusterMode cosine labels") },
        { QStringLiteral("ccf"),
            QStringLiteral(
                "kernel generalForm init algorithm replicates clusterMode cosine labels") },
        { QStringLiteral("cf-ogl"),
            QStringLiteral(
                "lambda beta mu innerSteps paperVariant p replicates clusterMode cosine") },
        { QStringLiteral("kmeans"), QStringLiteral("cosine") },
        { QStringLiteral("pca"), QStringLiteral("clusterMode cosine") },
    };
    if (!expected.contains(method))
        return { QStringLiteral("<no expectation for %1: add it to this test>").arg(method) };
    return expected.value(method).split(u' ');
}

// Every control the user can operate, inside `root` and shown.
QList<QWidget*> visibleControls(QWidget* root)
{
    QList<QWidget*> controls;
    for (QWidget* widget : root->findChildren<QWidget*>()) {
        const bool control = qobject_cast<QAbstractButton*>(widget)
            || qobject_cast<QComboBox*>(widget) || qobject_cast<QAbstractSpinBox*>(widget)
            || qobject_cast<QSlider*>(widget);
        if (control && widget->isVisibleTo(root))
            controls << widget;
    }
    return controls;
}

} // namespace

class TestParameterPanel : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void eachMethodShowsExactlyItsParameters_data();
    void eachMethodShowsExactlyItsParameters();
    void dependentRowsFollowTheirChoice();
    void methodComboStatesTheObjective();
    void methodComboNeverCutsANameOff();
    void lambdaSliderReachesRunOptions();
    void cfOglParametersReachRunOptions();
    void algorithmReachesRunOptions();
    void stationarityReachesRunOptions();
    void valuesAreKeptPerMethodAndRestored();
};

void TestParameterPanel::initTestCase()
{
    facet::testing::useTestSettings(QStringLiteral("widgets_parameter_panel"));
}

void TestParameterPanel::eachMethodShowsExactlyItsParameters_data()
{
    QTest::addColumn<QString>("method");
    for (const MethodInfo& info : methodCatalog())
        QTest::newRow(info.name.c_str()) << QString::fromStdString(info.name);
}

void TestParameterPanel::eachMethodShowsExactlyItsParameters()
{
    QFETCH(QString, method);
    ControlPanel controls;
    QVERIFY(controls.setMethod(method));
    ParameterPanel* panel = controls.parameterPanel();
    const QStringList expected = expectedParameters(method);
    QCOMPARE(panel->visibleParameters(), expected);
    // The widgets themselves, not only the panel's account of them.
    QCOMPARE(panel->lambdaSlider()->isVisibleTo(panel), expected.contains(u"lambda"));
    QCOMPARE(panel->betaSlider()->isVisibleTo(panel), expected.contains(u"beta"));
    QCOMPARE(panel->muSlider()->isVisibleTo(panel), expected.contains(u"mu"));
    QCOMPARE(panel->neighboursSpin()->isVisibleTo(panel), expected.contains(u"p"));
    QCOMPARE(panel->labeledFractionRadio()->isVisibleTo(panel), expected.contains(u"labels"));
    const auto* kernel = panel->findChild<QComboBox*>(QStringLiteral("kernelCombo"));
    QCOMPARE(kernel->isVisibleTo(panel), expected.contains(u"kernel"));

    // Every control shown has a tooltip, the panel's and the rest of the control panel's.
    for (QWidget* control : visibleControls(&controls))
        QVERIFY2(!control->toolTip().isEmpty(), qPrintable(control->objectName()));
}

void TestParameterPanel::dependentRowsFollowTheirChoice()
{
    ControlPanel controls;
    ParameterPanel* panel = controls.parameterPanel();
    QVERIFY(controls.setMethod(QStringLiteral("lccf")));
    auto* weight = panel->findChild<QComboBox*>(QStringLiteral("weightCombo"));
    auto* kernel = panel->findChild<QComboBox*>(QStringLiteral("kernelCombo"));
    QVERIFY(weight && kernel);
    QVERIFY(!panel->visibleParameters().contains(u"heatT"));
    weight->setCurrentIndex(weight->findData(QStringLiteral("heat")));
    QVERIFY(panel->visibleParameters().contains(u"heatT"));
    kernel->setCurrentIndex(kernel->findData(QStringLiteral("poly")));
    QVERIFY(panel->visibleParameters().contains(u"degree"));
    QVERIFY(panel->visibleParameters().contains(u"offset"));
    QVERIFY(!panel->visibleParameters().contains(u"sigma"));
    kernel->setCurrentIndex(kernel->findData(QStringLiteral("gauss")));
    QVERIFY(panel->visibleParameters().contains(u"sigma"));
    QVERIFY(!panel->visibleParameters().contains(u"degree"));

    // heat t: auto leaves it to the solver, a value is passed on.
    auto* heatAuto = panel->findChild<QCheckBox*>(QStringLiteral("heatTAutoCheck"));
    auto* heatT = panel->findChild<LogSpinBox*>(QStringLiteral("heatTSpin"));
    QVERIFY(heatAuto && heatT);
    QVERIFY(heatAuto->isChecked());
    QVERIFY(!heatT->isEnabled());
    QVERIFY(!controls.runOptions().params.heatT.has_value());
    heatAuto->setChecked(false);
    heatT->setValue(2.5);
    const RunOptions options = controls.runOptions();
    QCOMPARE(options.params.weight, GraphWeight::Heat);
    QCOMPARE(options.params.heatT.value_or(0), 2.5);
    QCOMPARE(options.params.kernel, KernelKind::Gaussian);
    QVERIFY(!options.params.sigma.has_value());
    for (QWidget* control : visibleControls(&controls))
        QVERIFY2(!control->toolTip().isEmpty(), qPrintable(control->objectName()));
}

void TestParameterPanel::methodComboStatesTheObjective()
{
    ControlPanel controls;
    for (const MethodInfo& info : methodCatalog()) {
        QVERIFY(controls.setMethod(QString::fromStdString(info.name)));
        const QString objective = QString::fromStdString(info.objective);
        QVERIFY(!objective.isEmpty());
        QCOMPARE(controls.methodCombo()->toolTip(),
            controls.methodCombo()->currentText() + u'\n' + objective);
        QCOMPARE(controls.objectiveLabel()->text(), objective);
        QVERIFY(!objective.contains(u'\n'));
    }
}

// Issue 37, item 8: the closed box showed "LCCF — Locally Consistent C…". At the panel's width it
// now shows the full name or the short label whole, its tooltip names the method in full, and
// the popup is wide enough for the longest name.
void TestParameterPanel::methodComboNeverCutsANameOff()
{
    ControlPanel controls;
    controls.resize(330, 900); // the Controls dock's default width
    controls.show();
    QVERIFY(QTest::qWaitForWindowExposed(&controls));
    QComboBox* combo = controls.methodCombo();
    const QFontMetrics metrics = combo->fontMetrics();
    int widest = 0;
    for (const MethodInfo& info : methodCatalog()) {
        QVERIFY(controls.setMethod(QString::fromStdString(info.name)));
        const QString full = combo->currentText();
        widest = std::max(widest, metrics.horizontalAdvance(full));
        QVERIFY(combo->toolTip().startsWith(full + u'\n'));
        // What the closed box draws: the whole full name, or the whole short label.
        const QString shown = combo->property("displayedText").toString();
        QVERIFY2(shown == full || shown == QString::fromStdString(methodLabel(info.name)),
            qPrintable(shown));
        QStyleOptionComboBox option;
        option.initFrom(combo);
        const QRect room = combo->style()->subControlRect(
            QStyle::CC_ComboBox, &option, QStyle::SC_ComboBoxEditField, combo);
        QVERIFY2(metrics.horizontalAdvance(shown) <= room.width(),
            qPrintable(QStringLiteral("%1: %2 > %3")
                           .arg(shown)
                           .arg(metrics.horizontalAdvance(shown))
                           .arg(room.width())));
    }
    QVERIFY(controls.setMethod(QStringLiteral("lccf")));
    facet::testing::saveScreenshot(controls, QStringLiteral("method_combo_lccf.png"));
    combo->showPopup();
    QWidget* popup = combo->view()->window();
    QVERIFY(QTest::qWaitForWindowExposed(popup));
    QVERIFY2(combo->view()->viewport()->width() >= widest,
        qPrintable(QStringLiteral("%1 < %2").arg(combo->view()->viewport()->width()).arg(widest)));
    facet::testing::saveScreenshot(*popup, QStringLiteral("method_combo_popup.png"));
    combo->hidePopup();
}

void TestParameterPanel::lambdaSliderReachesRunOptions()
{
    ControlPanel controls;
    controls.show();
    QVERIFY(controls.setMethod(QStringLiteral("lccf")));
    ParameterPanel* panel = controls.parameterPanel();
    LogSlider* lambda = panel->lambdaSlider();
    QCOMPARE(controls.runOptions().params.lambda.value_or(-1), 100.0); // METHODS.md 1.3

    lambda->slider()->setValue(0);
    QCOMPARE(controls.runOptions().params.lambda.value_or(-1), 1e-2);
    lambda->slider()->setValue(lambda->positions());
    QCOMPARE(controls.runOptions().params.lambda.value_or(-1), 1e4);
    const int middle = lambda->positionOf(3.0);
    lambda->slider()->setValue(middle);
    const double value = controls.runOptions().params.lambda.value_or(-1);
    QCOMPARE(value, lambda->valueAt(middle));
    QCOMPARE(QString::number(value, 'g', 3).toDouble(), value);
    QVERIFY(std::abs(std::log10(value / 3.0)) <= 0.5 / LogSlider::kStepsPerDecade);

    // Typed like a user: select all, type, Enter.
    LogSpinBox* spin = lambda->spinBox();
    spin->setFocus();
    QTest::keyClick(spin, Qt::Key_A, Qt::ControlModifier);
    QTest::keyClicks(spin, QStringLiteral("0.3"));
    QTest::keyClick(spin, Qt::Key_Return);
    QCOMPARE(controls.runOptions().params.lambda.value_or(-1), 0.3);
    QCOMPARE(lambda->slider()->value(), lambda->positionOf(0.3));

    // Defaults per method; a method without lambda leaves it unset.
    QVERIFY(controls.setMethod(QStringLiteral("lcf")));
    QCOMPARE(controls.runOptions().params.lambda.value_or(-1), 0.3);
    QVERIFY(controls.setMethod(QStringLiteral("gnmf")));
    QCOMPARE(controls.runOptions().params.lambda.value_or(-1), 100.0);
    QVERIFY(controls.setMethod(QStringLiteral("nmf")));
    QVERIFY(!controls.runOptions().params.lambda.has_value());
}

// Issue 35: the stationarity rule of the hals algorithms had no control in the GUI, so a
// tolerance of 0 no longer meant "run to the limit" for NMF. Its combo reaches the run's options,
// 0 turns it off, settings keep it, and k-means and PCA grey it out with the other limits.
void TestParameterPanel::stationarityReachesRunOptions()
{
    ControlPanel controls;
    controls.show();
    QVERIFY(controls.setMethod(QStringLiteral("nmf")));
    auto* combo = controls.findChild<QComboBox*>(QStringLiteral("stationarityCombo"));
    QVERIFY(combo);
    QCOMPARE(controls.runOptions().driver.stationarityTol, DriverOptions {}.stationarityTol);
    controls.setStationarityTolerance(0);
    QCOMPARE(controls.runOptions().driver.stationarityTol, 0.0);
    QVERIFY(combo->currentText().contains(QStringLiteral("off")));
    controls.setStationarityTolerance(2e-6); // the nearest offered value
    QCOMPARE(controls.runOptions().driver.stationarityTol, 1e-6);
    QVERIFY(combo->toolTip().contains(QStringLiteral("hals")));
    const QTemporaryDir dir;
    QSettings settings(dir.filePath(QStringLiteral("s.ini")), QSettings::IniFormat);
    controls.saveSettings(settings);
    ControlPanel restored;
    restored.restoreSettings(settings);
    QCOMPARE(restored.stationarityTolerance(), 1e-6);
    QVERIFY(combo->isEnabled());
    QVERIFY(controls.setMethod(QStringLiteral("kmeans")));
    QVERIFY(!combo->isEnabled());
}

void TestParameterPanel::algorithmReachesRunOptions()
{
    ControlPanel controls;
    controls.show();
    QVERIFY(controls.setMethod(QStringLiteral("nmf")));
    auto* algorithm
        = controls.parameterPanel()->findChild<QComboBox*>(QStringLiteral("algorithmCombo"));
    QVERIFY(algorithm);
    QCOMPARE(algorithm->itemText(0), QStringLiteral("default (hals-ex)"));
    QVERIFY(!controls.runOptions().params.algorithm.has_value()); // the method's default
    algorithm->setCurrentIndex(algorithm->findData(QStringLiteral("hals")));
    QCOMPARE(controls.runOptions().params.algorithm, std::optional(Algorithm::Hals));
    algorithm->setCurrentIndex(algorithm->findData(QStringLiteral("mu")));
    QCOMPARE(controls.runOptions().params.algorithm, std::optional(Algorithm::Mu));
    // CF has the mu rules with and without extrapolation, not hals: those items are disabled.
    const auto enabled = [&](const char* name) {
        const auto* items = qobject_cast<const QStandardItemModel*>(algorithm->model());
        return items->item(algorithm->findData(QString::fromLatin1(name)))->isEnabled();
    };
    QVERIFY(enabled("hals") && enabled("hals-ex"));
    QVERIFY(controls.setMethod(QStringLiteral("cf")));
    QVERIFY(algorithm->isVisibleTo(controls.parameterPanel()));
    QCOMPARE(algorithm->itemText(0), QStringLiteral("default (mu-ex)"));
    QVERIFY(enabled("mu") && enabled("mu-ex") && !enabled("hals") && !enabled("hals-ex"));
    QVERIFY(!controls.runOptions().params.algorithm.has_value());
    algorithm->setCurrentIndex(algorithm->findData(QStringLiteral("mu")));
    QCOMPARE(controls.runOptions().params.algorithm, std::optional(Algorithm::Mu));
    // Back on NMF its own choice (mu, chosen above) returns; CF_OGL has mu only: no row.
    QVERIFY(controls.setMethod(QStringLiteral("nmf")));
    QCOMPARE(controls.runOptions().params.algorithm, std::optional(Algorithm::Mu));
    QVERIFY(controls.setMethod(QStringLiteral("cf-ogl")));
    QVERIFY(!algorithm->isVisibleTo(controls.parameterPanel()));
    QVERIFY(!controls.runOptions().params.algorithm.has_value());
    // LCF normalizing each iteration runs mu only: mu-ex leaves, and a chosen mu-ex falls back to
    // the default, which says mu.
    QVERIFY(controls.setMethod(QStringLiteral("lcf")));
    algorithm->setCurrentIndex(algorithm->findData(QStringLiteral("mu-ex")));
    auto* each
        = controls.parameterPanel()->findChild<QCheckBox*>(QStringLiteral("normalizeEachCheck"));
    QVERIFY(each);
    each->setChecked(true);
    QCOMPARE(algorithm->itemText(0), QStringLiteral("default (mu)"));
    QVERIFY(enabled("mu") && !enabled("mu-ex"));
    QVERIFY(!controls.runOptions().params.algorithm.has_value());
    algorithm->showPopup();
    QWidget* popup = algorithm->view()->window();
    QVERIFY(QTest::qWaitForWindowExposed(popup));
    facet::testing::saveScreenshot(controls, QStringLiteral("algorithm_lcf_normalize_each.png"));
    facet::testing::saveScreenshot(*popup, QStringLiteral("algorithm_popup_lcf_each.png"));
    algorithm->hidePopup();
    each->setChecked(false);
    QCOMPARE(algorithm->itemText(0), QStringLiteral("default (mu-ex)"));
    QVERIFY(enabled("mu-ex"));
}

void TestParameterPanel::cfOglParametersReachRunOptions()
{
    ControlPanel controls;
    QVERIFY(controls.setMethod(QStringLiteral("nmf")));
    QCOMPARE(controls.maxIterations(), kDefaultMaxIterations);
    QVERIFY(controls.setMethod(QStringLiteral("cf-ogl")));
    // The iteration limit counts outer iterations here, with their own default.
    QCOMPARE(controls.maxIterations(), 30);
    const auto* maxIter = controls.findChild<QSpinBox*>(QStringLiteral("maxIterSpin"));
    QVERIFY(maxIter);
    bool labelled = false;
    for (const QLabel* label : controls.findChildren<QLabel*>())
        labelled |= label->buddy() == maxIter && label->text().contains(u"Outer");
    QVERIFY(labelled);

    ParameterPanel* panel = controls.parameterPanel();
    RunOptions options = controls.runOptions();
    QCOMPARE(options.params.lambda.value_or(-1), 1.0);
    QCOMPARE(options.params.beta, 0.1);
    QCOMPARE(options.params.mu, 1.0);
    QCOMPARE(options.params.innerSteps, 10);
    QCOMPARE(options.params.outerIterations, 30);
    QCOMPARE(options.driver.maxIter, 30);

    panel->betaSlider()->slider()->setValue(0);
    panel->muSlider()->slider()->setValue(panel->muSlider()->positions());
    panel->findChild<QCheckBox*>(QStringLiteral("paperVariantCheck"))->setChecked(true);
    panel->setNeighbours(9);
    controls.setMaxIterations(12);
    options = controls.runOptions();
    QCOMPARE(options.params.beta, 1e-3);
    QCOMPARE(options.params.mu, 1e3);
    QVERIFY(options.params.paperVariant);
    QCOMPARE(options.params.p, 9);
    QCOMPARE(options.params.outerIterations, 12);
    QCOMPARE(options.driver.maxIter, 12);
    QCOMPARE(options.driver.minIter, 12);

    // Back to a plain method: its own limit again.
    QVERIFY(controls.setMethod(QStringLiteral("cf")));
    QCOMPARE(controls.maxIterations(), kDefaultMaxIterations);
    QVERIFY(controls.setMethod(QStringLiteral("cf-ogl")));
    QCOMPARE(controls.maxIterations(), 12);
}

void TestParameterPanel::valuesAreKeptPerMethodAndRestored()
{
    const QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString path = dir.filePath(QStringLiteral("facet.ini"));
    {
        ControlPanel controls;
        QVERIFY(controls.setMethod(QStringLiteral("lccf")));
        ParameterPanel* panel = controls.parameterPanel();
        panel->setLambda(5);
        panel->setNeighbours(8);
        QVERIFY(controls.setMethod(QStringLiteral("gnmf")));
        QCOMPARE(controls.runOptions().params.lambda.value_or(-1), 100.0); // its own default
        QCOMPARE(controls.runOptions().params.p, 5);
        panel->setLambda(42);
        QVERIFY(controls.setMethod(QStringLiteral("lccf")));
        QCOMPARE(controls.runOptions().params.lambda.value_or(-1), 5.0);
        QCOMPARE(controls.runOptions().params.p, 8);

        // Defaults resets the method's parameters, nothing else.
        controls.setRank(7);
        QTest::mouseClick(panel->defaultsButton(), Qt::LeftButton);
        QCOMPARE(controls.runOptions().params.lambda.value_or(-1), 100.0);
        QCOMPARE(controls.runOptions().params.p, 5);
        QCOMPARE(controls.rank(), 7);
        panel->setLambda(0.05);

        QSettings settings(path, QSettings::IniFormat);
        controls.saveSettings(settings);
    }
    QSettings settings(path, QSettings::IniFormat);
    ControlPanel restored;
    restored.restoreSettings(settings);
    QCOMPARE(restored.method(), QStringLiteral("lccf"));
    QCOMPARE(restored.rank(), 7);
    QCOMPARE(restored.runOptions().params.lambda.value_or(-1), 0.05);
    QVERIFY(restored.setMethod(QStringLiteral("gnmf")));
    QCOMPARE(restored.runOptions().params.lambda.value_or(-1), 42.0);
}

#include "facet_test.h"
FACET_TEST_MAIN(TestParameterPanel)
#include "test_parameter_panel.moc"
