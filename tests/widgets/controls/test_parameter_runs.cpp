// SPDX-License-Identifier: GPL-3.0-or-later
// The parameter panel in the main window: the labelled-data rule on real loaded sets, a run through
// the Run button that carries the panel's values, PCA's undefined error shown as "n/a", and rows
// chosen before the window first shows (as facet --method does) laid out at their height.

#include "controls/control_panel.h"
#include "controls/log_slider.h"
#include "controls/parameter_panel.h"
#include "main_window/main_window.h"
#include "main_window_fixture.h"
#include "methods/registry.h"
#include "runs/run_summary.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDir>
#include <QDoubleSpinBox>
#include <QLabel>
#include <QPushButton>
#include <QRadioButton>
#include <QScrollArea>
#include <QSettings>
#include <QSignalSpy>
#include <QSlider>
#include <QSpinBox>
#include <QStandardPaths>
#include <QtTest>

#include <algorithm>
#include <cmath>
#include <limits>
#include <memory>

using namespace facet;
using namespace facet::testing;

class TestParameterRuns : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void semiSupervisedControlsNeedLabels();
    void runButtonCarriesThePanelValues();
    void pcaErrorShowsAsNotAvailable();
    void cfFamilyStopPointsAtTheKMeansStart();
    void summaryGivesTheReturnedFactorsObjective();
    void rowsChosenBeforeTheWindowShowsGetTheirHeight();
    void screenshots();
};

void TestParameterRuns::initTestCase()
{
    useTestSettings(QStringLiteral("widgets_parameter_runs"));
}

void TestParameterRuns::semiSupervisedControlsNeedLabels()
{
    auto window = makeWindow();
    ControlPanel* controls = window->controlPanel();
    ParameterPanel* panel = controls->parameterPanel();
    QVERIFY(controls->setMethod(QStringLiteral("cnmf")));
    QVERIFY(!panel->labeledFractionRadio()->isEnabled()); // nothing loaded yet

    QVERIFY(load(*window, QStringLiteral("builtin:swimmer")));
    QVERIFY(!window->dataset()->hasLabels());
    for (const char* method : { "cnmf", "ccf", "semignmf" }) {
        QVERIFY(controls->setMethod(QString::fromLatin1(method)));
        QVERIFY(panel->labeledFractionRadio()->isVisible());
        QVERIFY(!panel->labeledFractionRadio()->isEnabled());
        QVERIFY(!panel->labeledPerClassRadio()->isEnabled());
        QVERIFY(!panel->labeledFractionSpin()->isEnabled());
        QVERIFY(!panel->labeledPerClassSpin()->isEnabled());
        QVERIFY(panel->labelsNote()->isVisible());
        QVERIFY(panel->labelsNote()->text().contains(u"no class labels"));
        const RunOptions options = controls->runOptions();
        QCOMPARE(options.labeledFraction, 0.0);
        QCOMPARE(options.labeledPerClass, 0);
    }

    QVERIFY(load(*window, QStringLiteral("builtin:gaussians")));
    QVERIFY(window->dataset()->hasLabels());
    QVERIFY(controls->setMethod(QStringLiteral("ccf")));
    QVERIFY(panel->labeledFractionRadio()->isEnabled());
    QVERIFY(panel->labeledPerClassRadio()->isEnabled());
    QVERIFY(panel->labeledFractionSpin()->isEnabled());
    QVERIFY(!panel->labeledPerClassSpin()->isEnabled()); // the fraction is chosen
    QVERIFY(!panel->labelsNote()->isVisible());
    QCOMPARE(controls->runOptions().labeledFraction, 0.3);
    QCOMPARE(controls->runOptions().labeledPerClass, 0);
    QTest::mouseClick(panel->labeledPerClassRadio(), Qt::LeftButton);
    QVERIFY(panel->labeledPerClassSpin()->isEnabled());
    QVERIFY(!panel->labeledFractionSpin()->isEnabled());
    panel->labeledPerClassSpin()->setValue(4);
    QCOMPARE(controls->runOptions().labeledFraction, 0.0);
    QCOMPARE(controls->runOptions().labeledPerClass, 4);

    // A semi-supervised run on the labelled set gets the labels of 2 per class.
    panel->setLabeledPerClass(2);
    controls->setRank(3);
    controls->setMaxIterations(40);
    QSignalSpy finished(window.get(), &MainWindow::runFinished);
    QTest::mouseClick(controls->runButton(), Qt::LeftButton);
    QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, kRunTimeoutMs);
    QCOMPARE(window->lastSubmittedOptions().labeledPerClass, 2);
    const auto result = finished.at(0).at(0).value<RunResult>();
    if (findMethod("ccf")->semiSupervised) {
        QCOMPARE(int(std::count_if(result.knownLabels.begin(), result.knownLabels.end(),
                     [](int label) { return label >= 0; })),
            3 * 2);
    } else {
        qWarning("the catalog does not mark ccf as semi-supervised: no labels were drawn");
    }
}

