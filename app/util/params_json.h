// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "experiment/run.h"

#include <QJsonObject>

namespace facet {

// Every option that determines a run, under the CLI's flag names without the leading dashes
// ("max-iter", "lambda", "heat-t", ...): the JSON `params` object of run files and sessions.
// Parameters a method does not read are still recorded, so the file alone reproduces the run.
QJsonObject runParamsToJson(const RunOptions& options);

} // namespace facet
