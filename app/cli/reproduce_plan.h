// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "cli/cli_options.h"
#include "experiment/reproduction_report.h"

#include <QJsonObject>
#include <QTextStream>

#include <stop_token>
#include <vector>

namespace facet::cli {

// The sweeps of one reproduction (`reproduce PAPER`, and each row of `reproduce --sensitivity`):
// one per data set of the paper that the run takes.
struct PlannedDataset {
    const PaperDataset* info = nullptr;
    QString path; // the data file
    QString dir; // the sweep's folder
    CliOptions sweep; // the parsed sweep command
};

// The sweeps of `preset` (facet-cli sweep options, reproducePreset) on the paper's data sets that
// `options` takes, each into outDir/<data set>/ (resumed when that folder holds a results.json).
// A missing data file or a sweep command that does not parse is the error, before anything runs.
Result<std::vector<PlannedDataset>> planReproduction(const PaperRecord& paper,
    const ReproduceCliOptions& options, const QJsonObject& preset, const QString& outDir,
    int threads);

// Runs the planned sweeps one after the other in this process, each announced on `out`; the
// first exit code other than kExitOk (kExitInterrupted after Ctrl+C) ends it.
int runPlannedSweeps(const PaperRecord& paper, const std::vector<PlannedDataset>& plan,
    QTextStream& out, QTextStream& err, std::stop_token stop);

// A finished sweep's results compared with the paper, with the identity of its data and options
// (`sweepDir` relative to the folder above the sweep's: "yale", "baseline/yale").
Result<ReproducedDataset> collectReproduced(
    const PaperRecord& paper, const PlannedDataset& planned, const QString& sweepDir);

// What reproduce was asked, for the outputs: paper, data sets, trials, clusters, sub-runs,
// max-iter, seed, threads and the data folder.
QJsonObject reproduceOptionsJson(const ReproduceCliOptions& options, const QString& dataDir,
    const std::vector<PlannedDataset>& plan, int threads);

} // namespace facet::cli
