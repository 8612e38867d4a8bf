// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "cli/cli_options.h"
#include "core/collectives.h"

#include <QString>
#include <QStringList>
#include <QTextStream>

#include <functional>

namespace facet::cli {

// `mpirun -np N facet-cli run ...`: one factorization with its samples (the columns of X) split
// over the ranks (core/collectives.h). Each rank reads its own columns where the format allows
// (cli/distributed_data.h); otherwise rank 0 loads and prepares the data set as `run` does and
// scatters the columns (sampleRange: whole blocks of 64 samples). Each rank keeps its samples' rows
// of V (and W), the basis side is replicated, and every iteration reduces the m x k and k x k
// products. Rank 0 then gathers V (and W), clusters, scores and writes the outputs once, all or
// none, as `run` does. docs/cluster.md has what each rank reads and the cost per iteration.

// Why these options cannot run distributed (empty: they can): the methods whose sums over the
// samples are reduced here are nmf (every algorithm) and cnmf, and cf, lcf and ccf with the
// linear kernel, from the random or the nmf start. CNMF's and CCF's labelled samples are drawn on
// rank 0 (runAndCluster's draw) and sent to every rank with the columns' header.
QString distributedRunRefusal(const CliOptions& options);

// Every rank runs this with its parsed options and its command line (`arguments`, compared with
// rank 0's). A rank that fails inside the solve, where the others wait for it in a collective,
// prints its error and calls `abortJob` (MPI_Abort), which ends every rank. Returns the exit code.
int runDistributedRun(const CliOptions& options, const QStringList& arguments, QTextStream& out,
    QTextStream& err, Collectives& comm, const std::function<void(int)>& abortJob);

} // namespace facet::cli
