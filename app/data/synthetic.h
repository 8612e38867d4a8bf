// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "data/dataset.h"

namespace facet {

// The Swimmer set (Donoho & Stodden): 256 images 32x32 of a stick figure, a torso plus four
// limbs, each limb in one of four positions (4^4 = 256 images, all combinations). Pixels are
// 0 or 1; no class labels.
Dataset makeSwimmer();

// The 17 ground-truth parts of Swimmer (torso, then limb l position p at 1 + 4 l + p), as
// columns of a 1024 x 17 matrix of 0/1 pixels in the same row-major order.
Matrix swimmerParts();

} // namespace facet
