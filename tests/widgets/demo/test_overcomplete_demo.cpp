// SPDX-License-Identifier: GPL-3.0-or-later
// The 2-D overcomplete-basis demo (METHODS.md section 7) driven like a user: the default picture
// is the one the spec promises, a centre dragged with the mouse re-runs both panels on the new
// data, settings re-run the side they concern, Animate plays the basis path, panels export, and
// closing mid-run is clean.
#include "controls/log_slider.h"
#include "demo/demo_controls.h"
#include "demo/demo_panel.h"
#include "demo/overcomplete_demo.h"
#include "metrics/cluster_alignment.h"
#include "screenshot.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDir>
#include <QFileInfo>
#include <QImage>
#include <QPointer>
#include <QSignalSpy>
#include <QSpinBox>
#include <QtTest>
#include <qcustomplot.h>

#include <memory>

using namespace facet;
using facet::testing::saveScreenshot;

namespace {

constexpr int kDemoRunTimeoutMs = 60000;

std::unique_ptr<OvercompleteDemo> makeDemo()
{
    auto demo = std::make_unique<OvercompleteDemo>();
    demo->resize(1400, 820);
    demo->show();
    return demo;
}

bool idle(const OvercompleteDemo& demo)
{
    return !demo.isRunning(0) && !demo.isRunning(1);
}

// Waits for both sides' first results and for the queued replots, so pixel positions are valid.
void waitForRuns(OvercompleteDemo& demo, int atLeast = 1)
{
    QTRY_VERIFY_WITH_TIMEOUT(
        idle(demo) && demo.runCount(0) >= atLeast && demo.runCount(1) >= atLeast,
        kDemoRunTimeoutMs);
    QCoreApplication::processEvents();
}

// On the box's indicator: a check box reacts to clicks on its indicator and text only.
void clickAnimate(OvercompleteDemo& demo)
{
    QCheckBox* box = demo.controls()->animateBox();
    QTest::mouseClick(box, Qt::LeftButton, {}, QPoint(8, box->height() / 2));
}

Eigen::MatrixXd centres(const GaussiansOptions& gaussians)
{
    Eigen::MatrixXd c(2, Eigen::Index(gaussians.components.size()));
    for (std::size_t i = 0; i < gaussians.components.size(); ++i)
        c.col(Eigen::Index(i)) << gaussians.components[i].x, gaussians.components[i].y;
    return c;
}

Eigen::Vector2d classMean(const Dataset& data, int label)
{
    Eigen::Vector2d sum = Eigen::Vector2d::Zero();
    int count = 0;
    for (Eigen::Index i = 0; i < data.X.cols(); ++i)
        if (data.labels[std::size_t(i)] == label) {
            sum += data.X.col(i).cast<double>();
            ++count;
        }
    return sum / std::max(count, 1);
}

Eigen::VectorXd basisDistances(const OvercompleteDemo& demo, int side)
{
    return nearestCentreDistances(
        demo.lastRun(side)->result.factorization.basis.cast<double>(), centres(demo.gaussians()));
}

} // namespace

class TestOvercompleteDemo : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void defaultPictureIsTheSpecs();
    void draggingACentreReRunsBothPanels();
    void newDragCancelsRunsInFlight();
    void methodChangeReRunsItsSide();
    void animatePlaysTheBasisPath();
    void exportsPanels();
    void closingMidRunIsClean();
};

