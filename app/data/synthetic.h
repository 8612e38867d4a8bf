// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "data/dataset.h"

#include <cstdint>
#include <vector>

namespace facet {

// The Swimmer set (Donoho & Stodden): 256 images 32x32 of a stick figure, a torso plus four
// limbs, each limb in one of four positions (4^4 = 256 images, all combinations). Pixels are
// 0 or 1; no class labels.
Dataset makeSwimmer();

// Hoyer's bars (Hoyer 2004, "Non-negative matrix factorization with sparseness constraints"):
// side x side images, each of the 2 * side one-pixel bars (rows, then columns) present on its own
// with `probability`; overlapping pixels stay 1. Pixels 0/1, no labels. An image without any
// bar is drawn again: it carries nothing and has no direction for per-sample normalization.
struct BarsOptions {
    int side = 16;
    int samples = 1000;
    double probability = 1.0 / 8.0;
    std::uint64_t seed = 0;
};
Dataset makeBars(const BarsOptions& options = {});

// The 2 * side bars as columns of a side^2 x 2 side matrix: horizontal bar r at column r,
// vertical bar c at column side + c.
Matrix barsParts(int side = 16);

// One Gaussian of the 2-D overcomplete demo (METHODS.md section 7): centre and standard
// deviation, isotropic.
struct Gaussian2D {
    double x = 0;
    double y = 0;
    double spread = 1;
};

// The 2-D set of the overcomplete demo: `count` points split as evenly as possible over the
// components (the first ones get the remainder), labels = component. Points are drawn until they
// fall in the positive quadrant (x, y >= 0), so the set stays valid for NMF. m = 2, stored as
// height 1 x width 2.
struct GaussiansOptions {
    std::vector<Gaussian2D> components { { 2.0, 7.0, 0.8 }, { 7.0, 7.5, 0.8 }, { 5.0, 2.0, 0.8 } };
    int count = 150;
    std::uint64_t seed = 0;
};
// Throws std::invalid_argument for no components, a negative spread, a count below the number of
// components, or a centre so far outside the quadrant that no point lands in it.
Dataset makeGaussians(const GaussiansOptions& options = {});

// The 17 ground-truth parts of Swimmer (torso, then limb l position p at 1 + 4 l + p), as
// columns of a 1024 x 17 matrix of 0/1 pixels in the same row-major order.
Matrix swimmerParts();

} // namespace facet