void TestParameterRuns::runButtonCarriesThePanelValues()
{
    auto window = makeWindow();
    QVERIFY(load(*window, QStringLiteral("builtin:gaussians"))); // 150 labelled points
    ControlPanel* controls = window->controlPanel();
    ParameterPanel* panel = controls->parameterPanel();
    QVERIFY(controls->setMethod(QStringLiteral("lccf")));
    controls->setRank(3);
    controls->setMaxIterations(60);
    controls->setSeed(11);
    const int position = panel->lambdaSlider()->positionOf(20);
    panel->lambdaSlider()->slider()->setValue(position);
    panel->setNeighbours(6);
    auto* replicates = panel->findChild<QSpinBox*>(QStringLiteral("replicatesSpin"));
    replicates->setValue(2);
    auto* cosine = panel->findChild<QCheckBox*>(QStringLiteral("cosineCheck"));
    cosine->setChecked(true);
    auto* init = panel->findChild<QComboBox*>(QStringLiteral("initCombo"));
    init->setCurrentIndex(init->findData(QStringLiteral("kmeans")));

    QSignalSpy finished(window.get(), &MainWindow::runFinished);
    QSignalSpy failed(window.get(), &MainWindow::runFailed);
    QTest::mouseClick(controls->runButton(), Qt::LeftButton);
    QTRY_VERIFY_WITH_TIMEOUT(finished.count() + failed.count() == 1, kRunTimeoutMs);
    QVERIFY2(failed.isEmpty(), failed.isEmpty() ? "" : qPrintable(failed.at(0).at(0).toString()));

    const RunOptions& sent = window->lastSubmittedOptions();
    QCOMPARE(QString::fromStdString(sent.method), QStringLiteral("lccf"));
    QCOMPARE(sent.params.rank, 3);
    QCOMPARE(sent.driver.maxIter, 60);
    QCOMPARE(sent.driver.seed, std::uint64_t(11));
    QCOMPARE(sent.params.lambda.value_or(-1), panel->lambdaSlider()->valueAt(position));
    QCOMPARE(sent.params.lambda.value_or(-1), 20.0);
    QCOMPARE(sent.params.p, 6);
    QCOMPARE(sent.params.weight, GraphWeight::Binary);
    QCOMPARE(sent.driver.replicates, 2);
    QVERIFY(sent.cluster.cosine);
    QCOMPARE(sent.cluster.mode, ClusterMode::KMeans);
    QVERIFY(sent.params.initSet);
    QCOMPARE(sent.params.init, InitKind::KMeans);

    const auto result = finished.at(0).at(0).value<RunResult>();
    QCOMPARE(int(result.factorization.V.cols()), 3);
    QVERIFY(result.ac.has_value());
    QVERIFY(!window->isRunning());
}

void TestParameterRuns::pcaErrorShowsAsNotAvailable()
{
    QCOMPARE(
        formatReconstructionError(std::numeric_limits<double>::quiet_NaN()), QStringLiteral("n/a"));
    QCOMPARE(formatReconstructionError(0.25), QStringLiteral("0.2500"));

    auto window = makeWindow();
    QVERIFY(load(*window, QStringLiteral("builtin:gaussians")));
    ControlPanel* controls = window->controlPanel();
    QVERIFY(controls->setMethod(QStringLiteral("pca")));
    controls->setRank(2);
    QSignalSpy finished(window.get(), &MainWindow::runFinished);
    QTest::mouseClick(controls->runButton(), Qt::LeftButton);
    QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, kRunTimeoutMs);
    QVERIFY(std::isnan(finished.at(0).at(0).value<RunResult>().reconstructionError));
    const auto* summary = controls->findChild<QLabel*>(QStringLiteral("resultSummary"));
    QVERIFY(summary);
    QVERIFY2(summary->text().contains(u"n/a"), qPrintable(summary->text()));
    QVERIFY2(!summary->text().contains(u"nan", Qt::CaseInsensitive), qPrintable(summary->text()));
}

