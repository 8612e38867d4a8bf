// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "experiment/paper_record.h"
#include "experiment/summary.h"

#include <array>
#include <optional>
#include <string>
#include <vector>

namespace facet {

// A paper's published numbers beside a Facet sweep of the same protocol (`facet-cli reproduce`):
// per method and c, and for the average row, the paper's mean ± std and Facet's, in percent.
// Averages on both sides follow the papers' rule: the mean over c of the per-c means, ± the
// mean of the per-c standard deviations. When the sweep ran only some of the paper's c, the
// paper's average is recomputed over those c from its cells, so both sides average the same c.

struct Compared {
    std::optional<double> paperMean; // percent
    std::optional<double> paperStd;
    std::optional<double> facetMean;
    std::optional<double> facetStd;
    int facetTrials = 0; // trials behind facetMean (per c; for an average, the c averaged)

    // Facet minus paper, in percentage points; empty unless both sides have a mean.
    std::optional<double> difference() const;
};

inline int metricIndex(Metric metric)
{
    return metric == Metric::Accuracy ? 0 : 1;
}

struct MethodComparison {
    QString paperName; // "LCF"; the method's label when the paper has no cells
    std::string method; // "lcf"
    std::array<std::vector<Compared>, 2> cells; // [metricIndex][index into clusters]
    std::array<Compared, 2> average;
};

// The sweep's methods by their average on each side, best first (paper: those it has cells
// for), named as in the paper.
struct Ranking {
    std::vector<QString> paper;
    std::vector<QString> facet;
    // Whether both sides order the methods they both rank alike.
    bool same() const;
};

// A claim of the text next to the same quantity in Facet's sweep.
struct ClaimComparison {
    PaperClaim claim;
    QString facetMethod; // the Facet method the claim is about; empty when Facet lacks it
    QString facetOver; // the method the gain is measured over in Facet
    // Why facetOver is not the claim's `over`; for a claim whose numbers fit another method
    // (PaperClaim::fits), Facet's gain over that one.
    QString overNote;
    std::optional<double> facetGain; // gain: Facet's difference of averages, percentage points
    std::optional<double> difference; // facetGain - points
    QString facetBest; // best: the Facet method with the highest average (AC, then NMI)
    std::optional<bool> holds; // best: whether the claim's method is it
};

struct DatasetComparison {
    QString dataset; // PaperDataset::key
    QString paperName; // "AT&T"
    QString table; // "Table 1"; empty when the paper has no table for it
    bool paperHasCells = false;
    // The sweep ran a subset of the paper's c: its averages are recomputed over that subset.
    bool paperAverageRecomputed = false;
    std::vector<int> clusters; // the sweep's c
    std::vector<MethodComparison> methods; // the sweep's methods, in its order
    std::array<Ranking, 2> ranking; // [metricIndex]
    std::vector<ClaimComparison> claims;
};

// Compares the sweep of one dataset (its summary, in fractions) with the paper.
DatasetComparison compareWithPaper(
    const PaperRecord& paper, const QString& dataset, const SweepSummary& summary);

} // namespace facet
