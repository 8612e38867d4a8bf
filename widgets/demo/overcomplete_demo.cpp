// SPDX-License-Identifier: GPL-3.0-or-later
#include "demo/overcomplete_demo.h"

#include "controls/method_parameters.h"
#include "demo/demo_captions.h"
#include "demo/demo_controls.h"
#include "demo/demo_panel.h"
#include "demo/demo_playback.h"
#include "demo/demo_runner.h"
#include "metrics/cluster_alignment.h" // alignClustersToClasses

#include <QCloseEvent>
#include <QHBoxLayout>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace facet {

namespace {

// The driver's limits for the demo: METHODS.md 0's defaults; CF_OGL counts outer iterations.
constexpr int kMaxIterations = 300;
// Every iteration is recorded for "Animate": 300 frames of 2 x k numbers cost nothing.
constexpr int kTraceEvery = 1;
// Room around the points and centres, as a fraction of the picture's size.
constexpr double kViewPadding = 0.06;

Eigen::MatrixXd centresOf(const GaussiansOptions& gaussians)
{
    Eigen::MatrixXd centres(2, Eigen::Index(gaussians.components.size()));
    for (std::size_t c = 0; c < gaussians.components.size(); ++c)
        centres.col(Eigen::Index(c)) << gaussians.components[c].x, gaussians.components[c].y;
    return centres;
}

} // namespace

OvercompleteDemo::OvercompleteDemo(QWidget* parent)
    : QWidget(parent)
    , m_controls(new DemoControls)
{
    setObjectName(QStringLiteral("overcompleteDemo"));
    m_debounce.setSingleShot(true);
    m_debounce.setInterval(kDebounceMs);
    connect(&m_debounce, &QTimer::timeout, this, &OvercompleteDemo::runScheduled);

    auto* panels = new QHBoxLayout;
    for (int s = 0; s < kSides; ++s) {
        Side& side = m_sides[std::size_t(s)];
        side.panel = new DemoPanel;
        side.panel->setObjectName(QStringLiteral("demoPanel%1").arg(s));
        side.runner = new DemoRunner(this);
        side.playback = new DemoPlayback(this);
        panels->addWidget(side.panel, 1);

        connect(side.runner, &DemoRunner::finished, this,
            [this, s](quint64 id, std::shared_ptr<const Dataset> runData, const TracedRun& run) {
                onFinished(s, id, std::move(runData), run);
            });
        connect(side.runner, &DemoRunner::failed, this,
            [this, s](quint64 id, const QString& message) { onFailed(s, id, message); });
        connect(side.playback, &DemoPlayback::frameShown, this,
            [this, s](const BasisFrame& frame, int last) { showFrame(s, frame, last); });
        connect(side.playback, &DemoPlayback::finished, this, [this, s] {
            showResult(s);
            Q_EMIT animationFinished(s);
        });
        connect(side.panel, &DemoPanel::centrePressed, this, &OvercompleteDemo::onCentrePressed);
        connect(side.panel, &DemoPanel::centreDragged, this, &OvercompleteDemo::onCentreDragged);
        connect(side.panel, &DemoPanel::centreReleased, this, [this] { schedule(-1, true); });
    }
    connect(m_controls, &DemoControls::sideChanged, this, [this](int s) { schedule(s, false); });
    connect(m_controls, &DemoControls::dataChanged, this, [this] { schedule(-1, true); });
    connect(m_controls, &DemoControls::rankChanged, this, [this] { schedule(-1, false); });
    connect(m_controls, &DemoControls::animateToggled, this, &OvercompleteDemo::onAnimateToggled);

    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_controls);
    layout->addLayout(panels, 1);

    regenerate();
    for (int s = 0; s < kSides; ++s)
        submit(s);
}

OvercompleteDemo::~OvercompleteDemo()
{
    stop();
}

DemoPanel* OvercompleteDemo::panel(int side) const
{
    return m_sides[std::size_t(side)].panel;
}

const TracedRun* OvercompleteDemo::lastRun(int side) const
{
    const Side& s = m_sides[std::size_t(side)];
    return s.last ? &*s.last : nullptr;
}

std::shared_ptr<const Dataset> OvercompleteDemo::lastRunData(int side) const
{
    return m_sides[std::size_t(side)].lastData;
}

int OvercompleteDemo::runCount(int side) const
{
    return m_sides[std::size_t(side)].runs;
}

bool OvercompleteDemo::isRunning(int side) const
{
    return m_scheduled[std::size_t(side)] || m_sides[std::size_t(side)].runner->isRunning();
}

bool OvercompleteDemo::isAnimating(int side) const
{
    return m_sides[std::size_t(side)].playback->isPlaying();
}

