// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "cli/cli_options.h"
#include "core/collectives.h"
#include "data/dataset.h"

#include <QString>
#include <QTextStream>

#include <optional>

namespace facet::cli {

// How the ranks of a distributed run (cli/distributed_run.h) come by their columns of X.
//
// Rank 0 reads and prepares the whole set and scatters the columns (every format), unless each
// rank can read its own: a generated set (gen:NxM) or a MAT 7.3 file (an HDF5 hyperslab per
// rank), without --classes (whose draw picks samples all over the file) and without the steps
// partLoadObstacle (data/dataset_source.h) names. Then no rank ever holds more than its part.

// Why each rank cannot read its own columns under these options: empty when it can.
QString eachRankReadsObstacle(const CliOptions& options);

// Every rank loads its own columns (loadDatasetPart) and prepares them as the whole set would be
// prepared (the [0, 1] scaling from the whole set's smallest and largest values); the ranks check
// that they read one set, refuse negative or unusable data as one process would, and hash the
// prepared set in rank order (DataDigest), so that data.whole holds what one process's outputs
// say of it, sha256 included. `mine` is this rank's range. On failure the lowest failing rank
// says why, and every rank returns the same exit code.
std::optional<int> loadOwnColumns(const CliOptions& options, Collectives& comm, Dataset& data,
    SampleRange& mine, QTextStream& err);

// Whether any rank has a non-empty `error`, on every rank; the lowest such rank prints it
// ("facet-cli: ..." on rank 0, "facet-cli (rank r of N): ..." elsewhere).
bool anyRankFailed(Collectives& comm, const QString& error, QTextStream& err);

} // namespace facet::cli
