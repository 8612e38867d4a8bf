// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <exception>
#include <functional>
#include <stop_token>
#include <string>
#include <utility>

namespace facet {

// Cancel during a run's set-up. The driver checks the stop token between iterations, but a run
// can spend far longer before its first one: the exact kNN graph of 70,000 samples takes about a
// minute, a formed kernel of 20,000 samples several seconds, PCA's covariance and eigenpairs up
// to 1.6 s (bench/RESULTS.md). That work checks the token between its blocks and, once it is
// set, abandons the block loop and throws SetupCancelled naming the stage. runAndCluster
// (experiment/run.h) turns it into a Cancelled run without factors, so to its callers a cancel
// stays a result, never an error (ARCHITECTURE.md); nothing else lets it escape.
class SetupCancelled : public std::exception {
public:
    explicit SetupCancelled(std::string stage)
        : m_stage(std::move(stage))
        , m_what("cancelled during " + m_stage)
    {
    }
    // What was being computed, as a phrase: "the kNN graph".
    const std::string& stage() const noexcept { return m_stage; }
    const char* what() const noexcept override { return m_what.c_str(); }

private:
    std::string m_stage;
    std::string m_what;
};

// How far a long set-up step has come: called on the thread that runs the step, between its
// blocks (never inside an OpenMP region), with the fraction of its work done, rising to 1. It
// must not throw; it may request the step's stop, which the next check honours.
using StageProgress = std::function<void(double fraction)>;

inline void reportProgress(const StageProgress& progress, double fraction)
{
    if (progress)
        progress(fraction);
}

// Throws SetupCancelled(stage) when `stop` is set. Safe from any thread, but never from inside
// an OpenMP region (an exception must not leave one): there, skip the remaining blocks when
// stop.stop_requested() and call this after the region.
inline void throwIfStopped(const std::stop_token& stop, const char* stage)
{
    if (stop.stop_requested())
        throw SetupCancelled(stage);
}

} // namespace facet