int OvercompleteDemo::framesPlayed(int side) const
{
    return m_sides[std::size_t(side)].playback->framesShown();
}

QPointF OvercompleteDemo::centreHandlePosition(int component, int side) const
{
    return panel(side)->centreHandlePosition(component);
}

bool OvercompleteDemo::exportPanel(int side, const QString& path)
{
    return panel(side)->exportTo(path);
}

void OvercompleteDemo::stop()
{
    m_debounce.stop();
    m_scheduled = { false, false };
    for (int s = 0; s < kSides; ++s) {
        Side& side = m_sides[std::size_t(s)];
        side.playback->stop();
        side.runner->cancelAndWait();
        showResult(s); // no "running" left on show: the last good picture, final state
    }
}

void OvercompleteDemo::closeEvent(QCloseEvent* event)
{
    stop();
    QWidget::closeEvent(event);
}

RunOptions OvercompleteDemo::runOptions(int side) const
{
    RunOptions options;
    const QString method = m_controls->method(side);
    options.method = method.toStdString();
    options.params.rank = m_controls->rank();
    options.params.lambda = m_controls->lambda(side);
    // c = the number of Gaussians whatever k is; runTraced needs it explicit (CF_OGL's c).
    options.clusters = int(m_gaussians.components.size());
    options.driver.seed = m_controls->seed();
    options.driver.maxIter
        = iterationsAreOuterIterations(method) ? kDefaultOuterIterations : kMaxIterations;
    return options;
}

void OvercompleteDemo::regenerate()
{
    m_gaussians.components.resize(std::size_t(DemoControls::kComponents));
    for (int c = 0; c < DemoControls::kComponents; ++c)
        m_gaussians.components[std::size_t(c)].spread = m_controls->spread(c);
    m_gaussians.count = m_controls->pointCount();
    m_gaussians.seed = m_controls->seed();
    try {
        m_data = std::make_shared<const Dataset>(makeGaussians(m_gaussians));
    } catch (const std::invalid_argument& error) {
        // Centres are clamped to the quadrant, so this is not expected; keep the last data.
        for (Side& side : m_sides)
            side.panel->setTitle(side.panel->title(), QString::fromStdString(error.what()));
    }
    updateCentres();
    if (!m_data)
        return;
    for (Side& side : m_sides)
        if (!side.last) // nothing to keep showing until the first result
            side.panel->setPoints(m_data->X, {});
    updateView();
}

void OvercompleteDemo::schedule(int side, bool newData)
{
    for (int s = 0; s < kSides; ++s)
        if (side < 0 || side == s)
            m_scheduled[std::size_t(s)] = true;
    m_newData = m_newData || newData;
    m_debounce.start(); // restarts: the run waits for a 150 ms pause
}

void OvercompleteDemo::runScheduled()
{
    // During a drag this fires whenever the mouse rests for the pause, so the picture keeps up;
    // the release schedules the final run.
    if (m_newData) {
        m_newData = false;
        regenerate();
    }
    for (int s = 0; s < kSides; ++s) {
        if (m_scheduled[std::size_t(s)]) {
            m_scheduled[std::size_t(s)] = false;
            submit(s);
        }
    }
}

void OvercompleteDemo::submit(int side)
{
    Side& s = m_sides[std::size_t(side)];
    s.playback->stop();
    if (!m_data)
        return;
    s.pendingCentres = centresOf(m_gaussians);
    DemoRunRequest request;
    request.data = m_data;
    request.options = runOptions(side);
    s.pendingOptions = request.options;
    request.traceEvery = m_controls->animate() ? kTraceEvery : 0;
    s.runner->submit(std::move(request));
    s.panel->setTitle(resultTitle(side), demoRunningSubtitle(m_controls->method(side)));
}

void OvercompleteDemo::onFinished(
    int side, quint64 runId, std::shared_ptr<const Dataset> runData, const TracedRun& run)
{
    Q_UNUSED(runId) // the runner delivers the newest request's answer only
    Side& s = m_sides[std::size_t(side)];
    s.last = run;
    s.lastData = std::move(runData);
    s.lastCentres = s.pendingCentres;
    s.lastOptions = s.pendingOptions;
    s.colours = alignClustersToClasses(s.lastData->labels, run.result.predicted);
    ++s.runs;
    s.panel->setPoints(s.lastData->X, s.colours);
    updateView();
    if (m_controls->animate() && run.frames.size() > 1)
        s.playback->play(run.frames);
    else
        showResult(side);
    Q_EMIT panelFinished(side);
}