// METHODS.md 0: CF-family methods leave a random start slowly, so a run of one that the limit
// stopped while still decreasing suggests the k-means start, and only then.
void TestParameterRuns::cfFamilyStopPointsAtTheKMeansStart()
{
    Factorization stopped;
    stopped.stopReason = StopReason::MaxIterations;
    stopped.stillDecreasing = true;
    stopped.randomStart = true; // the start the method resolved (test_experiment: startIsRecorded)
    stopped.iterations = 300;
    const auto options = [](const char* method) {
        RunOptions o;
        o.method = method;
        o.params.rank = 10;
        o.driver.maxIter = 300;
        return o;
    };
    // Whether the advice is given; the description always keeps the limit and the way on.
    bool keepsTheLimit = true;
    const auto advises = [&](const Factorization& f, const RunOptions& o) {
        const QString text = stopDescription(f, o);
        const bool advice = text.contains(u"Start: k-means");
        keepsTheLimit = keepsTheLimit
            && (f.stopReason != StopReason::MaxIterations || text.contains(u"(300)"))
            && (!advice || text.contains(u"raise Max iterations"));
        return advice && suggestsKMeansStart(f, o);
    };
    for (const char* method : { "cf", "lccf", "lcf", "ccf" })
        QVERIFY2(advises(stopped, options(method)), method);
    // Another start (k-means, NNDSVD, NMF's factors: CCF's default), the NMF family, a run that
    // converged or reached the limit already flat: no advice.
    Factorization otherStart = stopped;
    otherStart.randomStart = false;
    QVERIFY(!advises(otherStart, options("lccf")));
    QVERIFY(!advises(stopped, options("nmf")));
    QVERIFY(!advises(stopped, options("gnmf")));
    Factorization flat = stopped;
    flat.stillDecreasing = false;
    QVERIFY(!advises(flat, options("lccf")));
    Factorization converged = stopped;
    converged.stopReason = StopReason::Converged;
    QVERIFY(!advises(converged, options("lccf")));
    QVERIFY(keepsTheLimit);
    // Methods that Run > Continue takes on from their factors point at it; the others do not.
    for (const char* method : { "cf", "lccf", "lcf", "ccf", "nmf", "gnmf", "semignmf", "cnmf" })
        QVERIFY2(stopDescription(stopped, options(method)).contains(u"continue it (Ctrl+Shift+C)"),
            method);
    // CF_OGL starts from W, V (--init-from) but learns its graph anew: not a continuation.
    QVERIFY(!stopDescription(stopped, options("cf-ogl")).contains(u"continue it"));
    QVERIFY(!stopDescription(stopped, options("kmeans")).contains(u"continue it"));
    RunOptions weighted = options("nmf");
    weighted.params.ncw = true; // NCW maps the exported factors back into its weighted problem
    QVERIFY(stopDescription(stopped, weighted).contains(u"continue it"));
    QVERIFY(!stopDescription(flat, options("nmf")).contains(u"continue it"));
    // A continued run stops at Max iterations after the ones it continued: 300 + 20.
    Factorization continued = stopped;
    continued.iterations = 320;
    RunOptions more = options("nmf");
    more.driver.maxIter = 20;
    QVERIFY2(stopDescription(continued, more).contains(u"iteration limit (320)"),
        qPrintable(stopDescription(continued, more)));
    // The status line and the summary carry the same advice.
    RunResult result;
    result.factorization = stopped;
    QVERIFY(runStatusLine(result, options("lccf")).contains(u"Start: k-means"));
    QVERIFY(runSummaryHtml(result, options("lccf")).contains(u"Start: k-means"));
    QVERIFY(runSummaryHtml(result, options("lccf")).contains(u"near the data mean"));
    QVERIFY(!runSummaryHtml(result, options("nmf")).contains(u"near the data mean"));
}

