// SPDX-License-Identifier: GPL-3.0-or-later
#include "demo/demo_playback.h"

#include <algorithm>
#include <cmath>
#include <utility>

namespace facet {

DemoPlayback::DemoPlayback(QObject* parent)
    : QObject(parent)
{
    m_timer.setInterval(kTickMs);
    connect(&m_timer, &QTimer::timeout, this, &DemoPlayback::tick);
}

int DemoPlayback::frameAtTick(int tick, int ticks, int frames)
{
    if (frames <= 1 || ticks <= 0)
        return 0;
    const double progress = std::clamp(double(tick) / ticks, 0.0, 1.0);
    return int(std::lround((frames - 1) * progress * progress));
}

void DemoPlayback::play(std::vector<BasisFrame> frames)
{
    m_timer.stop();
    m_frames = std::move(frames);
    if (m_frames.size() < 2) {
        Q_EMIT finished();
        return;
    }
    m_tick = 0;
    m_ticks = std::min(int(m_frames.size()) - 1, kMaxTicks);
    m_timer.start();
    tick(); // the start at once, so the picture never shows the old final state first
}

void DemoPlayback::stop()
{
    m_timer.stop();
}

void DemoPlayback::tick()
{
    const int index = frameAtTick(m_tick, m_ticks, int(m_frames.size()));
    ++m_framesShown;
    Q_EMIT frameShown(m_frames[std::size_t(index)], m_frames.back().iteration);
    if (++m_tick > m_ticks) {
        m_timer.stop();
        Q_EMIT finished();
    }
}

} // namespace facet
