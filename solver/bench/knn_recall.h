// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/types.h"

#include <cstdint>

namespace facet {

// The approximate kNN search (HNSW) against the exact one on the same data: both timings and the
// recall of the approximate p-neighbour lists (graph/hnsw_search.h).
struct KnnRecall {
    Eigen::Index n = 0;
    int p = 0;
    double exactSeconds = 0;
    double approximateSeconds = 0;
    double recall = 0;
};

KnnRecall measureKnnRecall(MatrixCRef X, int p, std::uint64_t seed = 0);

} // namespace facet
