// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "bench/bench_runner.h"

#include <iosfwd>
#include <optional>
#include <string>
#include <vector>

namespace facet {

// The exchange between facet-cli (double solver, loads every dataset format) and
// facet-bench-float (single-precision solver, no Qt): a prepared dataset goes over as bytes,
// the results come back as text lines. The solver only encodes and decodes streams; the
// executables open the files and pipes.

// Binary dataset: "FACETDS1", name, m, n (int64), n labels (int32, empty allowed), then X in
// column-major doubles whatever Scalar is, so both precisions read the same values.
void writeBenchDataset(
    std::ostream& out, const std::string& name, MatrixCRef X, const std::vector<int>& labels);

struct BenchDataset {
    std::string name;
    Matrix X; // m x n
    std::vector<int> labels;
};
// Throws std::runtime_error for a stream that is not such a dataset or ends early.
BenchDataset readBenchDataset(std::istream& in);

// One line of tab-separated key=value fields, starting with "row" or "peaks"; tabs and newlines
// inside text fields are replaced by spaces.
std::string formatBenchRow(const BenchRow& row);
std::optional<BenchRow> parseBenchRow(const std::string& line);
std::string formatMachinePeaks(const MachinePeaks& peaks);
std::optional<MachinePeaks> parseMachinePeaks(const std::string& line);

} // namespace facet
