// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "experiment/experiment_data.h"

#include <chrono>
#include <condition_variable>
#include <cstddef>
#include <mutex>
#include <optional>
#include <stop_token>
#include <string>
#include <thread>
#include <vector>

namespace facet {

// What a worker thread of CellWorkers reports. Every report also says that its slot is free:
// the slot then waits for its next cell (CellWorkers::assign).
struct SlotReport {
    enum class Kind {
        Ready, // the slot has started and has no cell yet
        Finished, // `trial` is the result of `cell`
        Failed, // `cell` threw; `error` says what
        Stopped, // `cell` was stopped before it finished (dropped, as in runCellsInParallel)
    };
    Kind kind = Kind::Ready;
    int slot = 0;
    std::size_t cell = 0; // index into the plan
    TrialResult trial;
    std::string error;
};

// The cells one process of a distributed sweep computes: `threads` worker threads ("slots"),
// each running one cell of `plan` at a time, the one it is assigned. The thread that owns the
// communicator assigns cells and collects the reports; the workers never touch it.
//
// Each cell runs as in runCellsInParallel, with one inner thread (OmpSingleThread), so its
// numbers do not depend on the thread or the process that ran it.
class CellWorkers {
public:
    // `data`, `options` and `plan` must outlive the object.
    CellWorkers(const ExperimentDataset& data, const ExperimentOptions& options,
        const std::vector<ExperimentCell>& plan, int threads);
    // Stops the running cells and joins the threads.
    ~CellWorkers();
    CellWorkers(const CellWorkers&) = delete;
    CellWorkers& operator=(const CellWorkers&) = delete;

    int slotCount() const { return int(m_threads.size()); }
    // Gives slot `slot`, which has reported, its next cell; nullopt ends the slot's thread.
    void assign(int slot, std::optional<std::size_t> cell);
    // Running cells end at their next iteration and report Stopped; assigned cells that have
    // not started report Stopped at once.
    void stop();
    // The reports made since the last call, in order; waits up to `wait` for the first.
    std::vector<SlotReport> takeReports(std::chrono::milliseconds wait);

private:
    void work(int slot);
    void report(SlotReport r);

    const ExperimentDataset& m_data;
    const ExperimentOptions& m_options;
    const std::vector<ExperimentCell>& m_plan;
    std::stop_source m_stop;
    std::mutex m_mutex;
    std::condition_variable m_assigned; // a slot's assignment changed
    std::condition_variable m_reported; // m_reports grew
    // Per slot: the assignment not yet taken by its thread (the outer optional), where an empty
    // inner optional ends the thread.
    std::vector<std::optional<std::optional<std::size_t>>> m_next;
    std::vector<SlotReport> m_reports;
    std::vector<std::jthread> m_threads;
};

} // namespace facet
