// SPDX-License-Identifier: GPL-3.0-or-later
#include "distributed/cell_workers.h"

#include "experiment/sweep_runner.h"

#include <Eigen/Core>

#include <algorithm>
#include <exception>
#include <utility>

namespace facet {

CellWorkers::CellWorkers(const ExperimentDataset& data, const ExperimentOptions& options,
    const std::vector<ExperimentCell>& plan, int threads)
    : m_data(data)
    , m_options(options)
    , m_plan(plan)
    , m_next(std::size_t(std::max(1, threads)))
{
    Eigen::initParallel();
    for (int slot = 0; slot < int(m_next.size()); ++slot)
        m_threads.emplace_back([this, slot] { work(slot); });
}

CellWorkers::~CellWorkers()
{
    m_stop.request_stop();
    {
        const std::lock_guard lock(m_mutex);
        for (auto& next : m_next)
            next.emplace(std::nullopt);
    }
    m_assigned.notify_all();
    m_threads.clear(); // joins
}

void CellWorkers::assign(int slot, std::optional<std::size_t> cell)
{
    {
        const std::lock_guard lock(m_mutex);
        m_next.at(std::size_t(slot)).emplace(cell);
    }
    m_assigned.notify_all();
}

void CellWorkers::stop()
{
    m_stop.request_stop();
}

std::vector<SlotReport> CellWorkers::takeReports(std::chrono::milliseconds wait)
{
    std::unique_lock lock(m_mutex);
    m_reported.wait_for(lock, wait, [this] { return !m_reports.empty(); });
    return std::exchange(m_reports, {});
}

void CellWorkers::report(SlotReport r)
{
    {
        const std::lock_guard lock(m_mutex);
        m_reports.push_back(std::move(r));
    }
    m_reported.notify_one();
}

void CellWorkers::work(int slot)
{
    const OmpSingleThread single;
    const std::stop_token stop = m_stop.get_token();
    report({ SlotReport::Kind::Ready, slot, 0, {}, {} });
    for (;;) {
        std::optional<std::size_t> cell;
        {
            std::unique_lock lock(m_mutex);
            auto& next = m_next[std::size_t(slot)];
            m_assigned.wait(lock, [&next] { return next.has_value(); });
            cell = *next;
            next.reset();
        }
        if (!cell)
            return;
        SlotReport r { SlotReport::Kind::Stopped, slot, *cell, {}, {} };
        try {
            const ExperimentCell& c = m_plan.at(*cell);
            if (!stop.stop_requested())
                if (std::optional<TrialResult> t
                    = runCell(m_data.dataFor(c.method), m_options, c, stop)) {
                    r.kind = SlotReport::Kind::Finished;
                    r.trial = std::move(*t);
                }
        } catch (const std::exception& e) {
            r.kind = SlotReport::Kind::Failed;
            r.error = e.what();
        } catch (...) {
            r.kind = SlotReport::Kind::Failed;
            r.error = "unknown error in a sweep cell";
        }
        report(std::move(r));
    }
}

} // namespace facet
