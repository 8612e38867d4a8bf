// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// How the OpenMP runtime's idle threads wait, chosen by the program rather than by the user's
// environment (issue 35, item 5; issue 36, item 2).
//
// By default GCC's libgomp spins for about 300,000 rounds at every barrier before it sleeps, and
// LLVM's libomp for 200 ms. Alone, that saves a wake-up per parallel region. Beside a second solve
// (the explorer's two demo panels, an experiment, a run still being cancelled, another facet-cli)
// there are more runnable threads than cores: a thread the scheduler took off a core holds up its
// team's barrier while the others spin through their time slices. Measured with
// bench/concurrent.sh (2 cores, NMF mu, per iteration, bench/RESULTS.md): beside a second ORL
// solve, ORL and Yale took 3.4-4.9x their alone time with the runtime's spin, 4.7x and 9.0x with
// a short spin (GOMP_SPINCOUNT=10000), 0.9-1.5x with OMP_WAIT_POLICY=passive, which costs alone
// on these small sets (Yale about +45 %, ORL +5-25 %). So every program waits passively, except the
// benchmarks, which run alone by design and measure the hardware's limit: `facet-cli bench` and
// facet-bench-float keep the runtime's spin (their JSON records the variables in force).
//
// Both runtimes read these variables once, when the library is loaded, before main() runs: so
// when the user has set none of them, the program sets them and starts itself again
// (`execv("/proc/self/exe", argv)`, the same process id, arguments and descriptors). A user who
// sets any of them keeps their choice.

#include <cstdlib>
#include <cstring>
#include <unistd.h>

namespace facet {

// The variables that choose how OpenMP threads wait, in either runtime.
inline constexpr const char* kOpenMpWaitVariables[]
    = { "OMP_WAIT_POLICY", "GOMP_SPINCOUNT", "KMP_BLOCKTIME" };

// What the program chooses where the user chose nothing (both runtimes read it).
inline constexpr const char* kOpenMpWaitPolicy = "passive";

// Whether the user (or a parent Facet process) already chose how OpenMP threads wait.
inline bool openMpWaitChosen()
{
    for (const char* name : kOpenMpWaitVariables) {
        const char* value = std::getenv(name);
        if (value && *value)
            return true;
    }
    return false;
}

// Shared: the program may run beside other solves (passive waiting). Benchmark: it measures one
// solve alone (the runtime's own spin).
enum class OpenMpUse { Shared, Benchmark };

// facet-cli's use: its `bench` command is a benchmark, every other command shares the machine.
inline OpenMpUse cliOpenMpUse(int argc, char** argv)
{
    return argc > 1 && std::strcmp(argv[1], "bench") == 0 ? OpenMpUse::Benchmark
                                                          : OpenMpUse::Shared;
}

// Call first thing in main(). Returns only when the settings are in force (or the program could
// not start itself again, in which case it runs on with the runtime's defaults).
inline void ensureOpenMpWaitPolicy([[maybe_unused]] char** argv, [[maybe_unused]] OpenMpUse use)
{
#if defined(_OPENMP)
    if (use == OpenMpUse::Benchmark || openMpWaitChosen() || std::getenv("FACET_OPENMP_REEXEC"))
        return;
    setenv("OMP_WAIT_POLICY", kOpenMpWaitPolicy, 0);
    setenv("FACET_OPENMP_REEXEC", "1", 1); // never twice, whatever happens to the variables
    execv("/proc/self/exe", argv);
    // Not reached unless exec failed (no /proc): run on as started.
#endif
}

} // namespace facet
