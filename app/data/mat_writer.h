// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "data/dataset.h"
#include "util/result.h"

namespace facet {

// Writes a dataset the way Deng Cai's files hold one, so loadMat (and MATLAB code written for
// those files) reads it back: `fea` n x m double, one sample per row, each image in
// column-major pixel order (MATLAB reshape(fea(i,:), h, w)); `gnd` n x 1 double with the class
// names as values when they are all numbers, else 1..c in class order (no gnd when unlabelled);
// `im_height` and `im_width` for non-square images. MAT 5, zlib-compressed; written to a
// temporary file beside `path` and renamed over it, so a failure leaves no half file.
// 28x28 images load back with --pixel-order column: the loader takes that size for MNIST.
Result<bool> writeDatasetMat(const QString& path, const Dataset& data);

} // namespace facet
