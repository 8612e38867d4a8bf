// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "experiment/reproduction.h"

#include <QJsonObject>
#include <QString>
#include <QStringList>

#include <vector>

namespace facet {

// One dataset of a reproduction: the comparison, and the identity of what produced Facet's side
// (the sweep folder and its recorded options, the data file and its SHA-256, which
// shared/data/SHA256SUMS lists).
struct ReproducedDataset {
    DatasetComparison comparison;
    QString sweepDir; // relative to the reproduction's folder: "yale"
    QString file; // the data file, absolute
    QString fileSha256;
    QJsonObject sweepOptions; // results.json "options": protocol, seed, run parameters, algorithm
    QJsonObject sweepDataset; // results.json "dataset": request, name, samples, checksum of X
    QStringList sweepArguments; // results.json "arguments": the equivalent facet-cli sweep
    int cellsFinished = 0;
    int cellsPlanned = 0;
};

struct ReproductionReport {
    const PaperRecord* paper = nullptr;
    QStringList arguments; // the reproduce command, as given
    QJsonObject options; // what reproduce was asked: trials, clusters, seed, max-iter, ...
    QStringList departures; // where this run leaves the paper's protocol (the options given)
    std::vector<ReproducedDataset> datasets;
};

// reproduction.md: the paper, the command and every option, then per dataset the paper's and
// Facet's mean ± std per c and in the average row with the difference (percent), the ranking of
// the methods on each side, and the text's claims beside Facet's numbers.
QString reproductionMarkdown(const ReproductionReport& report);

// reproduction.csv: one line per dataset, method, c (or "avg") and metric, with the seed,
// trials, selection, algorithm and the data file's SHA-256 on every line; avg lines carry each
// side's rank.
QString reproductionCsv(const ReproductionReport& report);

// reproduction.json (format "facet-reproduction-1"): everything above as data.
QJsonObject reproductionJson(const ReproductionReport& report);

// "85.00 ± 17.01", "85.0" without a std, "-" for nothing.
QString meanStdText(
    const std::optional<double>& mean, const std::optional<double>& std, int decimals);
// "+1.25", "-0.40", "-".
QString differenceText(const std::optional<double>& difference);

} // namespace facet
