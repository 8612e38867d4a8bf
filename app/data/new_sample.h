// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "data/dataset.h"
#include "data/dataset_source.h"
#include "util/result.h"

#include <QImage>

namespace facet {

// An image file from outside the dataset, made into one more sample of it: decoded, through the
// dataset's image steps (grey, faces and eyes, equalization, as the request says) at the
// dataset's image size, then the dataset's preparation (0..255 to [0, 1], L2 when it was
// asked for). Noise is left out: it models a degraded data set, not the picture shown.
struct NewSample {
    Vector x; // m values, row-major pixels like the dataset's columns
    QImage image; // the prepared sample as 8-bit grey, for display
    QString outcome; // what the image steps did ("face aligned by the eyes", "resized")
};

// Errors: an unreadable file, a dataset whose samples are not images, a face required and not
// found (the dataset skips such images).
Result<NewSample> sampleFromImageFile(
    const QString& path, const Dataset& data, const DatasetRequest& request);

} // namespace facet
