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

// `facet-cli info DATASET`
int runInfo(const CliOptions& options, QTextStream& out, QTextStream& err);

// `facet-cli run ...`; `stop` ends the solve early (Ctrl+C), the JSON is still written.
int runRun(const CliOptions& options, QTextStream& out, QTextStream& err, std::stop_token stop);

} // namespace facet::cli
