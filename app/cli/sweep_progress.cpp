// SPDX-License-Identifier: GPL-3.0-or-later
#include "cli/sweep_progress.h"

#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <string>

namespace facet::cli {

namespace {

std::string clock(double seconds)
{
    const long s = std::lround(std::max(0.0, seconds));
    char text[32];
    if (s >= 3600)
        std::snprintf(text, sizeof text, "%ld:%02ld:%02ld", s / 3600, s / 60 % 60, s % 60);
    else
        std::snprintf(text, sizeof text, "%ld:%02ld", s / 60, s % 60);
    return text;
}

} // namespace

SweepProgress::SweepProgress(int total, int alreadyDone, std::FILE* stream, int terminal)
    : m_stream(stream)
    , m_terminal(terminal >= 0 ? terminal == 1 : isatty(fileno(stream)) == 1)
    , m_total(total)
    , m_done(alreadyDone)
    , m_start(std::chrono::steady_clock::now())
{
}

void SweepProgress::cellFinished(const TrialResult& t)
{
    ++m_done;
    ++m_doneHere;
    const double elapsed
        = std::chrono::duration<double>(std::chrono::steady_clock::now() - m_start).count();
    const double eta = elapsed / m_doneHere * (m_total - m_done);
    const std::string cell = t.cell.method + " c=" + std::to_string(t.cell.clusters) + " trial "
        + std::to_string(t.cell.trial + 1);
    if (!m_terminal) {
        std::fprintf(m_stream, "[%d/%d] %s: AC %.4f NMI %.4f, %d iterations, %.2f s (ETA %s)\n",
            m_done, m_total, cell.c_str(), t.ac, t.nmi, t.iterations, t.seconds,
            clock(eta).c_str());
        std::fflush(m_stream);
        return;
    }
    // At most ~10 redraws a second: cells of small sets finish in milliseconds.
    const auto now = std::chrono::steady_clock::now();
    if (m_done < m_total && now - m_lastDraw < std::chrono::milliseconds(100))
        return;
    m_lastDraw = now;
    constexpr int kWidth = 28;
    const int filled = m_total > 0 ? m_done * kWidth / m_total : kWidth;
    const std::string bar
        = std::string(std::size_t(filled), '#') + std::string(std::size_t(kWidth - filled), '.');
    // \r returns to the line start and \033[K clears what a longer previous line left.
    std::fprintf(m_stream, "\r[%s] %d/%d %3d%%  ETA %s  %s: AC %.3f\033[K", bar.c_str(), m_done,
        m_total, m_total > 0 ? 100 * m_done / m_total : 100, clock(eta).c_str(), cell.c_str(),
        t.ac);
    std::fflush(m_stream);
}

void SweepProgress::finish()
{
    if (m_terminal && m_doneHere > 0) {
        std::fputc('\n', m_stream);
        std::fflush(m_stream);
    }
}

} // namespace facet::cli
