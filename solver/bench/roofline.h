// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "bench/flops.h"
#include "core/types.h"

namespace facet {

// The two ceilings of the roofline model (Williams, Waterman & Patterson, CACM 2009), measured
// on this machine in the same process and with the same threads as the methods, in Scalar.
struct MachinePeaks {
    int threads = 1; // Eigen::nbThreads() during the measurement
    Eigen::Index gemmSize = 0; // the square GEMM measured
    double gemmGflops = 0; // Eigen GEMM, all threads: the compute ceiling
    double gemmGflopsOneThread = 0; // the same GEMM on one thread: shows the threads are used
    double triadGBs = 0; // STREAM triad a = b + s c, 3 arrays counted: the memory ceiling
    Eigen::Index triadElements = 0; // per array
};

// Best of `repeats` runs of C = A B (size x size) and of the triad over three arrays of
// `triadElements` Scalars (sized far beyond the last-level cache; 3 x 2^25 doubles = 768 MiB).
MachinePeaks measureMachinePeaks(Eigen::Index gemmSize = 1536,
    Eigen::Index triadElements = Eigen::Index(1) << 25, int repeats = 5);

// The two ceilings again, next to one benchmark case (BenchOptions::ceilingsPerCase): the same
// GEMM and triad as `run` measured them, best of 3, without the one-thread GEMM (copied from
// `run`). The host's speed drifts within minutes, so a case compared against ceilings measured
// beside it gives a steadier fraction than against the ceilings of the run's start.
MachinePeaks measureCaseCeilings(const MachinePeaks& run);

// The roofline limit of one iteration: it cannot run faster than its flops at the GEMM peak or
// than its bytes at the triad bandwidth, max(flops / peak, bytes / bandwidth), in seconds.
double rooflineSeconds(const IterationCost& cost, double gemmGflops, double triadGBs);
inline double rooflineSeconds(const IterationCost& cost, const MachinePeaks& peaks)
{
    return rooflineSeconds(cost, peaks.gemmGflops, peaks.triadGBs);
}

} // namespace facet