void TestOvercompleteDemo::defaultPictureIsTheSpecs()
{
    auto demo = makeDemo();
    waitForRuns(*demo);
    QCOMPARE(demo->controls()->method(0), QStringLiteral("nmf"));
    QCOMPARE(demo->controls()->method(1), QStringLiteral("lcf"));
    QCOMPARE(demo->controls()->rank(), 3);
    QVERIFY(demo->controls()->demoMethods().contains(QStringLiteral("gnmf")));
    QVERIFY(demo->controls()->demoMethods().contains(QStringLiteral("lccf")));
    QVERIFY(demo->controls()->demoMethods().contains(QStringLiteral("cf")));
    QVERIFY(!demo->controls()->lambdaSlider(0)->isEnabled()); // NMF has no lambda
    QVERIFY(demo->controls()->lambdaSlider(1)->isEnabled());
    QCOMPARE(demo->controls()->lambda(1).value_or(0), 0.3);
    QCOMPARE(demo->dataset()->samples(), 150);

    for (int side = 0; side < 2; ++side) {
        const TracedRun* run = demo->lastRun(side);
        QVERIFY(run);
        const Matrix& basis = run->result.factorization.basis;
        QCOMPARE(basis.rows(), 2);
        QCOMPARE(basis.cols(), 3);
        // What the panel draws is the run's basis, over the data the run saw.
        QVERIFY(demo->panel(side)->basis() == basis);
        QCOMPARE(demo->lastRunData(side), demo->dataset());
        QVERIFY(demo->panel(side)->title().contains(QStringLiteral("AC")));
        QVERIFY(demo->panel(side)->subtitle().contains(QStringLiteral("nearest centre")));
        // One colour per cluster: three well separated Gaussians give three clusters.
        QCOMPARE(demo->panel(side)->pointGraphCount(), 3);
    }
    QVERIFY(demo->panel(0)->title().startsWith(QStringLiteral("NMF")));
    QVERIFY(demo->panel(1)->title().startsWith(QStringLiteral("LCF")));

    // METHODS.md 7: LCF's basis vectors sit at the cluster centres (each within 1.5 spreads),
    // NMF's lie far from the data (its unit-norm columns of U sit near the origin).
    const double spread = demo->gaussians().components[0].spread;
    const Eigen::VectorXd lcf = basisDistances(*demo, 1);
    const Eigen::VectorXd nmf = basisDistances(*demo, 0);
    QVERIFY2(lcf.maxCoeff() < 1.5 * spread,
        qPrintable(QStringLiteral("LCF basis %1 from a centre").arg(lcf.maxCoeff())));
    QVERIFY2(nmf.mean() > 3 * lcf.mean(),
        qPrintable(QStringLiteral("NMF %1 vs LCF %2").arg(nmf.mean()).arg(lcf.mean())));
    // Each Gaussian has its own LCF basis vector: the nearest basis of every centre is close.
    const Eigen::VectorXd centreToBasis = nearestCentreDistances(
        centres(demo->gaussians()), demo->lastRun(1)->result.factorization.basis.cast<double>());
    QVERIFY(centreToBasis.maxCoeff() < 1.5 * spread);

    // Equal scales: one data unit spans as many pixels on x as on y.
    QCustomPlot* plot = demo->panel(0)->plot();
    const double xScale = plot->axisRect()->width() / plot->xAxis->range().size();
    const double yScale = plot->axisRect()->height() / plot->yAxis->range().size();
    QVERIFY2(std::abs(xScale - yScale) < 0.01 * xScale,
        qPrintable(QStringLiteral("%1 vs %2 px per unit").arg(xScale).arg(yScale)));
    saveScreenshot(*demo, QStringLiteral("overcomplete_demo_default.png"));
    // The size of a dock beside the main window's views.
    demo->resize(900, 620);
    saveScreenshot(*demo, QStringLiteral("overcomplete_demo_small.png"));
}

void TestOvercompleteDemo::draggingACentreReRunsBothPanels()
{
    auto demo = makeDemo();
    waitForRuns(*demo);
    DemoPanel* panel = demo->panel(0);
    QCustomPlot* plot = panel->plot();
    plot->replot();

    const int component = 1; // (7, 7.5): dragged left and down
    const QPoint from = demo->centreHandlePosition(component, 0).toPoint();
    const QPoint to = from + QPoint(-150, 110);
    QVERIFY(plot->rect().contains(from));
    QCOMPARE(panel->handleAt(from), component);
    const QPointF expected = panel->pixelToData(to) - panel->pixelToData(from);
    QVERIFY(std::abs(expected.x()) > 1 && std::abs(expected.y()) > 1);

    const GaussiansOptions before = demo->gaussians();
    const Eigen::Vector2d meanBefore = classMean(*demo->lastRunData(1), component);
    const int runs0 = demo->runCount(0), runs1 = demo->runCount(1);

    QTest::mousePress(plot, Qt::LeftButton, {}, from);
    QVERIFY(panel->isDragging());
    QTest::mouseMove(plot, from + (to - from) / 2);
    QTest::mouseMove(plot, to);
    QTest::mouseRelease(plot, Qt::LeftButton, {}, to);
    QVERIFY(!panel->isDragging());

    // The handle moved with the mouse at once, in both panels.
    const Gaussian2D& moved = demo->gaussians().components[std::size_t(component)];
    const Gaussian2D& old = before.components[std::size_t(component)];
    QVERIFY2(std::abs(moved.x - old.x - expected.x()) < 0.1
            && std::abs(moved.y - old.y - expected.y()) < 0.1,
        qPrintable(QStringLiteral("moved by (%1, %2), dragged (%3, %4)")
                       .arg(moved.x - old.x)
                       .arg(moved.y - old.y)
                       .arg(expected.x())
                       .arg(expected.y())));
    for (int c : { 0, 2 }) {
        QCOMPARE(
            demo->gaussians().components[std::size_t(c)].x, before.components[std::size_t(c)].x);
        QCOMPARE(
            demo->gaussians().components[std::size_t(c)].y, before.components[std::size_t(c)].y);
    }
    const QPointF handle = demo->panel(1)->centreHandlePosition(component);
    QVERIFY(std::abs(handle.x() - to.x()) < 2 && std::abs(handle.y() - to.y()) < 2);

    // Both panels re-ran, on the regenerated data.
    QTRY_VERIFY_WITH_TIMEOUT(
        idle(*demo) && demo->runCount(0) > runs0 && demo->runCount(1) > runs1, kDemoRunTimeoutMs);
    QCOMPARE(demo->lastRunData(0), demo->dataset());
    QCOMPARE(demo->lastRunData(1), demo->dataset());
    const Eigen::Vector2d shift = classMean(*demo->dataset(), component) - meanBefore;
    QVERIFY2(std::abs(shift.x() - expected.x()) < 0.3 && std::abs(shift.y() - expected.y()) < 0.3,
        qPrintable(QStringLiteral("the Gaussian's points moved by (%1, %2)")
                       .arg(shift.x())
                       .arg(shift.y())));
    // The results are of the new data: LCF has a basis vector at the moved centre.
    const Eigen::VectorXd centreToBasis = nearestCentreDistances(
        centres(demo->gaussians()), demo->lastRun(1)->result.factorization.basis.cast<double>());
    QVERIFY2(centreToBasis(component) < 1.5 * moved.spread,
        qPrintable(QStringLiteral("no LCF basis near the moved centre: %1")
                       .arg(centreToBasis(component))));
    QCOMPARE(int(demo->lastRun(0)->result.predicted.size()), demo->dataset()->samples());
    saveScreenshot(*demo, QStringLiteral("overcomplete_demo_dragged.png"));
}

