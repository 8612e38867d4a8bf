// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "experiment/experiment_data.h"
#include "util/result.h"

#include <QJsonObject>
#include <QStringList>

#include <vector>

namespace facet {

// results.json of a sweep:
// { "format": "facet-sweep", "facet_version", "options": {...}, "dataset": {...},
//   "arguments": [the facet-cli arguments that reproduce it], "complete": bool,
//   "cells_planned": N, "trials": [ one object per finished cell, in plan order ] }
// Seeds are decimal strings (64-bit values do not fit a JSON double). Trials and sub-runs are
// numbered from 1 in files; in memory they are 0-based.

// Everything that determines the numbers of an experiment (threads and paths excluded), the
// object a resumed sweep must match.
QJsonObject experimentOptionsToJson(const ExperimentOptions& options, SampleNormalization norm);

// The one-line description of how sub-runs were chosen, written into every output; the
// accuracy-based choice is labelled "oracle selection" because it looks at the truth.
QString selectionLabel(const ExperimentOptions& options);

QJsonObject trialToJson(
    const TrialResult& trial, const ExperimentOptions& options, const QStringList& classNames);
Result<TrialResult> trialFromJson(const QJsonObject& object);

struct SweepFile {
    QJsonObject options; // experimentOptionsToJson
    QJsonObject dataset; // sweepDatasetToJson
    QStringList arguments;
    bool complete = false;
    std::vector<TrialResult> trials;
};

// The dataset block: the request (datasetRequestToJson) plus what was loaded, with a checksum
// of X so a resumed sweep notices a changed file.
QJsonObject sweepDatasetToJson(const QJsonObject& request, const Dataset& data);

QJsonObject sweepFileToJson(const SweepFile& file, const ExperimentOptions& options,
    const QStringList& classNames, int cellsPlanned);
Result<SweepFile> readSweepFile(const QString& path);

// "trials: 10 in the file, 20 now" lines for every key (dotted path) whose value differs;
// `beforeName` and `nowName` name the two sides ("in the file", "now").
QStringList jsonDifferences(const QJsonObject& before, const QJsonObject& now,
    const QString& prefix = QString(), const QString& beforeName = QStringLiteral("in the file"),
    const QString& nowName = QStringLiteral("now"));

// Sorts trials into plan order (c, trial, parameter, method as listed in options).
void sortTrials(std::vector<TrialResult>& trials, const ExperimentOptions& options);

} // namespace facet
