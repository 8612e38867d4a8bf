// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "experiment/summary.h"
#include "line_chart.h"

namespace facet::plots {

// The figure of METHODS.md section 6 for one metric: the mean over the trials against the
// number of clusters c, one curve per method; in a parameter sweep, the mean over every c and
// trial against the parameter's grid, one curve per method. The title names the selection
// rule when it is the optimistic "oracle selection".
LineChart sweepChart(const SweepSummary& summary, const ExperimentOptions& options, Metric metric,
    const QString& datasetName);

} // namespace facet::plots
