// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/random.h"
#include "data/dataset.h"

namespace facet::testing {

// 6 classes of 8 images 4x4: class k lights its own pixels, plus noise; values in [0, 1]. Small
// enough for sweeps of many cells in a test; `seed` draws the noise.
inline Dataset plantedSquares(std::uint64_t seed)
{
    Dataset d;
    d.name = QStringLiteral("Planted");
    d.height = d.width = 4;
    Rng rng(seed);
    const int classes = 6, per = 8;
    d.X = 0.05 * rng.uniformMatrix(16, classes * per);
    for (int k = 0; k < classes; ++k) {
        d.classNames << QString::number(k + 1);
        for (int i = 0; i < per; ++i) {
            for (int f = 0; f < 16; ++f)
                if (f % classes == k)
                    d.X(f, k * per + i) += Scalar(0.5 + 0.4 * rng.uniform());
            d.labels.push_back(k);
        }
    }
    return d;
}

} // namespace facet::testing
