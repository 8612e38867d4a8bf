// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/types.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace facet {

// A generated benchmark set large enough to leave the caches: non-negative, low rank plus noise,
// in clusters so that AC/NMI mean something. X = (W H + noise) / max, with W (m x rank) uniform
// [0, 1), column i of H (rank x n) = e_{c(i)} + spread u_i (u_i uniform [0, 1)^rank, c(i) the
// cluster of sample i drawn uniformly), noise uniform [0, noise). Values end in [0, 1].
struct LowRankSpec {
    Eigen::Index samples = 0; // n
    Eigen::Index features = 0; // m
    int rank = 10; // also the number of clusters
    double spread = 0.35;
    double noise = 0.1;
    std::uint64_t seed = 0;
};

struct LowRankData {
    Matrix X; // m x n
    std::vector<int> labels; // n cluster indices in [0, rank)
};

// The name of a generated set: "gen:NxM" (n samples of m features), e.g. "gen:20000x784".
std::string lowRankName(const LowRankSpec& spec);
// Parses "gen:NxM"; nullopt for any other text.
std::optional<LowRankSpec> parseLowRankName(const std::string& name);

// Deterministic for a spec, and the same values in float and double builds up to the final
// rounding (everything is computed in double and rounded once). Column i's noise comes from
// its own stream deriveSeed(seed, i), so the columns are generated in parallel.
// Throws std::invalid_argument for non-positive sizes.
LowRankData makeLowRankData(const LowRankSpec& spec);
// Columns first..first+count-1 of the same set, bit for bit (the blocks they fall in are
// generated as the whole set generates them), with every sample's label: what one rank of a
// distributed run generates instead of the whole X. Throws std::invalid_argument for a range
// outside [0, n).
LowRankData makeLowRankData(const LowRankSpec& spec, Eigen::Index first, Eigen::Index count);

} // namespace facet
