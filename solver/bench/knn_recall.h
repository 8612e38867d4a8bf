// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/types.h"

#include <cstdint>
#include <functional>

namespace facet {

// The approximate kNN search (HNSW) against the exact one on the same data: both timings and the
// recall of the approximate p-neighbour lists (graph/hnsw_search.h), and each search's peak
// resident memory when the caller can observe it (0 otherwise): `resetPeak` starts a new
// high-water mark, `readPeak` returns it in bytes (bench_runner.h: BenchHooks).
struct KnnRecall {
    Eigen::Index n = 0;
    int p = 0;
    double exactSeconds = 0;
    double approximateSeconds = 0;
    double recall = 0;
    double exactPeakBytes = 0;
    double approximatePeakBytes = 0;
};

KnnRecall measureKnnRecall(MatrixCRef X, int p, std::uint64_t seed = 0,
    const std::function<void()>& resetPeak = nullptr,
    const std::function<double()>& readPeak = nullptr);

} // namespace facet
