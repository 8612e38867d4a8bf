// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "experiment/sweep_json.h"

#include <QString>
#include <QStringList>

namespace facet::cli {

// What a sweep folder holds, and how it is written.
struct SweepState {
    QString dir;
    ExperimentOptions options;
    SweepFile file; // trials kept in plan order
    QStringList classNames;
    QString datasetName;
    int samples = 0;
    int cellsPlanned = 0;
    QStringList compare;

    QString resultsPath() const;
};

// results.json alone, atomically: called after every finished cell, so a killed sweep loses
// nothing it finished.
Result<bool> writeSweepResults(const SweepState& state);

// Everything: results.json, results.csv, table.md and the plots (ac/nmi .png, .svg, .pdf; the
// plots only when a QApplication exists, otherwise a note in the returned list). Returns the
// files written, or the first error.
Result<QStringList> writeSweepOutputs(const SweepState& state);

// Lines of the average row per series, for the terminal.
QStringList sweepAverageLines(const SweepState& state);

} // namespace facet::cli
