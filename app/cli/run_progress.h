// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/types.h"

#include <chrono>
#include <cstdio>
#include <string>
#include <string_view>

namespace facet::cli {

// `facet-cli run`'s progress on stderr while it works, on a terminal only: one line redrawn in
// place, naming the set-up step with its percentage (the nearest-neighbour search of 70,000
// samples takes about a minute before the first iteration), then the iteration against the
// limit with the objective. The line is cleared when the run ends, so only the summary stays.
// Elsewhere (a log file, CI, the tests' pipes) it writes nothing and the output is as before.
class RunProgress {
public:
    // `iterationLimit` is the run's --max-iter; `earlier` iterations come from --init-from.
    // `terminal` forces the decision (tests); by default it is isatty(stream).
    RunProgress(int iterationLimit, int earlier, std::FILE* stream = stderr, int terminal = -1);
    ~RunProgress();
    RunProgress(const RunProgress&) = delete;
    RunProgress& operator=(const RunProgress&) = delete;

    // The SolveControl callbacks (the CLI calls runAndCluster on its own thread).
    void stage(std::string_view name);
    void stageProgress(double fraction);
    void iteration(const IterationReport& report);
    // Clears the line (also done by the destructor).
    void finish();

    bool active() const { return m_terminal; }

private:
    // Draws `text` unless the last draw was under 100 ms ago (`force` draws anyway).
    void draw(const std::string& text, bool force);

    std::FILE* m_stream;
    bool m_terminal;
    int m_limit;
    int m_earlier;
    std::string m_stage;
    bool m_drawn = false;
    std::chrono::steady_clock::time_point m_lastDraw;
};

} // namespace facet::cli
