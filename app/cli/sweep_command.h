// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "cli/cli_options.h"
#include "cli/commands.h" // kExitInterrupted
#include "distributed/communicator.h"
#include "experiment/experiment_data.h"

#include <QCoreApplication>
#include <QTextStream>

#include <memory>
#include <stop_token>

namespace facet::cli {

// The application object for the command line (argv as main() gets it): `sweep`, `rank-survey`
// and `reproduce` draw plots with QCustomPlot and so get a QApplication on the offscreen platform
// (unless QT_QPA_PLATFORM is set); every other command keeps the Widgets-free QCoreApplication.
std::unique_ptr<QCoreApplication> makeCliApplication(int& argc, char** argv);

// `facet-cli sweep ...`; `stop` (Ctrl+C) ends the load of a MAT 7.3 file, or the running cells
// and keeps the finished ones. With more than one rank in `comm` (mpirun), rank 0 runs the
// sweep as alone, with the cells spread over every rank (distributed/distributed_sweep.h); the
// other ranks compute the cells it hands them and print only errors.
int runSweep(const CliOptions& options, QTextStream& out, QTextStream& err, std::stop_token stop,
    Communicator& comm);

// The labelled data of a sweep, prepared for its methods and checked against its options;
// `stop` ends the load of a MAT 7.3 file (MatLoadOptions::stop).
Result<std::shared_ptr<ExperimentDataset>> loadExperimentData(
    const CliOptions& options, std::stop_token stop = {});

// `facet-cli sweep-cell --from DIR ...`: one cell again, compared with its record.
int runSweepCell(const CliOptions& options, QTextStream& out, QTextStream& err);

} // namespace facet::cli
