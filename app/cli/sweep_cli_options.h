// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "experiment/protocol.h"

#include <QString>
#include <QStringList>

#include <optional>

namespace facet::cli {

// `facet-cli sweep` and `facet-cli sweep-cell` (the dataset, the preparation and --threads are
// in CliOptions itself).
struct SweepCliOptions {
    ExperimentOptions experiment;
    QString outDir; // --out, or the folder of --resume
    bool resume = false;
    bool clustersDefaulted = false; // no --clusters: 2-10, which messages then mention
    QStringList compare; // --compare A,B; empty: every method against the best
    // The arguments that reproduce the sweep (dataset path made absolute, --out, --resume and
    // --threads left out): results.json records them and sweep-cell parses them again.
    QStringList arguments;

    // sweep-cell: the cell to re-run from the sweep in fromDir.
    QString fromDir;
    ExperimentCell cell; // trial 0-based here, 1-based on the command line
    std::optional<double> parameterValue; // --param-value, for parameter sweeps
    QString cellJsonPath; // --json
};

} // namespace facet::cli
