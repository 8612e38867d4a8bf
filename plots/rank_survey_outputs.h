// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "data/dataset_identity.h"
#include "experiment/rank_survey.h"
#include "util/result.h"

#include <QImage>
#include <QJsonObject>
#include <QStringList>

namespace facet::plots {

// Everything a rank survey's files record: the data (with its digest), the arguments that repeat
// it, the options and the rows.
struct RankSurveyReport {
    DatasetIdentity dataset;
    bool labelled = false;
    QStringList arguments;
    RankSurveyOptions options;
    RankSurveyResult result;
};

// A consensus matrix in its average-linkage order, one grey pixel per pair: black where every run
// put the two samples in one cluster, white where none did.
QImage consensusImage(const Consensus& consensus);

QJsonObject rankSurveyJson(const RankSurveyReport& report);
QByteArray rankSurveyCsv(const RankSurveyReport& report);
QString rankSurveyMarkdown(const RankSurveyReport& report);

// Writes into `dir` (which exists): survey.json, survey.csv, survey.md; consensus.*, heldout.*
// (when measured),
// reconstruction.*, sparseness.*, time.* and, with labels, ac_nmi.* (PNG, SVG, PDF); and
// consensus_kK.png, the consensus of the suggested rank in average-linkage order (one pixel per
// sample pair, white 0 to black 1). Returns the files written.
Result<QStringList> writeRankSurveyOutputs(const QString& dir, const RankSurveyReport& report);

} // namespace facet::plots
