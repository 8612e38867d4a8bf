// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "bench/bench_runner.h"

#include <QString>
#include <QStringList>

namespace facet::cli {

// `facet-cli bench` (bench_command.h): what to time and where the results go.
struct BenchCliOptions {
    // orl, yale, coil20, mnist (from FACET_DATA_DIR), gen:NxM (generated), or a dataset path.
    QStringList datasets;
    BenchOptions run; // methods, ranks, iterations, repeats, warm-up, kNN search, seed
    bool singlePrecision = false; // --precision float: run facet-bench-float
    bool knnRecall = false; // also time exact vs HNSW kNN and print the recall
    bool timing = true; // --no-timing: only the recall and / or the export
    QString exportNpyDir; // write each dataset as DIR/<name>.npy (n x m float64) first
};

} // namespace facet::cli
