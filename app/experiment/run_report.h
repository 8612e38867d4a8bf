// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "data/dataset.h"
#include "data/dataset_source.h"
#include "experiment/run.h"
#include "util/result.h"

#include <QJsonObject>

namespace facet {

// Seconds spent in each phase of a run, as the JSON's `timings` object reports them.
struct RunTimings {
    double loadSeconds = 0;
    double prepareSeconds = 0;
};

// The run's JSON object (issue "Foundation" keys: method, params, dataset, n, m, rank, seed,
// iterations, objective_history, stop_reason, timings, ac, nmi, labels), plus the options that
// determine the run so it can be reproduced from the file alone.
QJsonObject runReport(const Dataset& data, const DatasetRequest& request, const RunOptions& options,
    const RunResult& result, const RunTimings& timings);

} // namespace facet
