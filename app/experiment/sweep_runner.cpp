// SPDX-License-Identifier: GPL-3.0-or-later
#include "experiment/sweep_runner.h"

#include "core/openmp.h"

#include <Eigen/Core>

#include <algorithm>
#include <atomic>
#include <exception>
#include <mutex>
#include <thread>

namespace facet {

OmpSingleThread::OmpSingleThread()
    : m_previous(omp::maxThreads())
{
    omp::setThreads(1);
}

OmpSingleThread::~OmpSingleThread()
{
    omp::setThreads(m_previous);
}

std::optional<TrialResult> runExperimentCell(const ExperimentDataset& data,
    const ExperimentOptions& options, const ExperimentCell& cell, std::stop_token stop)
{
    const OmpSingleThread single;
    return runCell(data.dataFor(cell.method), options, cell, stop);
}

SweepRunOutcome runCellsInParallel(const ExperimentDataset& data, const ExperimentOptions& options,
    const std::vector<ExperimentCell>& cells, int threads, std::stop_token stop,
    const TrialCallback& onTrial)
{
    SweepRunOutcome outcome;
    if (cells.empty())
        return outcome;
    if (threads <= 0)
        threads = int(std::max(1u, std::thread::hardware_concurrency()));
    threads = std::min<int>(threads, int(cells.size()));

    Eigen::initParallel();
    std::atomic<std::size_t> next { 0 };
    std::atomic<bool> failed { false };
    std::mutex mutex; // guards outcome and serializes onTrial
    const auto work = [&] {
        const OmpSingleThread single;
        while (!stop.stop_requested() && !failed.load()) {
            const std::size_t index = next.fetch_add(1);
            if (index >= cells.size())
                return;
            try {
                const ExperimentCell& cell = cells[index];
                const std::optional<TrialResult> result
                    = runCell(data.dataFor(cell.method), options, cell, stop);
                if (!result)
                    continue; // stopped mid-cell: the loop condition ends the worker
                std::lock_guard lock(mutex);
                ++outcome.finished;
                if (onTrial)
                    onTrial(*result);
            } catch (const std::exception& e) {
                std::lock_guard lock(mutex);
                if (!failed.exchange(true))
                    outcome.error = e.what();
            } catch (...) {
                std::lock_guard lock(mutex);
                if (!failed.exchange(true))
                    outcome.error = "unknown error in a sweep cell";
            }
        }
    };
    {
        std::vector<std::jthread> workers;
        for (int t = 1; t < threads; ++t)
            workers.emplace_back(work);
        work(); // the calling thread is worker 0
    } // joins
    outcome.stopped = stop.stop_requested() && outcome.finished < int(cells.size());
    return outcome;
}

} // namespace facet
