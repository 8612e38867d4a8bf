// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "session/session.h"

#include <QByteArray>

#include <vector>

namespace facet {

// The run history as CSV (RFC 4180 quoting), one row per run: id, name, method, rank, seed,
// iterations, stop_reason, objective, ac, nmi, graph_ac, graph_nmi, reconstruction_error,
// sparseness, seconds, options (the full RunOptions as compact JSON, so a row alone can re-run).
// Numbers keep 17 significant digits; an undefined one is an empty field.
QByteArray runTableCsv(const std::vector<RunRecord>& runs);

// A matrix as CSV, one matrix row per line, 17 significant digits.
QByteArray matrixCsv(const Matrix& matrix);

// Writes basis.csv (m x k), V.csv (n x k) and, for the CF family, W.csv (n x k) of `run` into
// `dir`, each through a temporary file renamed over the target (an old file survives a failure).
// A run without factors is an error.
Result<bool> writeRunFactorsCsv(const RunRecord& run, const QString& dir);

Result<bool> writeRunTableCsv(const std::vector<RunRecord>& runs, const QString& path);

} // namespace facet