void TestOvercompleteDemo::newDragCancelsRunsInFlight()
{
    auto demo = makeDemo();
    waitForRuns(*demo);
    // A slow run (CF_OGL solves an eigenproblem per outer iteration on 900 points) in flight.
    demo->controls()->setMethod(0, QStringLiteral("cf-ogl"));
    demo->controls()->countSpin()->setValue(900);
    QTest::qWait(OvercompleteDemo::kDebounceMs + 30);
    QVERIFY(demo->isRunning(0));
    const std::shared_ptr<const Dataset> inFlight = demo->dataset();
    const int runs = demo->runCount(0);

    DemoPanel* panel = demo->panel(0);
    QCustomPlot* plot = panel->plot();
    plot->replot();
    const QPoint from = demo->centreHandlePosition(2, 0).toPoint();
    QTest::mousePress(plot, Qt::LeftButton, {}, from);
    QTest::mouseMove(plot, from + QPoint(40, 0));
    QTest::mouseRelease(plot, Qt::LeftButton, {}, from + QPoint(40, 0));
    QTRY_VERIFY_WITH_TIMEOUT(idle(*demo) && demo->runCount(0) > runs, kDemoRunTimeoutMs);
    // Only the run of the dragged data answered: the one in flight was cancelled and dropped.
    QCOMPARE(demo->runCount(0), runs + 1);
    QVERIFY(demo->dataset() != inFlight);
    QCOMPARE(demo->lastRunData(0), demo->dataset());
    QCOMPARE(demo->lastRun(0)->result.factorization.method, std::string("cf-ogl"));
    QVERIFY(demo->lastRun(0)->result.factorization.stopReason != StopReason::Cancelled);
}

void TestOvercompleteDemo::methodChangeReRunsItsSide()
{
    auto demo = makeDemo();
    waitForRuns(*demo);
    const int runs0 = demo->runCount(0), runs1 = demo->runCount(1);
    QComboBox* combo = demo->controls()->methodCombo(1);
    combo->setCurrentIndex(combo->findData(QStringLiteral("gnmf")));
    QCOMPARE(demo->controls()->lambda(1).value_or(0), 100.0); // GNMF's default
    QTRY_VERIFY_WITH_TIMEOUT(idle(*demo) && demo->runCount(1) > runs1, kDemoRunTimeoutMs);
    QCOMPARE(demo->runCount(0), runs0); // the other side kept its result
    QCOMPARE(demo->lastRun(1)->result.factorization.method, std::string("gnmf"));
    QVERIFY(demo->panel(1)->title().startsWith(QStringLiteral("GNMF")));

    // k applies to both sides.
    demo->controls()->rankSpin()->setValue(4);
    QTRY_VERIFY_WITH_TIMEOUT(
        idle(*demo) && demo->runCount(0) > runs0 && demo->runCount(1) > runs1 + 1,
        kDemoRunTimeoutMs);
    QCOMPARE(demo->lastRun(0)->result.factorization.basis.cols(), 4);
    QCOMPARE(demo->lastRun(1)->result.factorization.basis.cols(), 4);
    QCOMPARE(demo->panel(0)->basis().cols(), 4);
}

