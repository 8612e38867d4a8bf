// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "experiment/run.h"

#include <QString>

namespace facet {

// The title the catalog gives a method ("NMF (Lee & Seung)"), or its name when unknown.
QString methodTitle(const std::string& method);

// ||X - X_hat|| / ||X|| with 4 decimals, or "n/a" when it is not defined (PCA: NaN on purpose).
QString formatReconstructionError(double error);

// How the run ended, in words a user can act on ("stopped at the iteration limit (300) while the
// objective was still decreasing; raise Max iterations").
QString stopDescription(const Factorization& factorization, int maxIterations);
// stopDescription with the run's options: where suggestsKMeansStart (experiment/run.h), it
// names that start.
QString stopDescription(const Factorization& factorization, const RunOptions& options);

// One line for the status bar: method, rank, how it stopped, time, AC / NMI.
QString runStatusLine(const RunResult& result, const RunOptions& options);

// A small HTML table of the run's numbers for the control panel.
QString runSummaryHtml(const RunResult& result, const RunOptions& options);

} // namespace facet
