// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "data/dataset.h"
#include "data/mat_loader.h"
#include "util/result.h"

namespace facet {

// How a dataset argument is turned into a prepared Dataset: the file or builtin:NAME, the
// loader's options, then the preparation (METHODS.md section 8).
struct PrepareOptions {
    bool scaleTo01 = true; // 0..255 data divided by 255 (data already in [0,1] untouched)
    bool l2Normalize = false; // each sample to unit L2 norm
};

struct DatasetRequest {
    QString spec; // a .mat path or builtin:swimmer
    MatLoadOptions mat;
    PrepareOptions prepare;
};

// Names accepted after "builtin:".
QStringList builtinDatasetNames();

Result<Dataset> loadDataset(const DatasetRequest& request);

// Applies the preparation in place and records it in data.notes.
void prepareDataset(Dataset& data, const PrepareOptions& options);

} // namespace facet
