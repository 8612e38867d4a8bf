// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "distributed/cell_workers.h"
#include "distributed/communicator.h"
#include "experiment/sweep_runner.h"

#include <QJsonObject>
#include <QString>
#include <QStringList>

#include <stop_token>
#include <vector>

namespace facet {

// A sweep spread over the ranks of a Communicator (`mpirun -np N facet-cli sweep ...`).
//
// Rank 0 coordinates and computes: it hands out cells one at a time to whichever slot (a worker
// thread of some rank, CellWorkers) is free, its own slots included, and alone collects the
// results, writes results.json and prints. Every rank loads the data itself and plans the same
// cells from the same options (planCells); a cell travels as its index in that plan and comes
// back as its results.json record (trialToJson), which reads back to the same numbers. A cell's
// numbers depend only on the data, the options and the cell (runCell), never on the rank or
// thread that ran it, so the sweep's results equal those of one process, for any N.
//
// The job's steps:
//   1. every rank other than 0 loads the data and sends a RankReport (sendRankReport);
//      rank 0 collects them (collectRankReports) and answers each rank with the outcome of
//      the start: go (exit code 0) or the reason not to (sendStart, waitForStart);
//   2. the cells: rank 0 runs coordinateCells, every other rank workCells;
//   3. rank 0 writes its outputs and sends every rank the job's exit code and message
//      (sendFinish), which workCells returns.
// A failing cell, on any rank, stops the others (their running cells are dropped, as with one
// process) and ends the sweep with its error on every rank; so does an interruption (SIGINT or
// SIGTERM) of any rank, with kExitInterrupted.

// What a rank says about itself before the cells start.
struct RankReport {
    int exitCode = 0; // 0: ready; otherwise why it cannot take part (a load that failed: 1, 130)
    QString error; // with exitCode != 0: the message
    QString host;
    QJsonObject options; // experimentOptionsToJson of what it parsed
    QJsonObject dataset; // sweepDatasetToJson of what it loaded (checksum included)
    int threads = 1; // slots (cells at a time)
};

// How the job ends (or does not start): an exit code and, unless empty, a message for stderr.
struct JobStatus {
    int exitCode = 0;
    QString message;
};

void sendRankReport(Communicator& comm, const RankReport& report);
// Rank 0: every rank's report, rank 0's own (`own`) first; waits for all of them.
std::vector<RankReport> collectRankReports(Communicator& comm, const RankReport& own);

// Rank 0 to every other rank: exit code 0 starts the cells; any other ends the job.
void sendStart(Communicator& comm, const JobStatus& start);
JobStatus waitForStart(Communicator& comm);

// Rank 0: runs the plan's cells `todo` (indices into the plan the workers were built with) on
// `local` and on the other ranks' slots (`ranks`, from collectRankReports), and calls onTrial on
// this thread for every finished cell, in completion order. The stop token (Ctrl+C, or the
// caller's own reason) stops every rank. Returns when every slot of every rank has ended.
SweepRunOutcome coordinateCells(Communicator& comm, CellWorkers& local,
    const std::vector<RankReport>& ranks, const std::vector<std::size_t>& todo,
    std::stop_token stop, const TrialCallback& onTrial);

// Any other rank: runs the cells rank 0 assigns until it sends the job's end (sendFinish), and
// returns that. A stop request (Ctrl+C, SIGTERM) on this rank stops the whole sweep.
JobStatus workCells(Communicator& comm, CellWorkers& local, const ExperimentOptions& options,
    const QStringList& classNames, std::stop_token stop);

// Rank 0, after coordinateCells and the outputs: ends workCells on every rank.
void sendFinish(Communicator& comm, const JobStatus& end);

// "rank 2 of 4 (node07)"
QString rankName(int rank, int size, const QString& host);

} // namespace facet
