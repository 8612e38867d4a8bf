// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QString>
#include <QStringList>

#include <vector>

namespace facet::cli {

// `facet-cli rank-survey`: the run options of `run` (method, weights, algorithm, limits, seed,
// data and preparation) plus these.
struct RankSurveyCliOptions {
    std::vector<int> ranks; // --ranks 2-30 or 2,4,8
    int runs = 10; // --runs R per rank
    int folds = 3; // --folds F held-out folds per rank (0: none)
    double holdout = 0.1; // --holdout P, the fraction of entries each fold holds out
    int subsample = 0; // --subsample N: survey N random samples (seeded); 0 = all
    QString outDir; // --out DIR
    // The arguments as given (the dataset made absolute), which survey.json records.
    QStringList arguments;
};

} // namespace facet::cli
