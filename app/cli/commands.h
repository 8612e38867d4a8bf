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
// continues it); a run stopped in its set-up, before any factors, wrote nothing.
inline constexpr int kExitInterrupted = 130;

// `facet-cli info DATASET`
int runInfo(const CliOptions& options, QTextStream& out, QTextStream& err);

// `facet-cli run ...`; `stop` ends the solve early (Ctrl+C): during the iterations the JSON is
// still written; during the set-up (the neighbour search, a kernel, PCA) nothing is, and the exit
// code is kExitInterrupted.
int runRun(const CliOptions& options, QTextStream& out, QTextStream& err, std::stop_token stop);

} // namespace facet::cli
