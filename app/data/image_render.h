// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/types.h"

#include <QImage>

namespace facet {

// How a column of values becomes grey levels.
enum class ImageScaling {
    PerImage, // min..max of this image -> black..white
    Signed, // diverging blue-white-red around 0, symmetric in |max|
};

// One column (h * w values, row-major) as an upright h x w image.
QImage columnToImage(const Eigen::Ref<const Vector>& column, int height, int width,
    ImageScaling scaling = ImageScaling::PerImage);

// All columns of M as a grid of tiles (`columns` tiles per row, `gap` pixels between tiles,
// each tile scaled by `zoom`), for basis PNGs and the README.
QImage imageMosaic(MatrixCRef M, int height, int width, int columns, int zoom = 2, int gap = 2,
    ImageScaling scaling = ImageScaling::PerImage);

} // namespace facet
