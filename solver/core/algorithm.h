// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace facet {

// How a method minimizes its objective (METHODS.md section 9; docs/algorithms.md). The objective
// is the method's contract; the algorithm is the route to its solution.
//   Mu    the papers' multiplicative rules, exactly as METHODS.md sections 1-3 print them (kept
//         bit for bit for reproducing published protocols)
//   Hals  accelerated hierarchical alternating least squares: exact column-wise block coordinate
//         descent, repeated while cheap (methods/hals.h); NMF, GNMF and SemiGNMF
enum class Algorithm { Mu, Hals };

constexpr std::string_view algorithmName(Algorithm a)
{
    return a == Algorithm::Hals ? "hals" : "mu";
}

inline std::optional<Algorithm> parseAlgorithm(std::string_view name)
{
    if (name == "mu")
        return Algorithm::Mu;
    if (name == "hals")
        return Algorithm::Hals;
    return std::nullopt;
}

inline constexpr std::string_view kAlgorithmNames = "mu, hals";

} // namespace facet
