// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "data/synthetic.h"
#include "experiment/basis_trace.h"

#include <QPointF>
#include <QTimer>
#include <QWidget>

#include <array>
#include <memory>
#include <optional>

namespace facet {

class DemoControls;
class DemoPanel;
class DemoPlayback;
class DemoRunner;

// The 2-D overcomplete-basis demo (METHODS.md section 7): 150 points from 3 Gaussians in the
// positive quadrant, two methods side by side (NMF and LCF, k = 3, by default), each panel with
// the points coloured by cluster and the k basis vectors as black diamonds. Dragging a Gaussian's
// centre in either panel, or changing a setting, regenerates the data and re-runs both sides
// after a 150 ms pause (a new drag cancels the runs in flight). "Animate" replays each run's
// basis path. Each side runs on a worker thread of its own; the GUI never waits for a solver
// except when the demo is closed (cancel, then at most one iteration).
class OvercompleteDemo : public QWidget {
    Q_OBJECT

public:
    static constexpr int kSides = 2;
    static constexpr int kDebounceMs = 150;

    explicit OvercompleteDemo(QWidget* parent = nullptr);
    ~OvercompleteDemo() override;

    DemoPanel* panel(int side) const;
    DemoControls* controls() const { return m_controls; }

    // The mixture and the points drawn from it now.
    const GaussiansOptions& gaussians() const { return m_gaussians; }
    std::shared_ptr<const Dataset> dataset() const { return m_data; }
    // The options the next run of a side uses.
    RunOptions runOptions(int side) const;

    // The last run shown on a side (null before the first) and the data it was computed on.
    const TracedRun* lastRun(int side) const;
    std::shared_ptr<const Dataset> lastRunData(int side) const;
    // Runs shown on a side since construction.
    int runCount(int side) const;
    // A run is waiting for the debounce or for its worker.
    bool isRunning(int side) const;
    bool isAnimating(int side) const;
    // Animation frames shown on a side since construction.
    int framesPlayed(int side) const;

    // Where Gaussian `component`'s centre is drawn, in pixels of panel(side)->plot().
    QPointF centreHandlePosition(int component, int side = 0) const;
    // Moves a centre as a drag does (clamped to the quadrant), then re-runs after the debounce.
    void moveCentre(int component, QPointF position);
    // PNG or PDF by the suffix.
    bool exportPanel(int side, const QString& path);
    // Cancels both runs and waits for the workers; stops the animation.
    void stop();

Q_SIGNALS:
    // A side shows a fresh result (its panel is up to date).
    void panelFinished(int side);
    void panelFailed(int side, const QString& message);
    void animationFinished(int side);

protected:
    void closeEvent(QCloseEvent* event) override;

private:
    struct Side {
        DemoPanel* panel = nullptr;
        DemoRunner* runner = nullptr;
        DemoPlayback* playback = nullptr;
        std::optional<TracedRun> last;
        std::shared_ptr<const Dataset> lastData;
        Eigen::MatrixXd lastCentres; // 2 x 3, the mixture lastData was drawn from
        Eigen::MatrixXd pendingCentres;
        RunOptions lastOptions; // what lastData was run with
        RunOptions pendingOptions;
        std::vector<int> colours; // per sample of lastData
        int runs = 0;
    };

    void regenerate();
    // side -1: both. The run starts when the debounce timer fires.
    void schedule(int side, bool newData);
    void runScheduled();
    void submit(int side);
    void onFinished(
        int side, quint64 runId, std::shared_ptr<const Dataset> data, const TracedRun& run);
    void onFailed(int side, quint64 runId, const QString& message);
    void onAnimateToggled(bool on);
    void onCentrePressed();
    void onCentreDragged(int component, QPointF position);
    void showResult(int side);
    void showFrame(int side, const BasisFrame& frame, int lastIteration);
    QString resultTitle(int side) const;
    void updateCentres();
    void updateView();
    bool isDragging() const;

    DemoControls* m_controls = nullptr;
    std::array<Side, kSides> m_sides;
    GaussiansOptions m_gaussians;
    std::shared_ptr<const Dataset> m_data;
    QTimer m_debounce;
    std::array<bool, kSides> m_scheduled { false, false };
    bool m_newData = false;
};

} // namespace facet
