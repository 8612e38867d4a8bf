// SPDX-License-Identifier: GPL-3.0-or-later
#include "cli/run_progress.h"

#include <unistd.h>

#include <algorithm>
#include <cmath>

namespace facet::cli {

RunProgress::RunProgress(int iterationLimit, int earlier, std::FILE* stream, int terminal)
    : m_stream(stream)
    , m_terminal(terminal >= 0 ? terminal == 1 : isatty(fileno(stream)) == 1)
    , m_limit(iterationLimit)
    , m_earlier(earlier)
{
}

RunProgress::~RunProgress()
{
    finish();
}

void RunProgress::stage(std::string_view name)
{
    m_stage = name;
    if (!m_stage.empty())
        draw(m_stage + "...", true);
}

void RunProgress::stageProgress(double fraction)
{
    if (m_stage.empty())
        return;
    const int percent = int(std::clamp(fraction, 0.0, 1.0) * 100);
    draw(m_stage + ": " + std::to_string(percent) + " %", fraction >= 1);
}

void RunProgress::iteration(const IterationReport& report)
{
    const int done = report.iteration - m_earlier; // of this run's --max-iter
    char text[96];
    std::snprintf(
        text, sizeof text, "iteration %d/%d, objective %.6g", done, m_limit, report.objective);
    std::string line = text;
    if (m_earlier > 0)
        line += " (" + std::to_string(report.iteration) + " in all)";
    draw(line, done >= m_limit);
}

void RunProgress::finish()
{
    if (m_terminal && m_drawn) {
        // \r returns to the line start and \033[K clears it: the summary follows on stdout.
        std::fputs("\r\033[K", m_stream);
        std::fflush(m_stream);
        m_drawn = false;
    }
}

void RunProgress::draw(const std::string& text, bool force)
{
    if (!m_terminal)
        return;
    const auto now = std::chrono::steady_clock::now();
    if (!force && m_drawn && now - m_lastDraw < std::chrono::milliseconds(100))
        return;
    m_lastDraw = now;
    std::fprintf(m_stream, "\r%s\033[K", text.c_str());
    std::fflush(m_stream);
    m_drawn = true;
}

} // namespace facet::cli
