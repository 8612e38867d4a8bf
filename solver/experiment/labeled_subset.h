// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <cstdint>
#include <vector>

namespace facet {

// The labelled part of a semi-supervised run (METHODS.md section 2 and 6): per class, either a
// fraction of its samples (rounded, at least one) or a fixed count (all of them when the class
// is smaller), drawn with a seeded shuffle per class.
struct LabeledSubsetOptions {
    double fraction = 0; // in (0, 1); used when perClass == 0
    int perClass = 0; // >= 1 to use a count
    std::uint64_t seed = 0;
};

// truth: class index (>= 0) of every sample. Returns n entries: the class index for the
// samples whose label is given to the method, -1 for the others. Throws std::invalid_argument
// for a fraction outside (0, 1), a negative count, or negative truth labels.
std::vector<int> chooseLabeledSubset(
    const std::vector<int>& truth, const LabeledSubsetOptions& options);

} // namespace facet
