// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "cli/cli_options.h"
#include "experiment/paper_record.h"

#include <QJsonObject>
#include <QTextStream>

#include <stop_token>

namespace facet::cli {

// `facet-cli reproduce list` and `facet-cli reproduce PAPER --out DIR [options]`. An unknown
// paper, one that cannot be reproduced (LCCF: its corpora are not in the data folder), a data set
// the paper does not have or that is not available, and bad values are refused here.
Result<CliOptions> parseReproduceArguments(const QStringList& arguments);
QString reproduceUsage();

// The data folder: --data-dir, else FACET_DATA_DIR, else ../shared/data.
QString reproduceDataDir(const ReproduceCliOptions& options);

// The paper's protocol as `facet-cli sweep` options (name -> text, or true for a flag): the
// record's "sweep" options with the ones given to reproduce in their place.
QJsonObject reproducePreset(const PaperRecord& paper, const ReproduceCliOptions& options);
// The `facet-cli sweep` arguments of such options on one data set, ending with --dataset PATH
// (without --out, --resume and --threads).
QStringList presetSweepArguments(const QJsonObject& preset, const QString& dataPath);
// Both: the sweep that runs the paper's protocol on one data set.
QStringList reproduceSweepArguments(
    const PaperRecord& paper, const ReproduceCliOptions& options, const QString& dataPath);

// Where this run leaves the paper's protocol: one line per option given ("--trials 2 (the
// paper: 10)").
QStringList reproduceDepartures(const PaperRecord& paper, const ReproduceCliOptions& options);

// `reproduce list`: each paper with its data sets (and whether their files are in `dataDir`),
// its methods (and which Facet lacks), its protocol and what a run needs.
QString reproduceListText(const std::vector<PaperRecord>& papers, const QString& dataDir);

// Runs the paper's protocol as one sweep per data set into DIR/<data set>/ (a folder that
// already holds that sweep is resumed: the same command continues an interrupted reproduction),
// then writes DIR/reproduction.md, .csv, .json and, where the paper has cells, the plots
// reproduction_<data set>_ac/_nmi (.png, .svg, .pdf). Missing data files are refused before
// anything runs.
int runReproduce(
    const CliOptions& options, QTextStream& out, QTextStream& err, std::stop_token stop);

} // namespace facet::cli
