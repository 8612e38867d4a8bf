// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "data/dataset_source.h"
#include "util/result.h"

#include <QJsonObject>

namespace facet {

// Everything that turns the files into the prepared data, as sessions and every CLI JSON save
// it: scale01, l2_normalize, pixel_order, then the image steps of preprocessToJson.
QJsonObject preparationToJson(const DatasetRequest& request);

// The whole request: { "path", "data_var", "label_var", "preprocess": preparationToJson }.
QJsonObject datasetRequestToJson(const DatasetRequest& request);

// The inverse of datasetRequestToJson; missing keys keep their defaults, wrong ones are errors.
Result<DatasetRequest> datasetRequestFromJson(const QJsonObject& object);

} // namespace facet
