// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "experiment/reproduction.h"
#include "line_chart.h"

namespace facet::plots {

// AC or NMI against c for one dataset of a reproduction: per method, Facet's mean as a solid
// curve with filled markers and the paper's printed mean as a dashed curve of the same colour
// and marker, hollow (methods
// the paper has no cells for: Facet's curve alone). `context` names the paper and dataset in
// the title; `footnote` says what Facet's curves were made from (seed, trials, algorithm, data).
LineChart reproductionChart(const DatasetComparison& comparison, Metric metric,
    const QString& context, const QString& footnote);

} // namespace facet::plots
