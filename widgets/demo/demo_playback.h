// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "experiment/basis_trace.h"

#include <QObject>
#include <QTimer>

#include <vector>

namespace facet {

// Plays a recorded basis path (the demo's "Animate") on a timer, in the GUI thread: the run is
// long over by then, so playback speed does not depend on how fast the solver was, and replaying
// costs no new run. Multiplicative updates move the basis most in the first iterations, so the
// schedule spends its ticks quadratically: tick t of N shows frame round((F - 1) (t / N)^2).
class DemoPlayback : public QObject {
    Q_OBJECT

public:
    static constexpr int kTickMs = 33; // ~30 frames per second
    static constexpr int kMaxTicks = 90; // ~3 s however long the run was

    explicit DemoPlayback(QObject* parent = nullptr);

    // Starts from the first frame (replacing a playback in progress). Fewer than two frames: only
    // finished() is emitted.
    void play(std::vector<BasisFrame> frames);
    void stop();
    bool isPlaying() const { return m_timer.isActive(); }
    // Frames shown since construction, over every playback.
    int framesShown() const { return m_framesShown; }

    // The frame shown at tick `tick` of `ticks` for `frames` frames (the schedule above).
    static int frameAtTick(int tick, int ticks, int frames);

Q_SIGNALS:
    void frameShown(const facet::BasisFrame& frame, int lastIteration);
    // Played to the end (not emitted by stop()).
    void finished();

private:
    void tick();

    QTimer m_timer;
    std::vector<BasisFrame> m_frames;
    int m_tick = 0;
    int m_ticks = 0;
    int m_framesShown = 0;
};

} // namespace facet
