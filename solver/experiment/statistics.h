// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <vector>

namespace facet {

// Mean and sample standard deviation (n - 1 in the denominator, MATLAB's std, which the papers'
// tables use); std is 0 for fewer than two values, both are NaN for none.
struct MeanStd {
    double mean = 0;
    double std = 0;
    int count = 0;
};
MeanStd meanStd(const std::vector<double>& values);

// Paired Wilcoxon signed-rank test, two-sided, of H0 "the differences a_i - b_i are symmetric
// about 0".
//
// Choices (they change p when there are zero differences or ties, so they are stated here and
// in every report):
// - Zero differences are dropped before ranking (Wilcoxon's original rule; Pratt's rule would
//   rank them and then drop their ranks). Differences below 1e-12 in absolute value count as
//   zero, so two runs with the same clustering compare as a tie, not as round-off.
// - Tied |differences| get the average of their ranks.
// - n <= kWilcoxonExactLimit remaining pairs: the exact permutation distribution of W+ given
//   these ranks (all 2^n sign patterns, counted by dynamic programming over doubled ranks, so it
//   stays exact with ties).
// - Larger n: the normal approximation with the tie-corrected variance
//   n(n+1)(2n+1)/24 - sum(t^3 - t)/48 and a continuity correction of 1/2.
// - No pair left (every difference zero): p = 1.
inline constexpr int kWilcoxonExactLimit = 25;

struct WilcoxonResult {
    int n = 0; // pairs after dropping zero differences
    int zeros = 0; // pairs dropped
    double wPlus = 0; // rank sum of the positive differences (a > b)
    double wMinus = 0; // rank sum of the negative differences
    double z = 0; // normal approximation's statistic (0 when exact)
    double pValue = 1; // two-sided
    bool exact = true;
};

// a and b must have the same length (std::invalid_argument otherwise).
WilcoxonResult wilcoxonSignedRank(const std::vector<double>& a, const std::vector<double>& b);

} // namespace facet
