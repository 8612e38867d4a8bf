// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace facet {

// How a method minimizes its objective (METHODS.md section 9; docs/algorithms.md). The objective
// is the method's contract; the algorithm is the route to its solution.
//   Mu      the papers' multiplicative rules, exactly as METHODS.md sections 1-3 print them (kept
//           bit for bit for reproducing published protocols); every method
//   Hals    accelerated hierarchical alternating least squares: exact column-wise block
//           coordinate descent, repeated while cheap (methods/hals.h); NMF, GNMF and SemiGNMF
//   MuEx    Mu, each step started from an extrapolation of the last two accepted iterates, kept
//           only when it lowers the objective (core/extrapolation.h); every method
//   HalsEx  Hals with the same extrapolation; NMF, GNMF and SemiGNMF
enum class Algorithm { Mu, Hals, MuEx, HalsEx };

constexpr std::string_view algorithmName(Algorithm a)
{
    switch (a) {
    case Algorithm::Hals:
        return "hals";
    case Algorithm::MuEx:
        return "mu-ex";
    case Algorithm::HalsEx:
        return "hals-ex";
    case Algorithm::Mu:
        break;
    }
    return "mu";
}

// The update rule a step applies (Mu or Hals); the extrapolation wraps it.
constexpr Algorithm baseAlgorithm(Algorithm a)
{
    return a == Algorithm::Hals || a == Algorithm::HalsEx ? Algorithm::Hals : Algorithm::Mu;
}

constexpr bool extrapolates(Algorithm a)
{
    return a == Algorithm::MuEx || a == Algorithm::HalsEx;
}

inline std::optional<Algorithm> parseAlgorithm(std::string_view name)
{
    for (Algorithm a : { Algorithm::Mu, Algorithm::Hals, Algorithm::MuEx, Algorithm::HalsEx })
        if (name == algorithmName(a))
            return a;
    return std::nullopt;
}

} // namespace facet
