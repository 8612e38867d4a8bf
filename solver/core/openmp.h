// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// The few OpenMP runtime calls Facet makes, usable when the build has OpenMP off (the tsan preset,
// FACET_OPENMP=OFF): then every team has one thread, which is also what Eigen assumes.
//
// Thread counts are set through the OpenMP ICV only, never Eigen::setNbThreads: Eigen's setting
// is one unsynchronized process-wide int, while with it unset Eigen asks omp_get_max_threads(),
// whose value belongs to the calling thread. So a sweep worker can pin its own products to one
// thread while the explorer's solve on another thread keeps both cores.
#if defined(_OPENMP)
#include <omp.h>
#endif

namespace facet::omp {

inline int maxThreads()
{
#if defined(_OPENMP)
    return omp_get_max_threads();
#else
    return 1;
#endif
}

// The calling thread's team size for the parallel regions it starts (and for Eigen's products).
inline void setThreads([[maybe_unused]] int threads)
{
#if defined(_OPENMP)
    omp_set_num_threads(threads);
#endif
}

inline int threadNum()
{
#if defined(_OPENMP)
    return omp_get_thread_num();
#else
    return 0;
#endif
}

inline int numThreads()
{
#if defined(_OPENMP)
    return omp_get_num_threads();
#else
    return 1;
#endif
}

} // namespace facet::omp