void OvercompleteDemo::onFailed(int side, quint64 runId, const QString& message)
{
    Q_UNUSED(runId)
    Side& s = m_sides[std::size_t(side)];
    // The last good picture stays; the error says why it did not change.
    s.panel->setTitle(
        s.panel->title(), tr("%1 failed: %2").arg(m_controls->method(side).toUpper(), message));
    Q_EMIT panelFailed(side, message);
}

void OvercompleteDemo::showResult(int side)
{
    Side& s = m_sides[std::size_t(side)];
    if (!s.last)
        return;
    s.panel->setBasis(s.last->result.factorization.basis);
    s.panel->setTitle(
        resultTitle(side), demoSubtitle(s.last->result, s.lastOptions, s.lastCentres));
}

void OvercompleteDemo::showFrame(int side, const BasisFrame& frame, int lastIteration)
{
    Side& s = m_sides[std::size_t(side)];
    s.panel->setBasis(frame.basis);
    s.panel->setTitle(resultTitle(side), demoFrameSubtitle(frame.iteration, lastIteration));
}

QString OvercompleteDemo::resultTitle(int side) const
{
    const Side& s = m_sides[std::size_t(side)];
    return s.last ? demoTitle(s.last->result) : m_controls->method(side).toUpper();
}

void OvercompleteDemo::onAnimateToggled(bool on)
{
    for (int s = 0; s < kSides; ++s) {
        Side& side = m_sides[std::size_t(s)];
        if (!on) {
            side.playback->stop();
            showResult(s);
        } else if (side.last && side.last->frames.size() > 1 && !isRunning(s)) {
            side.playback->play(side.last->frames);
        } else if (!m_scheduled[std::size_t(s)]) {
            // The last run kept no path, or the one in flight records none: run again with the
            // trace (a scheduled run reads the box when it starts).
            submit(s);
        }
    }
}

void OvercompleteDemo::onCentrePressed()
{
    // A new drag makes the runs in flight stale: stop them now rather than after the pause.
    m_debounce.stop();
    for (int s = 0; s < kSides; ++s) {
        Side& side = m_sides[std::size_t(s)];
        side.playback->stop();
        if (side.runner->isRunning()) {
            side.runner->cancel();
            m_scheduled[std::size_t(s)] = true;
        }
        showResult(s);
    }
}

void OvercompleteDemo::onCentreDragged(int component, QPointF position)
{
    moveCentre(component, position);
}

void OvercompleteDemo::moveCentre(int component, QPointF position)
{
    if (component < 0 || component >= int(m_gaussians.components.size()))
        return;
    // A centre in the quadrant always has points there (makeGaussians rejects the others).
    Gaussian2D& g = m_gaussians.components[std::size_t(component)];
    g.x = std::max(0.0, position.x());
    g.y = std::max(0.0, position.y());
    updateCentres();
    schedule(-1, true);
}

void OvercompleteDemo::updateCentres()
{
    QList<QPointF> centres;
    for (const Gaussian2D& g : m_gaussians.components)
        centres.append(QPointF(g.x, g.y));
    for (Side& side : m_sides)
        side.panel->setCentres(centres);
}

bool OvercompleteDemo::isDragging() const
{
    return std::any_of(
        m_sides.begin(), m_sides.end(), [](const Side& side) { return side.panel->isDragging(); });
}

void OvercompleteDemo::updateView()
{
    // Frozen during a drag, so the circle stays under the mouse; both panels share one view so
    // their pictures compare at a glance. The origin is always in: the bases are vectors.
    if (isDragging() || !m_data)
        return;
    double left = 0, bottom = 0, right = 1, top = 1;
    const auto include = [&](double x, double y) {
        left = std::min(left, x);
        right = std::max(right, x);
        bottom = std::min(bottom, y);
        top = std::max(top, y);
    };
    for (Eigen::Index i = 0; i < m_data->X.cols(); ++i)
        include(double(m_data->X(0, i)), double(m_data->X(1, i)));
    for (const Gaussian2D& g : m_gaussians.components) {
        include(g.x - 2 * g.spread, g.y - 2 * g.spread);
        include(g.x + 2 * g.spread, g.y + 2 * g.spread);
    }
    for (const Side& side : m_sides)
        if (side.last && side.last->result.factorization.basis.rows() == 2) {
            const Matrix& basis = side.last->result.factorization.basis;
            for (Eigen::Index j = 0; j < basis.cols(); ++j)
                include(double(basis(0, j)), double(basis(1, j)));
        }
    const double padX = kViewPadding * (right - left), padY = kViewPadding * (top - bottom);
    const QRectF rect(left - padX, bottom - padY, right - left + 2 * padX, top - bottom + 2 * padY);
    for (Side& side : m_sides)
        side.panel->setViewRect(rect);
}

} // namespace facet
