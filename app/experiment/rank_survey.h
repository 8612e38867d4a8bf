// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "experiment/consensus.h"
#include "experiment/run.h"
#include "experiment/statistics.h"

#include <QString>

#include <functional>
#include <stop_token>
#include <vector>

namespace facet {

// The rank survey (issue 38): for each rank k, R runs of one method from seeds seed, seed+1, ...,
// clustered into k clusters, give
// - the consensus of their clusterings (Brunet et al. 2004) with its cophenetic correlation and
//   dispersion (Kim & Park 2007), ordered for display;
// - with labels, the AC and NMI spread over the runs;
// - the reconstruction error ||X - basis V^T|| / ||X||, the Hoyer sparseness of V and of the
//   basis, and the time, each as mean and standard deviation over the runs;
// - for the methods that take masks (nmf, gnmf, semignmf, cnmf), the held-out error (Wold-style
//   cross-validation of a matrix factorization): in each of `folds` folds a random fraction
//   `holdout` of the entries (the same folds at every rank) is masked, the method is fitted on the
//   rest, and sqrt(sum_held (X - basis V^T)^2 / sum_held X^2) is measured on the masked entries.
struct RankSurveyOptions {
    RunOptions run; // method, algorithm, limits, weights; run.driver.seed is the first seed
    std::vector<int> ranks;
    int runs = 10; // R, at least 2 for a consensus that can disagree
    int folds = 3; // held-out folds per rank; 0 = no held-out error
    double holdout = 0.1; // fraction of the entries each fold holds out, in (0, 0.5]
    // Fits computed at once, each with one inner thread (0: one per core). The fits are
    // independent and seeded, so the result is the same bits for any count.
    int workers = 0;
    std::int64_t maxConsensusBytes = kConsensusMaxBytes;
    bool keepConsensus = true; // keep each rank's matrix (n x n) for a view
};

struct RankSurveyRow {
    int rank = 0;
    Consensus consensus; // matrix empty unless keepConsensus
    MeanStd ac; // count 0 without labels
    MeanStd nmi;
    MeanStd reconstruction;
    MeanStd heldOut; // count 0 when not measured (folds 0, or a method without masks)
    MeanStd sparsenessV;
    MeanStd sparsenessBasis;
    MeanStd seconds;
    int converged = 0; // runs that stopped by a convergence rule, of `runs`
};

// A rank a measure points to, and why, in a sentence for tables and the view.
struct RankSuggestion {
    int rank = 0; // 0: none (fewer than two ranks, or the measure is undefined)
    QString why;
};

struct RankSurveyResult {
    std::vector<RankSurveyRow> rows; // in the order of options.ranks; fewer when cancelled
    bool cancelled = false;
    RankSuggestion byCophenetic;
    RankSuggestion byHeldOut;
    // Why no held-out error was measured, when it was not (empty otherwise).
    QString heldOutNote;
};

// Called on the caller's thread once at the start (done = 0, the first rank, r = 0), after each
// finished fit (its rank k and index r: r < runs is a run, runs + f is held-out fold f), and
// once at the end (k = 0): fits done so far and in all. The fits run on worker threads and
// finish in any order.
using RankSurveyProgress = std::function<void(int done, int total, int k, int r)>;

// Throws std::invalid_argument for options the data cannot take (a rank over min(m, n), no
// ranks, fewer than 1 run, a consensus over the size bound) before the first run; a fit that
// throws stops the others and its exception is rethrown. A stop ends the survey with the ranks
// whose fits had all finished, in order (cancelled = true).
RankSurveyResult runRankSurvey(MatrixCRef X, const std::vector<int>& labels,
    const RankSurveyOptions& options, const RankSurveyProgress& progress = {},
    std::stop_token stop = {});

// Brunet's reading of the cophenetic curve: the rank just before its largest fall (the last rank
// whose clusterings the runs still agree on); when it never falls beyond round-off, the same
// reading of the dispersion curve; the largest rank when neither falls.
RankSuggestion suggestByCophenetic(const std::vector<RankSurveyRow>& rows);

// The rank with the lowest mean held-out error.
RankSuggestion suggestByHeldOut(const std::vector<RankSurveyRow>& rows);

// The weights of held-out fold `fold` (0-based) of an m x n matrix: 0 for each entry held out
// (each with probability `holdout`, drawn from `seed` and the fold), 1 elsewhere.
Matrix heldOutWeights(Eigen::Index m, Eigen::Index n, double holdout, std::uint64_t seed, int fold);

} // namespace facet
