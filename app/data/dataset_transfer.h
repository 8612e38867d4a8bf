// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "data/dataset.h"
#include "util/result.h"

#include <QString>

namespace facet {

// A loaded dataset handed from the helper process facet-mat-reader back to Facet
// (data/mat_reader_process.h): every field of Dataset, X as raw Scalars in its own layout.
// Not a file format for users: the two ends are the same build, and the file lives only in the
// temporary folder between them. Reading checks the magic, the Scalar size and that the sizes
// agree with the bytes present, so a truncated file (the helper killed while writing) is an
// error, not garbage.
Result<bool> writeDatasetTransfer(const Dataset& data, const QString& path);
Result<Dataset> readDatasetTransfer(const QString& path);

} // namespace facet
