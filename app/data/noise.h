// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "data/dataset.h"
#include "util/result.h"

#include <cstdint>
#include <utility>

namespace facet {

enum class NoiseKind { None, Gaussian, SaltPepper, Occlusion };

// Corruption added to every sample, for robustness experiments. `amount` is, by kind: the
// Gaussian's standard deviation as a fraction of the value range; the fraction of pixels set to
// black or white; the side in pixels of one square white block per image.
struct NoiseSettings {
    NoiseKind kind = NoiseKind::None;
    double amount = 0;
    std::uint64_t seed = 0;
    // Occlusion only (facet-cli --occlusion-missing): the block's pixels become missing entries
    // (Dataset::weights 0, X 0) instead of white.
    bool missing = false;

    bool operator==(const NoiseSettings&) const = default;
};

// "none", "gaussian:0.1", "saltpepper:0.05" (also "salt-pepper", "sp"), "occlusion:8".
Result<NoiseSettings> parseNoise(const QString& text, std::uint64_t seed = 0);

// The inverse of parseNoise without the seed: "gaussian:0.1".
QString noiseText(const NoiseSettings& noise);

// Adds the noise to every column in place and records it in data.notes. Sample j draws from its
// own stream deriveSeed(seed, j), so a sample's noise does not depend on the others. The value
// range is [0, 1] for data within it, [0, 255] for 8-bit intensities, else [min, max]; results
// are clipped to it so non-negative data stays non-negative. Occlusion needs image samples.
Result<bool> addNoise(Dataset& data, const NoiseSettings& noise);

// The value range addNoise uses for `data`.
std::pair<double, double> noiseRange(const Dataset& data);

// One sample's noise, as addNoise draws it for column `stream` on the range lo..hi (for a
// preview of a single image). Occlusion assumes height x width images that fit the block.
void addSampleNoise(Eigen::Ref<Vector> sample, int height, int width, const NoiseSettings& noise,
    std::uint64_t stream, double lo, double hi);

} // namespace facet
