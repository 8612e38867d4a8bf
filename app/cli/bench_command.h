// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "cli/cli_options.h"
#include "util/choices.h"

#include <QCommandLineParser>
#include <QTextStream>

namespace facet::cli {

// `facet-cli bench [--datasets LIST] [--methods LIST] [--ranks LIST] [--precision double|float]
// [--iterations N] [--repeats R] [--knn MODE] [--knn-recall] [--export-npy DIR] --json OUT`:
// per method x dataset x rank the median ms per iteration, the achieved GFLOP/s, the roofline
// limit measured in the same run and the peak resident memory (bench/RESULTS.md).

void addBenchOptions(QCommandLineParser& parser);
Result<bool> readBenchOptions(const QCommandLineParser& parser, CliOptions& options);
QString benchUsage();

int runBench(const CliOptions& options, QTextStream& out, QTextStream& err);

} // namespace facet::cli
