// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "cli/cli_options.h"

#include <QTextStream>

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

// After a load that failed because `stop` was requested (Ctrl+C reaches facet-mat-reader too,
// which then ends by a signal): says the load was interrupted and returns kExitInterrupted.
int interruptedWhileLoading(const QString& dataset, QTextStream& err);
// Its message: "interrupted while loading DATASET; nothing was written".
QString interruptedWhileLoadingMessage(const QString& dataset);

} // namespace facet::cli
