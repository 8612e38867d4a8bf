// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "data/dataset_source.h"
#include "util/result.h"

#include <QCommandLineParser>
#include <QString>

namespace facet::cli {

// The image-step options every DATASET argument takes (the GUI's preprocessing panel):
// --size HxW|raw, --gray, --no-gray, --detect-faces, --no-face skip|center, --equalize,
// --noise SPEC, --noise-seed S.
void addPreprocessOptions(QCommandLineParser& parser);

// Reads them into request.preprocess. With `paperSize` (run, export-dataset) image folders and
// lists are brought to 32x32 when --size is not given (METHODS.md section 8: the papers'
// size); `info` shows the files as they are.
Result<bool> readPreprocessOptions(
    const QCommandLineParser& parser, DatasetRequest& request, bool paperSize);

// The options' lines for the usage texts.
QString preprocessUsage();

} // namespace facet::cli
