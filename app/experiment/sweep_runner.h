// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "experiment/experiment_data.h"

#include <functional>
#include <optional>
#include <stop_token>
#include <string>
#include <vector>

namespace facet {

// The thread pool of the batch protocols. The solver owns no threads (ARCHITECTURE.md), so it
// offers a pure "run one cell" function (runCell) and this layer drives it: T workers
// (std::jthread) take cells in plan order from a shared counter.
//
// Reproducibility: every cell runs with exactly ONE inner thread (OpenMP and Eigen), whatever
// the pool size. Eigen's GEMM picks its blocking from its thread count, so a product computed
// with 2 inner threads differs in the last bits from the same product with 1; pinning the inner
// count makes a cell's numbers independent of --threads, and running T cells side by side keeps
// the cores busy without oversubscribing them.

// Pins the calling thread's OpenMP team size, and so its Eigen products (core/openmp.h), to 1 for
// the guard's lifetime. The OpenMP ICV is per thread, so other threads are not affected: the
// explorer's solve keeps both cores while an experiment's workers use one each.
class OmpSingleThread {
public:
    OmpSingleThread();
    ~OmpSingleThread();
    OmpSingleThread(const OmpSingleThread&) = delete;
    OmpSingleThread& operator=(const OmpSingleThread&) = delete;

private:
    int m_previous;
};

// One cell with the data its method needs, on the calling thread with one inner thread (an
// OmpSingleThread guard; other threads keep their own settings).
std::optional<TrialResult> runExperimentCell(const ExperimentDataset& data,
    const ExperimentOptions& options, const ExperimentCell& cell, std::stop_token stop = {});

struct SweepRunOutcome {
    int finished = 0; // cells that produced a result in this call
    bool stopped = false; // the stop token ended the run before every cell was done
    std::string error; // the first cell that threw (the others then stop); empty when none
};

// Called once per finished cell, on a worker thread, never concurrently with itself (the pool
// serializes the calls), in completion order. Keep it short: other workers wait for it only
// when they finish a cell themselves.
using TrialCallback = std::function<void(const TrialResult&)>;

// Runs `cells` on `threads` workers (0 = one per core; never more than there are cells).
// A stop request lets running cells end at their next iteration (they are dropped, not
// reported) and starts no new cell; every cell reported before stays valid.
SweepRunOutcome runCellsInParallel(const ExperimentDataset& data, const ExperimentOptions& options,
    const std::vector<ExperimentCell>& cells, int threads, std::stop_token stop,
    const TrialCallback& onTrial);

} // namespace facet
