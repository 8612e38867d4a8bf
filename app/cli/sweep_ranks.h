// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "cli/cli_options.h"
#include "distributed/distributed_sweep.h"
#include "experiment/experiment_data.h"

#include <QTextStream>

#include <memory>
#include <optional>
#include <stop_token>
#include <vector>

namespace facet::cli {

// The ranks of `mpirun -np N facet-cli sweep ...` (distributed/distributed_sweep.h): what each
// says about itself before the cells start, rank 0's check of it, and the part of every rank
// but 0.

// Cells a rank runs at a time: --threads, or under a launcher with several ranks 1 when it is 0
// (the default): start one rank per core, or give --threads T to run T cells in each rank.
int threadsPerRank(int threads, int ranks);

// This rank's report: ready with the data it loaded, or the failure that stops it.
RankReport rankReport(const CliOptions& options, const std::shared_ptr<ExperimentDataset>& loaded,
    const std::optional<JobStatus>& failure, int ranks);

// Rank 0, every report in hand (its own ready): the first rank that cannot take part, or that
// parsed other options or loaded other data than rank 0, as the job's failure; nullopt to go.
std::optional<JobStatus> checkRanks(const std::vector<RankReport>& ranks);

// A rank whose command line did not parse (`failure`: kExitUsage and the parser's message) still
// takes part in the start, so that no other rank waits for it: rank 0 collects the reports and
// ends the job with its failure, any other rank reports it. Returns the job's exit code.
int refuseDistributedSweep(Communicator& comm, const JobStatus& failure, QTextStream& err);

// `facet-cli sweep` on a rank other than 0: loads the data, reports, computes the cells rank 0
// assigns, and exits with the job's exit code. It writes no file and prints only an error (one
// line, naming this rank); an interruption is reported by rank 0 alone.
int runSweepRank(
    const CliOptions& options, QTextStream& err, std::stop_token stop, Communicator& comm);

} // namespace facet::cli
