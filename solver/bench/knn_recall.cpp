// SPDX-License-Identifier: GPL-3.0-or-later
#include "bench/knn_recall.h"

#include "graph/adaptive_neighbors.h"
#include "graph/hnsw_search.h"

#include <chrono>

namespace facet {

KnnRecall measureKnnRecall(MatrixCRef X, int p, std::uint64_t seed,
    const std::function<void()>& resetPeak, const std::function<double()>& readPeak)
{
    using RecallClock = std::chrono::steady_clock;
    const bool observed = resetPeak && readPeak;
    KnnRecall result;
    result.n = X.cols();
    result.p = p;
    if (observed)
        resetPeak();
    auto start = RecallClock::now();
    const NeighborTable exact = nearestNeighborTable(X, p);
    result.exactSeconds = std::chrono::duration<double>(RecallClock::now() - start).count();
    if (observed) {
        result.exactPeakBytes = readPeak();
        resetPeak(); // the exact table stays resident: both peaks include it and X
    }
    HnswParameters parameters;
    parameters.seed = seed;
    start = RecallClock::now();
    const NeighborTable approximate = approximateNeighborTable(X, p, parameters);
    result.approximateSeconds = std::chrono::duration<double>(RecallClock::now() - start).count();
    if (observed)
        result.approximatePeakBytes = readPeak();
    result.recall = neighborRecall(approximate, exact);
    return result;
}

} // namespace facet
