// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// The resident-memory probe of the benchmark, shared by facet-cli and facet-bench-float (which
// has no Qt, hence plain std streams). Linux: writing "5" to /proc/self/clear_refs resets the
// VmHWM high-water mark of /proc/self/status, so each case gets its own peak; getrusage's
// ru_maxrss cannot be reset.

#include <fstream>
#include <sstream>
#include <string>

namespace facet::cli {

inline void resetPeakResidentMemory()
{
    std::ofstream clear("/proc/self/clear_refs");
    clear << "5";
}

// VmHWM in bytes; 0 when /proc is not there (the runner then falls back to getrusage).
inline double peakResidentMemoryBytes()
{
    std::ifstream status("/proc/self/status");
    std::string line;
    while (std::getline(status, line)) {
        if (line.rfind("VmHWM:", 0) == 0) {
            std::istringstream fields(line.substr(6));
            double kib = 0;
            fields >> kib;
            return kib * 1024.0;
        }
    }
    return 0;
}

} // namespace facet::cli
