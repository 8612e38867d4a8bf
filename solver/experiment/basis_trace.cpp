// SPDX-License-Identifier: GPL-3.0-or-later
#include "experiment/basis_trace.h"

#include <map>
#include <memory>
#include <stdexcept>
#include <string>
#include <utility>

namespace facet {

namespace {

// Frames per start (replicate index = order of creation by the driver, as its seeds are).
using FrameBook = std::map<int, std::vector<BasisFrame>>;

// Forwards every call to the wrapped method and records its basis after initialize() and after
// every `every`-th step(). The snapshot finalizes the state and restores it exactly (restore()
// takes the full state, as it does for the driver's NonFinite fallback), so the trajectory is
// the untraced one.
class RecordingMethod final : public Method {
public:
    RecordingMethod(std::unique_ptr<Method> inner, int every, std::vector<BasisFrame>& frames)
        : m_inner(std::move(inner))
        , m_every(every)
        , m_frames(frames)
    {
    }

    std::string_view name() const override { return m_inner->name(); }
    void initialize(Rng& rng) override
    {
        m_inner->initialize(rng);
        record();
    }
    void step() override
    {
        m_inner->step();
        if (++m_iteration % m_every == 0)
            record();
    }
    double objective() const override { return m_inner->objective(); }
    UpdateTerms updateTerms(int factor) const override { return m_inner->updateTerms(factor); }
    std::vector<Matrix> state() const override { return m_inner->state(); }
    void saveState(std::vector<Matrix>& into) const override { m_inner->saveState(into); }
    void restore(const std::vector<Matrix>& state) override { m_inner->restore(state); }
    void restoreBeforeStep(const std::vector<Matrix>& state) override
    {
        m_inner->restoreBeforeStep(state);
    }
    std::vector<Matrix> stateFromFactors(std::vector<Matrix> factors) const override
    {
        return m_inner->stateFromFactors(std::move(factors));
    }
    // The stop rules read it: without it a traced hals run would not stop where the run does.
    double stationarity() const override { return m_inner->stationarity(); }
    void finalize() override { m_inner->finalize(); }
    void exportTo(Factorization& out) const override { m_inner->exportTo(out); }
    std::vector<std::string> notes() const override { return m_inner->notes(); }
    bool startedNewSegment() override { return m_inner->startedNewSegment(); }

private:
    void record()
    {
        const std::vector<Matrix> saved = m_inner->state();
        m_inner->finalize();
        Factorization out;
        m_inner->exportTo(out);
        m_inner->restore(saved);
        m_frames.push_back({ m_iteration, std::move(out.basis) });
    }

    std::unique_ptr<Method> m_inner;
    int m_every;
    int m_iteration = 0;
    std::vector<BasisFrame>& m_frames;
};

} // namespace

std::vector<BasisFrame> traceBasis(
    MatrixCRef X, const RunOptions& options, int every, const SolveControl& control)
{
    if (every < 1)
        throw std::invalid_argument(
            "a basis trace records every k-th iteration with k >= 1, got " + std::to_string(every));
    const MethodInfo* info = findMethod(options.method);
    if (!info)
        (void)makeMethodFactory(options.method, X, options.params); // throws with the known names
    if (info->baseline || info->semiSupervised)
        throw std::invalid_argument(options.method
            + " has no traceable basis path here (baselines have no iterations; semi-supervised "
              "methods need runAndCluster's labelled subset)");

    // runAndCluster's choice of c for the method (CF_OGL's eigenvectors), without the truth.
    MethodOptions params = options.params;
    if (params.clusters == 0)
        params.clusters = options.clusters > 0 ? options.clusters : params.rank;
    const MethodFactory inner = makeMethodFactory(options.method, X, params);

    // The driver makes one method per start, in replicate order, on this thread.
    auto book = std::make_shared<FrameBook>();
    auto created = std::make_shared<int>(0);
    const MethodFactory recording = [inner, every, book, created]() -> std::unique_ptr<Method> {
        std::vector<BasisFrame>& frames = (*book)[(*created)++];
        return std::make_unique<RecordingMethod>(inner(), every, frames);
    };
    const Factorization f = solve(recording, options.driver, control);

    std::vector<BasisFrame> frames = std::move((*book)[f.replicate]);
    // A step whose objective was not finite was recorded before the driver rolled it back.
    while (!frames.empty() && frames.back().iteration >= f.iterations)
        frames.pop_back();
    frames.push_back({ f.iterations, f.basis });
    return frames;
}

TracedRun runTraced(MatrixCRef X, const std::vector<int>& truth, const RunOptions& options,
    int every, const SolveControl& control)
{
    TracedRun run;
    if (every > 0)
        run.frames = traceBasis(X, options, every, control);
    run.result = runAndCluster(X, truth, options, control);
    return run;
}

} // namespace facet
