// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "experiment/sweep.h"

#include <chrono>
#include <cstdio>

namespace facet::cli {

// The sweep's progress on stderr: on a terminal one bar redrawn in place with the cells done
// and an ETA; otherwise (a log file, CI) one line per finished cell, which stays readable.
class SweepProgress {
public:
    // `total` cells in the plan, `alreadyDone` of them finished before (a resumed sweep).
    // `terminal` forces the choice of form (tests); by default it is isatty(stream).
    SweepProgress(int total, int alreadyDone, std::FILE* stream = stderr, int terminal = -1);
    // After every finished cell; not thread-safe (the pool serializes its callbacks).
    void cellFinished(const TrialResult& trial);
    // Ends the bar's line.
    void finish();

private:
    std::FILE* m_stream;
    bool m_terminal;
    int m_total;
    int m_done;
    int m_doneHere = 0; // cells finished by this process: the ETA's rate
    std::chrono::steady_clock::time_point m_start;
    std::chrono::steady_clock::time_point m_lastDraw;
};

} // namespace facet::cli
