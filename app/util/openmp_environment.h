// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// How the OpenMP runtime's idle threads wait, chosen by the program rather than by the user's
// environment (issue 35, item 5; issue 36, item 2).
//
// By default GCC's libgomp spins for about 300,000 rounds at every barrier before it sleeps, and
// LLVM's libomp for 200 ms. Alone, that saves a wake-up per parallel region. Beside a second solve
// (the explorer's two demo panels, an experiment, a run still being cancelled, another facet-cli)
// there are more runnable threads than cores: a thread the scheduler took off a core holds up its
// team's barrier while the others spin through their time slices, and an iteration took 10-87x
// as long as alone. With the short spin below a waiting thread gives up its core within
// microseconds, and two solves at once share the cores instead of trading time slices.
//
// Both runtimes read these variables once, when the library is loaded, before main() runs: so
// when the user has set none of them, the program sets them and starts itself again
// (`execv("/proc/self/exe", argv)`, the same process id, arguments and descriptors). A user who
// sets any of them keeps their choice.

#include <cstdlib>
#include <cstring>
#include <unistd.h>

namespace facet {

// GOMP_SPINCOUNT (libgomp, the release build's runtime): rounds of spinning before a waiting
// thread sleeps. KMP_BLOCKTIME (libomp, clang's runtime in the sanitizer builds): milliseconds.
inline constexpr const char* kGompSpinCount = "10000";
inline constexpr const char* kKmpBlockTime = "1";

// The variables that choose how OpenMP threads wait, in either runtime.
inline constexpr const char* kOpenMpWaitVariables[]
    = { "OMP_WAIT_POLICY", "GOMP_SPINCOUNT", "KMP_BLOCKTIME" };

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

// Call first thing in main(). Returns only when the settings are in force (or the program could
// not start itself again, in which case it runs on with the runtime's defaults).
inline void ensureOpenMpWaitPolicy([[maybe_unused]] int argc, char** argv)
{
#if defined(_OPENMP)
    if (openMpWaitChosen() || std::getenv("FACET_OPENMP_REEXEC"))
        return;
    setenv("GOMP_SPINCOUNT", kGompSpinCount, 0);
    setenv("KMP_BLOCKTIME", kKmpBlockTime, 0);
    setenv("FACET_OPENMP_REEXEC", "1", 1); // never twice, whatever happens to the variables
    execv("/proc/self/exe", argv);
    // Not reached unless exec failed (no /proc): run on as started.
#else
    (void)argv;
#endif
}

} // namespace facet
