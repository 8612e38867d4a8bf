// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "data/dataset.h"
#include "data/image_set.h"
#include "data/mat_loader.h"
#include "data/preprocess_settings.h"
#include "util/result.h"

namespace facet {

// How a dataset argument is turned into a prepared Dataset: the file, folder or builtin:NAME,
// the loader's options, the image steps, then the preparation (METHODS.md section 8).
struct PrepareOptions {
    bool scaleTo01 = true; // 0..255 data divided by 255 (data already in [0,1] untouched)
    bool l2Normalize = false; // each sample to unit L2 norm
};

struct DatasetRequest {
    QString
        spec; // a .mat file, an image folder, an image list (.csv/.tsv), builtin:NAME or gen:NxM
    MatLoadOptions mat;
    PrepareOptions prepare;
    PreprocessSettings preprocess; // image steps and noise, before `prepare`
};

enum class DatasetKind { Unknown, Builtin, MatFile, ImageFolder, ImageList };

// What `spec` names, from the prefix, the folder, or the file's first bytes; Unknown when it
// does not exist or is none of these.
DatasetKind datasetKind(const QString& spec);

// Refuses an output that would replace the dataset `spec` or one of its images: the file
// itself (overwritesInputProblem), an existing image below an image folder, or an image an
// image list names. Empty when the output replaces none of them.
QString overwritesDatasetProblem(const QString& outputPath, const QString& spec);

// Names accepted after "builtin:".
QStringList builtinDatasetNames();

// A generated set's spec ("gen:NxM") that is malformed or whose data would not fit (over 8 GiB
// of doubles): the message; empty when it can be generated. loadDataset and facet-cli bench
// check it before they generate.
QString generatedSpecProblem(const QString& spec);

// Loads, runs the image steps and the noise of request.preprocess, then request.prepare.
Result<Dataset> loadDataset(const DatasetRequest& request);

// The decoded images of an image folder or list, before any step (for an inspector showing
// previewSample); other kinds are an error.
Result<ImageSet> loadImageSet(const QString& spec);

// Applies the preparation in place and records it in data.notes.
void prepareDataset(Dataset& data, const PrepareOptions& options);
// The same on one part of a set (loadDatasetPart): the [0, 1] scaling is decided by the whole
// set's smallest and largest values `lo` and `hi`, as prepareDataset decides it from the set it
// holds, so every part is scaled alike and notes the same.
void prepareDataset(Dataset& data, const PrepareOptions& options, double lo, double hi);

// Why `request` cannot be loaded in parts: empty when it can. A generated set (gen:NxM) is
// generated a part at a time, and a MAT 7.3 file is read in HDF5 hyperslabs; every other kind
// has to be read whole (a Level 5 variable is one zlib stream, a folder or list is decoded
// image by image), and so do the image steps, the noise and the missing entries, which look at
// a whole image or set.
QString partLoadObstacle(const DatasetRequest& request);
// Part `part` of `parts`, before request.prepare: the samples sampleRange (core/collectives.h)
// gives that part as X, and every sample's label. A rank of a distributed run loads its own
// columns this way and never holds the rest. Errors as loadDataset's, and partLoadObstacle's.
Result<Dataset> loadDatasetPart(const DatasetRequest& request, int part, int parts);

} // namespace facet
