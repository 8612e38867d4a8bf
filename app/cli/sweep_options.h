// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "cli/cli_options.h"

namespace facet::cli {

// `facet-cli sweep ...` and `facet-cli sweep-cell ...` (arguments without the program name,
// starting with the command). Errors are one line a user can act on.
Result<CliOptions> parseSweepArguments(const QStringList& arguments);

QString sweepUsage();
QString sweepCellUsage();

} // namespace facet::cli
