// SPDX-License-Identifier: GPL-3.0-or-later
#include "experiment/labeled_subset.h"

#include "core/random.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <stdexcept>
#include <string>

namespace facet {

std::vector<int> chooseLabeledSubset(
    const std::vector<int>& truth, const LabeledSubsetOptions& options)
{
    if (options.perClass < 0)
        throw std::invalid_argument(
            "the labelled count per class must be >= 1, got " + std::to_string(options.perClass));
    if (options.perClass == 0 && !(options.fraction > 0 && options.fraction < 1))
        throw std::invalid_argument(
            "the labelled fraction must be in (0, 1), got " + std::to_string(options.fraction));
    std::map<int, std::vector<int>> members; // ordered: the draw does not depend on hashing
    for (std::size_t i = 0; i < truth.size(); ++i) {
        if (truth[i] < 0)
            throw std::invalid_argument("sample " + std::to_string(i + 1)
                + " has no class; a labelled subset needs every label");
        members[truth[i]].push_back(int(i));
    }
    std::vector<int> known(truth.size(), -1);
    for (auto& [label, samples] : members) {
        // Fisher-Yates with a stream per class, so a class's draw does not depend on the others.
        Rng rng(deriveSeed(options.seed, std::uint64_t(label) + 1));
        for (std::size_t i = samples.size(); i > 1; --i)
            std::swap(samples[i - 1], samples[rng.below(i)]);
        const std::size_t take = options.perClass > 0
            ? std::min<std::size_t>(std::size_t(options.perClass), samples.size())
            : std::max<std::size_t>(
                1, std::size_t(std::lround(options.fraction * double(samples.size()))));
        for (std::size_t i = 0; i < take; ++i)
            known[std::size_t(samples[i])] = label;
    }
    return known;
}

} // namespace facet