void TestOvercompleteDemo::animatePlaysTheBasisPath()
{
    auto demo = makeDemo();
    waitForRuns(*demo);
    QVERIFY(demo->lastRun(1)->frames.empty()); // no path is recorded until Animate is on

    // The picture right when a result arrives: with Animate on, the start of the path.
    std::array<Matrix, 2> shownAtArrival;
    connect(demo.get(), &OvercompleteDemo::panelFinished, this,
        [&](int side) { shownAtArrival[std::size_t(side)] = demo->panel(side)->basis(); });
    QSignalSpy played(demo.get(), &OvercompleteDemo::animationFinished);
    const int runs1 = demo->runCount(1);
    clickAnimate(*demo);
    QVERIFY(demo->controls()->animate());
    QTRY_VERIFY_WITH_TIMEOUT(demo->runCount(1) > runs1, kDemoRunTimeoutMs);

    const TracedRun* run = demo->lastRun(1);
    const Factorization& f = run->result.factorization;
    QCOMPARE(int(run->frames.size()), f.iterations + 1);
    QVERIFY(shownAtArrival[1] == run->frames.front().basis);
    QVERIFY(!(shownAtArrival[1] == f.basis));
    QTRY_VERIFY_WITH_TIMEOUT(demo->framesPlayed(1) >= 20, kDemoRunTimeoutMs);
    saveScreenshot(*demo, QStringLiteral("overcomplete_demo_animating.png"));

    QTRY_VERIFY_WITH_TIMEOUT(played.count() >= 2, kDemoRunTimeoutMs);
    QVERIFY(!demo->isAnimating(0) && !demo->isAnimating(1));
    // Every frame of the schedule was shown, and the animation ends on the run's basis.
    QVERIFY(demo->framesPlayed(1) >= std::min(int(run->frames.size()), 60));
    QVERIFY(demo->panel(1)->basis() == f.basis);
    QVERIFY(demo->panel(1)->subtitle().contains(QStringLiteral("nearest centre")));
    // LCF's path: from the start to the centres (METHODS.md 7), so the bases moved a lot.
    const Eigen::MatrixXd start = run->frames.front().basis.cast<double>();
    QVERIFY((start - f.basis.cast<double>()).norm() > 3);

    // Toggling off and on replays the recorded path without a new run.
    const int runsNow = demo->runCount(1);
    const int framesNow = demo->framesPlayed(1);
    clickAnimate(*demo);
    QVERIFY(!demo->controls()->animate());
    clickAnimate(*demo);
    QVERIFY(demo->isAnimating(1));
    QTRY_VERIFY_WITH_TIMEOUT(played.count() >= 4, kDemoRunTimeoutMs);
    QVERIFY(demo->framesPlayed(1) > framesNow + 10);
    QCOMPARE(demo->runCount(1), runsNow);
}

void TestOvercompleteDemo::exportsPanels()
{
    auto demo = makeDemo();
    waitForRuns(*demo);
    const QString png = QDir::current().filePath(QStringLiteral("overcomplete_demo_left.png"));
    const QString pdf = QDir::current().filePath(QStringLiteral("overcomplete_demo_right.pdf"));
    QFile::remove(png);
    QFile::remove(pdf);
    QVERIFY(demo->exportPanel(0, png));
    QVERIFY(demo->exportPanel(1, pdf));
    const QImage image(png);
    QCOMPARE(image.width(), 2 * demo->panel(0)->plot()->width());
    QVERIFY(QFileInfo(pdf).size() > 1000);
    QFile file(pdf);
    QVERIFY(file.open(QIODevice::ReadOnly));
    QVERIFY(file.read(5) == "%PDF-");
    QVERIFY(demo->panel(0)->exportButton()->isEnabled());
}

void TestOvercompleteDemo::closingMidRunIsClean()
{
    auto demo = makeDemo();
    waitForRuns(*demo);
    // A slower pair on more points (CF_OGL solves an eigenproblem per outer iteration), then
    // close while both runs are in flight.
    demo->controls()->setMethod(0, QStringLiteral("cf-ogl"));
    demo->controls()->setMethod(1, QStringLiteral("lccf"));
    demo->controls()->countSpin()->setValue(900);
    demo->moveCentre(0, QPointF(3, 3));
    QTest::qWait(OvercompleteDemo::kDebounceMs + 30); // the debounce fired: the workers are busy
    QVERIFY(demo->isRunning(0));
    QSignalSpy finished(demo.get(), &OvercompleteDemo::panelFinished);
    QVERIFY(demo->close());
    QVERIFY(!demo->isRunning(0) && !demo->isRunning(1));
    QTest::qWait(100);
    QCOMPARE(finished.count(), 0); // the cancelled runs' answers were dropped
    QPointer<OvercompleteDemo> watched(demo.get());
    demo.reset();
    QVERIFY(watched.isNull());
}

#include "facet_test.h"
FACET_TEST_MAIN(TestOvercompleteDemo)
#include "test_overcomplete_demo.moc"
