// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "cli/cli_options.h"
#include "data/dataset.h"
#include "experiment/run.h"
#include "experiment/run_report.h"

#include <QJsonObject>
#include <QTextStream>

#include <optional>
#include <stop_token>

namespace facet::cli {

// Exit codes of facet-cli.
inline constexpr int kExitOk = 0;
inline constexpr int kExitFailure = 1; // the input or the run failed; one line on stderr
inline constexpr int kExitUsage = 2; // the command line was wrong
// Ctrl+C (128 + SIGINT, the shell's convention): a sweep saved its finished cells (`--resume DIR`
// continues it); a run stopped in its set-up, before any factors, wrote nothing; a run stopped
// during its iterations wrote its outputs with the factors so far.
inline constexpr int kExitInterrupted = 130;

// `facet-cli info DATASET`; `stop` (Ctrl+C) ends the load of a MAT 7.3 file: kExitInterrupted.
int runInfo(const CliOptions& options, QTextStream& out, QTextStream& err, std::stop_token stop);

// `facet-cli run ...`; `stop` ends the solve early (Ctrl+C): during the iterations the outputs
// are still written; during the load or the set-up (the neighbour search, a kernel, PCA) nothing
// is. Either way the exit code is kExitInterrupted. The output paths are checked before the data
// is loaded.
int runRun(const CliOptions& options, QTextStream& out, QTextStream& err, std::stop_token stop);

// The steps of `run` before and after the solve, which a distributed run (cli/distributed_run.h)
// shares. runOutputsProblem: why an output path cannot be written (empty: every one can).
// prepareRunData: checks the output paths, loads and prepares the data set (--mask, --classes)
// into `data`; on failure says why on `err` and returns the exit code.
QString runOutputsProblem(const CliOptions& options);
std::optional<int> prepareRunData(const CliOptions& options, QTextStream& out, QTextStream& err,
    std::stop_token stop, Dataset& data, RunTimings& timings);
// Writes the JSON, --basis-png and --factors of a finished solve, all or none (each to its
// temporary file first), with `extra` keys added to the JSON, and prints the summary on `out`.
int writeRunOutputs(const CliOptions& options, const Dataset& data, const RunOptions& runOptions,
    const RunResult& result, const RunTimings& timings, const QJsonObject& extra, QTextStream& out,
    QTextStream& err);

// After a load that failed because `stop` was requested (Ctrl+C reaches facet-mat-reader too,
// which then ends by a signal): says the load was interrupted and returns kExitInterrupted.
int interruptedWhileLoading(const QString& dataset, QTextStream& err);
// Its message: "interrupted while loading DATASET; nothing was written".
QString interruptedWhileLoadingMessage(const QString& dataset);

} // namespace facet::cli
