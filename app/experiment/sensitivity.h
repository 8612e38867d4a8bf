// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "experiment/reproduction_report.h"

#include <QJsonObject>
#include <QString>
#include <QStringList>

#include <optional>
#include <vector>

namespace facet {

// `facet-cli reproduce PAPER --sensitivity`: where a gap to a paper's numbers comes from. The
// baseline is the reproduction's own protocol (the record's sweep options with those given to
// reproduce); every other row sets one choice the paper leaves open to one other value and runs
// the same sweeps again (same seed, so the same classes and starts), so its change against the
// baseline is that choice's effect alone. One factor at a time: how choices interact is not
// measured.

// One run of the protocol with the choices it makes.
struct SensitivityRow {
    QString id; // its folder: "baseline", "normalize-l2"
    QString factor; // the choice it changes (a key of `choices`); empty for the baseline
    QString level; // the value it gives that choice: "l2"
    QJsonObject choices; // every choice's value in this row: factor -> text
    QJsonObject preset; // its facet-cli sweep options (name -> text, or true for a flag)
    std::vector<ReproducedDataset> datasets; // its sweeps, once they ran, in the plan's order

    // Its sweep of the data set `key`; null when it has none.
    const ReproducedDataset* dataset(const QString& key) const;
};

// A choice the paper leaves open that no row varies, and why.
struct NotVaried {
    QString choice;
    QString why;
};

struct SensitivityPlan {
    std::vector<SensitivityRow> rows; // the baseline first
    std::vector<NotVaried> notVaried;
};

// The fixed iteration counts of the "mu at a fixed count" rows when none are given: the LCCF
// paper (Cai, He, Han; the authors of the other papers build on its code) sees the rules
// "converge very fast, usually within 100 iterations"; 500 is the count a slower data set needs.
inline const std::vector<int> kDefaultFixedIterations { 100, 500 };
// A difference to the paper above this many percentage points is a gap the report explains.
inline constexpr double kGapPoints = 3.0;
// Sub-runs of the selection rows of a paper that states one run per trial: LCF's ten.
inline constexpr int kSelectionSubruns = 10;

// The choices a paper leaves open and their rows, from the baseline's sweep options
// (reproducePreset). Choices: per-sample normalization; the algorithm and its stopping (mu
// converged, mu at each fixed count, hals where a method has a route for it); the start; the
// k-means on V (restarts, cosine); sub-run selection; rank c or c + 1; the scored samples
// (semi-supervised papers); and each method's own variant (LCF --normalize-each, CF_OGL
// --paper-variant, NMF --ncw). A value that is the baseline's is not a row. `notVaried` lists the
// choices no option expresses.
SensitivityPlan planSensitivity(
    const QJsonObject& baseline, const std::vector<int>& fixedIterations);

// One gap of the baseline to the paper: a method's average (AC or NMI) where the paper prints
// one, or a gain the text states.
struct SensitivityGap {
    QString dataset; // PaperDataset::key
    QString datasetName; // "Yale"
    QString subject; // the method's paper name, or "LCF over CF" for a stated gain
    bool claim = false; // a stated gain rather than a printed average
    QString metric; // "ac" or "nmi"
    double paper = 0; // the published average or the stated gain, percent
    // Facet minus paper in each row (index as in the rows), percentage points; empty where the
    // row has no value (a method it did not run).
    std::vector<std::optional<double>> differences;
    // The row other than the baseline that leaves the smallest |difference|; -1 when none has one.
    int nearest = -1;
    double threshold = kGapPoints; // a difference within it is no gap

    double baseline() const { return differences.front().value_or(0); }
    // Whether the nearest row brings the difference within the threshold.
    bool closed() const;
};

// Every (data set, method or claim, metric) whose baseline difference to the paper is over
// `threshold` points, with the row that closes it most. A pure function of the rows' numbers.
std::vector<SensitivityGap> sensitivityGaps(
    const std::vector<SensitivityRow>& rows, double threshold = kGapPoints);

// "Yale, LCF AC: the baseline is -5.20 from the paper's 70.30; normalize: none closes it
// (-1.10)", or "... no listed choice closes it (nearest: init: kmeans, -4.00)".
QString gapStatement(const SensitivityGap& gap, const std::vector<SensitivityRow>& rows);

// "normalize: l2"; "baseline" for the baseline.
QString rowLabel(const SensitivityRow& row);

struct SensitivityReport {
    const PaperRecord* paper = nullptr;
    QStringList arguments; // the reproduce command, as given
    QJsonObject options; // what reproduce was asked: trials, clusters, seed, max-iter, ...
    QStringList departures; // where the baseline leaves the paper's protocol
    SensitivityPlan plan; // the rows with their sweeps' results
    std::vector<SensitivityGap> gaps;
};

// sensitivity.md: the command and options, the rows and what each changes, then per data set and
// metric each method's average per row with its change from the baseline and the ranking, the
// gaps with the choice that closes each, and the choices not varied.
QString sensitivityMarkdown(const SensitivityReport& report);
// sensitivity.csv: one line per row, data set, method and metric: the average, its change from
// the baseline, its difference to the paper, its rank, with the seed and the data's SHA-256.
QString sensitivityCsv(const SensitivityReport& report);
// sensitivity.json (format "facet-sensitivity-1"): everything above as data, with each row's
// choices and each sweep's recorded options.
QJsonObject sensitivityJson(const SensitivityReport& report);

} // namespace facet
