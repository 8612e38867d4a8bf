// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "experiment/summary.h"

#include <QJsonObject>
#include <QString>
#include <QStringList>

#include <vector>

namespace facet {

// "lcf", or "lcf lambda=0.1" in a parameter sweep.
QString seriesLabel(const SeriesKey& key, const ExperimentOptions& options);

// The comparisons table.md shows: with `compare` = {A, B}, A against B (at every grid value of a
// parameter sweep); otherwise every series against the best series by average of the metric.
std::vector<SeriesComparison> sweepComparisons(const SweepSummary& summary,
    const ExperimentOptions& options, const std::vector<TrialResult>& trials, Metric metric,
    const QStringList& compare = {});

// One cell of table.md's paired comparisons: "+1.2, p = 0.031 *" (mean difference a - b in
// percentage points, the two-sided p-value, * for p < 0.05); "-" when no pair has finished.
QString pairedTestText(const PairedTest& test);

struct TableContext {
    QString datasetName;
    int samples = 0;
    int classes = 0;
    int cellsPlanned = 0;
    int cellsFinished = 0;
    QString selection; // selectionLabel()
};

// table.md: AC and NMI as mean ± std (percent) per c with an average row, the best of each row
// in bold (the papers' layout), then the paired Wilcoxon comparisons with their p-values.
QString markdownTable(const SweepSummary& summary, const ExperimentOptions& options,
    const std::vector<TrialResult>& trials, const TableContext& context,
    const QStringList& compare = {});

// The kept sub-run's selection as a key for CSV and JSON: "single", "lowest-objective" or
// "oracle-best-ac" (METHODS.md 6: the oracle choice is labelled in every output).
QString selectionKey(const ExperimentOptions& options);

// summary.csv and summary.json: the table of table.md as data, one line per series and c (mean,
// sample std and count of the trials' AC and NMI, as fractions) and per series the average
// row ("avg", the papers' Avg.: the mean of the per-c means).
QString summaryCsv(const SweepSummary& summary, const ExperimentOptions& options);
QJsonObject summaryJson(
    const SweepSummary& summary, const ExperimentOptions& options, const TableContext& context);

// results.csv: one line per finished cell, full precision.
QString resultsCsv(const std::vector<TrialResult>& trials, const ExperimentOptions& options,
    const QStringList& classNames);

} // namespace facet
