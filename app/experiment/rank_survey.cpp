// SPDX-License-Identifier: GPL-3.0-or-later
#include "experiment/rank_survey.h"

#include "core/random.h"
#include "methods/mask.h"
#include "metrics/quality.h"

#include <QStringList>

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>
#include <tuple>
#include <utility>

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

    RankSurveyResult result;
    const bool heldOut = options.folds > 0 && acceptsMask(options.run.method);
    if (options.folds > 0 && !heldOut)
        result.heldOutNote = QString::fromStdString(maskRefusal(options.run.method));
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
    const int total = int(options.ranks.size()) * perRank;
    int done = 0;
    // One graph or kernel for every run of the survey (the same data throughout).
    SetupCache cache;
    SolveControl control;
    control.stop = stop;
    for (int k : options.ranks) {
        std::vector<std::vector<int>> clusterings;
        std::vector<double> ac, nmi, reconstruction, sparseV, sparseBasis, seconds;
        RankSurveyRow row;
        row.rank = k;
        for (int r = 0; r < options.runs; ++r) {
            if (stop.stop_requested()) {
                result.cancelled = true;
                result.byCophenetic = suggestByCophenetic(result.rows);
                return result;
            }
            if (progress)
                progress(done, total, k, r);
            RunOptions run = options.run;
            run.params.rank = k;
            run.clusters = k;
            run.driver.seed = options.run.driver.seed + std::uint64_t(r);
            const RunResult one = runAndCluster(X, labels, run, control, &cache);
            const Factorization& f = one.factorization;
            if (!one.cancelledDuring.empty() || f.stopReason == StopReason::Cancelled) {
                result.cancelled = true;
                result.byCophenetic = suggestByCophenetic(result.rows);
                return result;
            }
            clusterings.push_back(one.predicted);
            if (one.ac)
                ac.push_back(*one.ac);
            if (one.nmi)
                nmi.push_back(*one.nmi);
            reconstruction.push_back(one.reconstructionError);
            sparseV.push_back(one.sparseness);
            sparseBasis.push_back(f.basis.size() > 0 ? hoyerSparseness(f.basis) : std::nan(""));
            seconds.push_back(
                one.setupSeconds + f.initSeconds + f.solveSeconds + one.clusterSeconds);
            row.converged += f.stopReason == StopReason::Converged ? 1 : 0;
            ++done;
        }
        std::vector<double> heldOutErrors;
        for (std::size_t f = 0; f < folds.size(); ++f) {
            if (stop.stop_requested()) {
                result.cancelled = true;
                break;
            }
            if (progress)
                progress(done, total, k, options.runs + int(f));
            RunOptions run = options.run;
            run.params.rank = k;
            run.clusters = k;
            run.params.weights = folds[f];
            const RunResult one = runAndCluster(X, {}, run, control);
            if (!one.cancelledDuring.empty()
                || one.factorization.stopReason == StopReason::Cancelled) {
                result.cancelled = true;
                break;
            }
            heldOutErrors.push_back(
                heldOutError(X, *folds[f], observed, one.factorization.basis, one.factorization.V));
            ++done;
        }
        if (result.cancelled) {
            result.byCophenetic = suggestByCophenetic(result.rows);
            result.byHeldOut = suggestByHeldOut(result.rows);
            return result;
        }
        row.heldOut = meanStd(heldOutErrors);
        row.consensus = consensusOf(clusterings, options.maxConsensusBytes);
        if (!options.keepConsensus)
            row.consensus.matrix.resize(0, 0);
        row.ac = meanStd(ac);
        row.nmi = meanStd(nmi);
        row.reconstruction = meanStd(reconstruction);
        row.sparsenessV = meanStd(sparseV);
        row.sparsenessBasis = meanStd(sparseBasis);
        row.seconds = meanStd(seconds);
        result.rows.push_back(std::move(row));
    }
    if (progress)
        progress(done, total, 0, 0);
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
