// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "data/dataset_source.h"
#include "experiment/protocol.h"

#include <QStringList>

namespace facet {

// The `facet-cli sweep` arguments (from the command name on, without --out) that reproduce an
// experiment made in the GUI: results.json records them, so `facet-cli sweep --resume DIR` and
// `sweep-cell` work on a GUI export as on a CLI one. Parsing them gives the same options and
// dataset request (tested by a round trip through the CLI parser). Only options that differ
// from the CLI's defaults are written, so the line stays readable.
QStringList sweepArguments(const ExperimentOptions& options, const DatasetRequest& request);

} // namespace facet
