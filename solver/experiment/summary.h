// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "experiment/statistics.h"
#include "experiment/sweep.h"

#include <string>
#include <vector>

namespace facet {

// The numbers of a results table (METHODS.md section 6): one row per cluster count c, one
// column ("series") per method, or per method and grid value in a parameter sweep, and an
// average row. Formatting (Markdown, CSV, plots) lives in the app layer.

enum class Metric { Accuracy, Nmi };

struct SeriesKey {
    std::string method;
    int parameterIndex = 0;

    friend bool operator==(const SeriesKey&, const SeriesKey&) = default;
};

struct MetricStats {
    MeanStd ac;
    MeanStd nmi;

    const MeanStd& of(Metric metric) const { return metric == Metric::Accuracy ? ac : nmi; }
};

struct SweepSummary {
    std::vector<SeriesKey> series; // options.methods order, each over the parameter grid
    std::vector<int> clusters; // rows: options.clusterCounts
    std::vector<std::vector<MetricStats>> cells; // [row][series], over the finished trials
    // Per series: the mean over the rows that have trials of the per-row means (the papers'
    // "Avg." row; its std is NaN, and count is the number of rows averaged).
    std::vector<MetricStats> average;

    // Series with the highest mean in a row (row = -1: the average row); several when they tie
    // exactly, none when the row has no finished trial.
    std::vector<int> best(Metric metric, int row) const;
};

SweepSummary summarize(const ExperimentOptions& options, const std::vector<TrialResult>& trials);

// A paired comparison of two series over the (c, trial) pairs both have finished.
struct PairedTest {
    int clusters = 0; // c; 0 for the test over every c together
    double meanDifference = 0; // mean of a - b over the pairs
    WilcoxonResult test;
};

struct SeriesComparison {
    SeriesKey a;
    SeriesKey b;
    Metric metric = Metric::Accuracy;
    std::vector<PairedTest> perClusters; // one per row of the summary
    PairedTest overall;
};

SeriesComparison compareSeries(const ExperimentOptions& options,
    const std::vector<TrialResult>& trials, const SeriesKey& a, const SeriesKey& b, Metric metric);

} // namespace facet
