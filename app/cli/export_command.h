// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "cli/cli_options.h"

#include <QCommandLineParser>
#include <QTextStream>

namespace facet::cli {

// `facet-cli export-dataset DATASET --out FILE.mat [options]`: the prepared set as a MAT-file
// in Deng Cai's layout (fea n x m, column-major images; gnd n x 1), which loads back unchanged.

void addExportOptions(QCommandLineParser& parser);
// --out (required), --normalize none|l2 (none), --no-scale (keep 0..255 values).
Result<bool> readExportOptions(const QCommandLineParser& parser, CliOptions& options);
QString exportUsage();

int runExportDataset(const CliOptions& options, QTextStream& out, QTextStream& err);

} // namespace facet::cli