void TestParameterRuns::summaryGivesTheReturnedFactorsObjective()
{
    // A graph method's normalization rescales V: the summary names both objectives. Where the
    // normalization keeps the objective (to rounding) it gives one.
    RunOptions lccf;
    lccf.method = "lccf";
    lccf.params.rank = 10;
    RunResult result;
    result.factorization.method = "lccf";
    result.factorization.history = { 3.0e5, 2.5e5 };
    result.factorization.iterations = 2;
    result.factorization.returnedObjective = 41.5;
    QString html = runSummaryHtml(result, lccf);
    QVERIFY2(html.contains(QStringLiteral("Returned factors"))
            && html.contains(QStringLiteral("objective 41.5:")),
        qPrintable(html));
    result.factorization.returnedObjective = 2.5e5 * (1 + 1e-9);
    html = runSummaryHtml(result, lccf);
    QVERIFY2(!html.contains(QStringLiteral("Returned factors")), qPrintable(html));
    QVERIFY(!html.contains(QStringLiteral("Graph components")));
    // CF_OGL's learned graph with exactly c components: their own AC and NMI (METHODS.md 3),
    // which only facet-cli run printed.
    RunOptions ogl = lccf;
    ogl.method = "cf-ogl";
    result.factorization.method = "cf-ogl";
    result.clusters = 15;
    result.graphAc = 0.4364;
    result.graphNmi = 0.4779;
    html = runSummaryHtml(result, ogl);
    QVERIFY2(html.contains(QStringLiteral("Graph components"))
            && html.contains(QStringLiteral("AC 0.436 / NMI 0.478"))
            && html.contains(QStringLiteral("15 components")),
        qPrintable(html));
}

void TestParameterRuns::rowsChosenBeforeTheWindowShowsGetTheirHeight()
{
    // As facet --method does: the method is chosen before the window is first shown.
    MainWindow window;
    window.setErrorDialogsEnabled(false);
    ParameterPanel* panel = window.controlPanel()->parameterPanel();
    QVERIFY(window.controlPanel()->setMethod(QStringLiteral("semignmf")));
    window.resize(1400, 900);
    window.show();
    QVERIFY(load(window, QStringLiteral("builtin:swimmer")));
    QTRY_VERIFY(panel->lambdaSlider()->height() > 10);
    QVERIFY(panel->neighboursSpin()->height() > 10);
    QVERIFY(panel->labeledFractionRadio()->height() > 10);
    QVERIFY(panel->labelsNote()->height() > 10);
    // Rows do not overlap.
    QVERIFY(panel->lambdaSlider()->geometry().bottom()
        < panel->neighboursSpin()->mapTo(panel, QPoint(0, 0)).y());
}

void TestParameterRuns::screenshots()
{
    // For looking at, not asserting on: the panel of the busiest methods at the default size.
    auto window = makeWindow();
    QVERIFY(load(*window, QStringLiteral("builtin:gaussians")));
    for (const char* method : { "lccf", "cf-ogl", "ccf" }) {
        QVERIFY(window->controlPanel()->setMethod(QString::fromLatin1(method)));
        QCoreApplication::processEvents(); // the panel's new rows lay out
        QCoreApplication::processEvents(); // and the scroll area follows
        const QString path
            = QDir::current().filePath(QStringLiteral("parameter_panel_%1.png").arg(method));
        QVERIFY2(window->grab().save(path, "PNG"), qPrintable(path));
        // Meant to fit 1400 x 900 without scrolling; fonts differ, so this is a note, not a rule.
        const auto* scroll = window->findChild<QScrollArea*>(QStringLiteral("controlsScroll"));
        QVERIFY(scroll);
        if (scroll->widget()->height() > scroll->viewport()->height())
            qWarning("the controls of %s need %d pixels, the window shows %d", method,
                scroll->widget()->height(), scroll->viewport()->height());
    }
}

#include "facet_test.h"
FACET_TEST_MAIN(TestParameterRuns)
#include "test_parameter_runs.moc"
