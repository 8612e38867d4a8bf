// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "bench/bench_runner.h"
#include "bench/knn_recall.h"
#include "util/result.h"

#include <QJsonObject>
#include <QString>
#include <QStringList>

#include <vector>

namespace facet::cli {

// Pieces of `facet-cli bench` (bench_command.cpp): inputs, the float half, the outputs.

// A benchmark dataset after loading: scaled to [0, 1] as `facet-cli run` does, not yet
// L2-normalized (the runner does that for the CF family).
struct BenchInput {
    QString name; // "ORL", "COIL-20", "gen:20000x784", or the path given
    QString spec; // what was asked for
    bool generated = false; // gen:NxM
    Matrix X;
    std::vector<int> labels;
};

// orl, yale, coil20, mnist name Deng Cai's files in FACET_DATA_DIR (default ../shared/data);
// gen:NxM is generated (bench/lowrank_data.h); anything else is loaded as `run` loads it.
Result<BenchInput> loadBenchInput(const QString& spec);
// The display name of a spec without loading it.
QString benchInputName(const QString& spec);

// X (m x n) as a NumPy .npy file of shape (n, m), float64, C order: one sample per row, the
// scikit-learn orientation (column-major m x n is that very memory layout).
Result<bool> writeNpy(const QString& path, MatrixCRef X);
// A file name for a dataset name: "gen:20000x784" -> "gen_20000x784".
QString fileStem(const QString& name);

// Runs facet-bench-float (next to facet-cli, or $FACET_BENCH_FLOAT) on the inputs: loaded sets
// go over as FACETDS1 files in a temporary folder, gen: sets are generated there. Its progress
// lines go to `progress`.
struct FloatBenchOutput {
    MachinePeaks peaks;
    std::vector<BenchRow> rows;
};
Result<FloatBenchOutput> runFloatBench(const std::vector<BenchInput>& inputs,
    const BenchOptions& options, int threads, QTextStream& progress);

// The printed table, one line per row.
QString benchTable(const std::vector<BenchRow>& rows);
QString peaksLine(const MachinePeaks& peaks, const QString& precision);

QJsonObject benchRowJson(const BenchRow& row);
QJsonObject peaksJson(const MachinePeaks& peaks);
QJsonObject knnRecallJson(const QString& dataset, const KnnRecall& recall);

// The machine's state for the record: the CPU, the load average (other processes share the
// two cores), Eigen's and OpenMP's thread counts.
QJsonObject machineJson();
// How the OpenMP threads waited (util/openmp_environment.h): the variables as this process saw
// them, null where unset. They change the times, never the numbers.
QJsonObject openMpWaitJson();
QString loadAverage();

} // namespace facet::cli
