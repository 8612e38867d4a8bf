// SPDX-License-Identifier: GPL-3.0-or-later
#include "experiment/rank_survey.h"

#include "core/random.h"
#include "experiment/sweep_runner.h"
#include "methods/mask.h"
#include "metrics/quality.h"

#include <QStringList>

#include <Eigen/Core>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <condition_variable>
#include <exception>
#include <functional>
#include <mutex>
#include <optional>
#include <stdexcept>
#include <string>
#include <thread>
#include <tuple>
#include <utility>
#include <vector>

namespace facet {

using namespace Qt::StringLiterals;

namespace {

// sqrt(sum (X - basis V^T)^2 / sum X^2) over the entries the fold held out that the data
// observes (`observed` null: every entry is observed).
double heldOutError(MatrixCRef X, const Matrix& weights, const Matrix* observed,
    const Matrix& basis, const Matrix& V)
{
    double residual = 0, total = 0;
    for (Eigen::Index j = 0; j < X.cols(); ++j)
        for (Eigen::Index i = 0; i < X.rows(); ++i)
            if (weights(i, j) == 0 && (!observed || (*observed)(i, j) != 0)) {
                const double x = double(X(i, j));
                const double r = x - double(basis.row(i).dot(V.row(j)));
                residual += r * r;
                total += x * x;
            }
    return total > 0 ? std::sqrt(residual / total) : std::nan("");
}

// One fit of the survey: rank k, run `index` (index < runs) or held-out fold index - runs.
struct FitJob {
    int k = 0;
    int index = 0;
};

// What the survey keeps of a finished fit.
struct FitRecord {
    std::vector<int> predicted;
    std::optional<double> ac;
    std::optional<double> nmi;
    double reconstruction = 0;
    double sparsenessV = 0;
    double sparsenessBasis = 0;
    double seconds = 0;
    bool converged = false;
    double heldOut = std::nan(""); // folds only
};

// Null when the fit was cancelled.
std::optional<FitRecord> recordOf(
    const RunResult& one, MatrixCRef X, const Matrix* fold, const Matrix* observed)
{
    const Factorization& f = one.factorization;
    if (!one.cancelledDuring.empty() || f.stopReason == StopReason::Cancelled)
        return std::nullopt;
    FitRecord r;
    if (fold) {
        r.heldOut = heldOutError(X, *fold, observed, f.basis, f.V);
        return r;
    }
    r.predicted = one.predicted;
    r.ac = one.ac;
    r.nmi = one.nmi;
    r.reconstruction = one.reconstructionError;
    r.sparsenessV = one.sparseness;
    r.sparsenessBasis = f.basis.size() > 0 ? hoyerSparseness(f.basis) : std::nan("");
    r.seconds = one.setupSeconds + f.initSeconds + f.solveSeconds + one.clusterSeconds;
    r.converged = f.stopReason == StopReason::Converged;
    return r;
}

// The row of rank k from its records: runs first, then the folds.
RankSurveyRow rowOf(int k, std::vector<std::optional<FitRecord>>::const_iterator first, int perRank,
    const RankSurveyOptions& options)
{
    const int runs = options.runs;
    std::vector<std::vector<int>> clusterings;
    std::vector<double> ac, nmi, reconstruction, sparseV, sparseBasis, seconds, heldOut;
    RankSurveyRow row;
    row.rank = k;
    for (int r = 0; r < perRank; ++r) {
        const FitRecord& record = **(first + r);
        if (r >= runs) {
            heldOut.push_back(record.heldOut);
            continue;
        }
        clusterings.push_back(record.predicted);
        if (record.ac)
            ac.push_back(*record.ac);
        if (record.nmi)
            nmi.push_back(*record.nmi);
        reconstruction.push_back(record.reconstruction);
        sparseV.push_back(record.sparsenessV);
        sparseBasis.push_back(record.sparsenessBasis);
        seconds.push_back(record.seconds);
        row.converged += record.converged ? 1 : 0;
    }
    row.heldOut = meanStd(heldOut);
    row.consensus = consensusOf(clusterings, options.maxConsensusBytes);
    if (!options.keepConsensus)
        row.consensus.matrix.resize(0, 0);
    row.ac = meanStd(ac);
    row.nmi = meanStd(nmi);
    row.reconstruction = meanStd(reconstruction);
    row.sparsenessV = meanStd(sparseV);
    row.sparsenessBasis = meanStd(sparseBasis);
    row.seconds = meanStd(seconds);
    return row;
}

// Runs the jobs on `workers` threads (each with one inner thread and its own set-up cache; 0: one
// per core) and reports each finished fit on the calling thread. A stop, or a fit that throws,
// ends the workers after their current fit; the first exception is rethrown here.
using FitFunction
    = std::function<std::optional<FitRecord>(const FitJob&, SetupCache&, std::stop_token)>;
void runFits(const std::vector<FitJob>& jobs, std::vector<std::optional<FitRecord>>& records,
    const FitFunction& fit, int workers, const RankSurveyProgress& progress, std::stop_token stop)
{
    if (workers <= 0)
        workers = int(std::max(1u, std::thread::hardware_concurrency()));
    workers = std::min(workers, int(jobs.size()));
    std::stop_source abort;
    const std::stop_callback forward(stop, [&abort] { abort.request_stop(); });
    std::mutex mutex;
    std::condition_variable changed;
    std::vector<std::size_t> finished; // fits done and not yet reported, in the order they ended
    int running = workers;
    std::exception_ptr error;
    std::atomic<std::size_t> next { 0 };
    const auto work = [&] {
        const OmpSingleThread single;
        SetupCache cache;
        while (!abort.stop_requested()) {
            const std::size_t i = next.fetch_add(1);
            if (i >= jobs.size())
                break;
            try {
                std::optional<FitRecord> record = fit(jobs[i], cache, abort.get_token());
                const std::lock_guard lock(mutex);
                if (record) {
                    records[i] = std::move(record);
                    finished.push_back(i);
                }
            } catch (...) {
                const std::lock_guard lock(mutex);
                if (!error)
                    error = std::current_exception();
                abort.request_stop();
            }
            changed.notify_one();
        }
        const std::lock_guard lock(mutex);
        --running;
        changed.notify_one();
    };
    const int total = int(jobs.size());
    if (progress)
        progress(0, total, jobs.front().k, 0);
    Eigen::initParallel();
    std::vector<std::jthread> threads;
    for (int t = 0; t < workers; ++t)
        threads.emplace_back(work);
    int done = 0;
    std::unique_lock lock(mutex);
    for (;;) {
        changed.wait(lock, [&] { return !finished.empty() || running == 0; });
        std::vector<std::size_t> batch;
        batch.swap(finished);
        const bool over = running == 0;
        lock.unlock();
        for (const std::size_t i : batch)
            if (progress)
                progress(++done, total, jobs[i].k, jobs[i].index);
        if (over)
            break;
        lock.lock();
    }
    threads.clear(); // every worker has left its loop: joins at once
    if (error)
        std::rethrow_exception(error);
}

} // namespace

Matrix heldOutWeights(Eigen::Index m, Eigen::Index n, double holdout, std::uint64_t seed, int fold)
{
    Rng rng(seed ^ (0x9E3779B97F4A7C15ULL * std::uint64_t(fold + 1)));
    Matrix weights(m, n);
    for (Eigen::Index j = 0; j < n; ++j)
        for (Eigen::Index i = 0; i < m; ++i)
            weights(i, j) = rng.uniform() < holdout ? Scalar(0) : Scalar(1);
    return weights;
}

RankSurveyResult runRankSurvey(MatrixCRef X, const std::vector<int>& labels,
    const RankSurveyOptions& options, const RankSurveyProgress& progress, std::stop_token stop)
{
    if (options.ranks.empty())
        throw std::invalid_argument("the rank survey needs at least one rank");
    if (options.runs < 1)
        throw std::invalid_argument("the rank survey needs at least one run per rank");
    const Eigen::Index limit = std::min(X.rows(), X.cols());
    for (int k : options.ranks)
        if (k < 1 || k > limit)
            throw std::invalid_argument("rank " + std::to_string(k) + " is outside 1.."
                + std::to_string(limit) + " (min(m, n) of this data)");
    if (const std::string problem = consensusSizeProblem(X.cols(), options.maxConsensusBytes);
        !problem.empty())
        throw std::invalid_argument(problem);
    if (options.folds > 0 && !(options.holdout > 0 && options.holdout <= 0.5))
        throw std::invalid_argument("the held-out fraction must be in (0, 0.5]");

    const bool heldOut = options.folds > 0 && acceptsMask(options.run.method);
    QString heldOutNote;
    if (options.folds > 0 && !heldOut)
        heldOutNote = QString::fromStdString(maskRefusal(options.run.method));
    // The same folds at every rank, so the ranks are compared on the same held-out entries.
    // Data with missing entries (options.run.params.weights) holds out among its observed
    // entries: a fold's weights are the data's times the fold's.
    const Matrix* observed = options.run.params.weights.get();
    std::vector<std::shared_ptr<const Matrix>> folds;
    for (int f = 0; heldOut && f < options.folds; ++f) {
        Matrix fold
            = heldOutWeights(X.rows(), X.cols(), options.holdout, options.run.driver.seed, f);
        if (observed)
            fold.array() *= observed->array();
        folds.push_back(std::make_shared<const Matrix>(std::move(fold)));
    }
    const int perRank = options.runs + int(folds.size());
    std::vector<FitJob> jobs;
    for (std::size_t i = 0; i < options.ranks.size(); ++i)
        for (int r = 0; r < perRank; ++r)
            jobs.push_back({ options.ranks[i], r });
    std::vector<std::optional<FitRecord>> records(jobs.size());
    const auto fit = [&](const FitJob& job, SetupCache& cache, std::stop_token token) {
        RunOptions run = options.run;
        run.params.rank = job.k;
        run.clusters = job.k;
        const Matrix* fold = job.index >= options.runs
            ? folds[std::size_t(job.index - options.runs)].get()
            : nullptr;
        if (fold)
            run.params.weights = folds[std::size_t(job.index - options.runs)];
        else
            run.driver.seed = options.run.driver.seed + std::uint64_t(job.index);
        SolveControl control;
        control.stop = token;
        // A fold's graph (GNMF) is built on its own filled data: no cache.
        const RunResult one = fold ? runAndCluster(X, {}, run, control)
                                   : runAndCluster(X, labels, run, control, &cache);
        return recordOf(one, X, fold, observed);
    };
    runFits(jobs, records, fit, options.workers, progress, stop);

    RankSurveyResult result;
    result.heldOutNote = heldOutNote;
    for (std::size_t i = 0; i < options.ranks.size(); ++i) {
        const auto first = records.begin() + std::ptrdiff_t(i * std::size_t(perRank));
        if (!std::all_of(first, first + perRank, [](const auto& r) { return r.has_value(); })) {
            result.cancelled = true; // the ranks before i are complete
            break;
        }
        result.rows.push_back(rowOf(options.ranks[i], first, perRank, options));
    }
    if (progress && !result.cancelled)
        progress(int(jobs.size()), int(jobs.size()), 0, 0);
    result.byCophenetic = suggestByCophenetic(result.rows);
    result.byHeldOut = suggestByHeldOut(result.rows);
    return result;
}

RankSuggestion suggestByHeldOut(const std::vector<RankSurveyRow>& rows)
{
    const RankSurveyRow* best = nullptr;
    for (const RankSurveyRow& row : rows)
        if (row.heldOut.count > 0 && std::isfinite(row.heldOut.mean)
            && (!best || row.heldOut.mean < best->heldOut.mean))
            best = &row;
    if (!best)
        return { 0, u"no held-out error was measured"_s };
    return { best->rank,
        u"the held-out error is lowest at k = %1 (%2 over %3 folds): a larger rank fits the noise "
        "of the entries it sees"_s.arg(best->rank)
            .arg(best->heldOut.mean, 0, 'f', 4)
            .arg(best->heldOut.count) };
}

RankSuggestion suggestByCophenetic(const std::vector<RankSurveyRow>& rows)
{
    std::vector<const RankSurveyRow*> defined;
    for (const RankSurveyRow& row : rows)
        if (std::isfinite(row.consensus.cophenetic))
            defined.push_back(&row);
    std::sort(defined.begin(), defined.end(),
        [](const RankSurveyRow* a, const RankSurveyRow* b) { return a->rank < b->rank; });
    if (defined.size() < 2)
        return { 0, u"needs the cophenetic correlation at two or more ranks"_s };
    // The rank before the largest fall of a measure; a fall below round-off is none (a consensus
    // of nested clusterings has cophenetic correlation 1 up to 1e-14 at several ranks).
    constexpr double kRoundOff = 1e-9;
    const auto largestFall = [&](double (*measure)(const RankSurveyRow&)) {
        std::pair<double, std::size_t> best { kRoundOff, 0 };
        for (std::size_t i = 1; i < defined.size(); ++i)
            if (const double fall = measure(*defined[i - 1]) - measure(*defined[i]);
                fall > best.first)
                best = { fall, i };
        return best;
    };
    const auto cophenetic = [](const RankSurveyRow& r) { return r.consensus.cophenetic; };
    const auto dispersion = [](const RankSurveyRow& r) { return r.consensus.dispersion; };
    // Kim & Park's dispersion tells apart ranks whose trees fit equally well (it falls as soon
    // as the runs disagree on any pair): the tie-breaker when the cophenetic curve never falls.
    QString name = u"cophenetic correlation"_s;
    auto [fall, after] = largestFall(+cophenetic);
    double (*measure)(const RankSurveyRow&) = +cophenetic;
    if (after == 0) {
        std::tie(fall, after) = largestFall(+dispersion);
        name = u"dispersion (the cophenetic correlation does not fall)"_s;
        measure = +dispersion;
    }
    if (after == 0)
        return { defined.back()->rank,
            u"neither the cophenetic correlation nor the dispersion falls over k = %1..%2: the "
            "largest rank surveyed"_s.arg(defined.front()->rank)
                .arg(defined.back()->rank) };
    const RankSurveyRow& before = *defined[after - 1];
    return { before.rank,
        u"the %1 falls most after k = %2 (by %3, to %4 at k = %5): the last rank whose "
        "clusterings the runs agree on (Brunet et al. 2004; Kim & Park 2007)"_s.arg(name)
            .arg(before.rank)
            .arg(fall, 0, 'g', 3)
            .arg(measure(*defined[after]), 0, 'g', 4)
            .arg(defined[after]->rank) };
}

} // namespace facet
