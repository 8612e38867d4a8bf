// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "experiment/run.h"

#include "util/result.h"

#include <QJsonObject>

namespace facet {

// Every option that determines a run, under the CLI's flag names without the leading dashes
// ("max-iter", "lambda", "heat-t", ...): the JSON `params` object of run files and sessions.
// Parameters a method does not read are still recorded, so the file alone reproduces the run.
QJsonObject runParamsToJson(const RunOptions& options);

// The whole RunOptions: runParamsToJson plus what a run file keeps beside `params` ("method",
// "seed" as a decimal string, "ogl-clusters", "known-labels"), so sessions can re-run a
// run exactly. runOptionsFromJson(runOptionsToJson(o)) == o field by field.
QJsonObject runOptionsToJson(const RunOptions& options);

// The inverse, for untrusted files: every key is type- and range-checked, an unknown method or
// choice is an error naming it; missing keys keep RunOptions' defaults. `context` ("run 3")
// prefixes the messages. "init-from" gives driver.startSource alone: a run started from given
// factors cannot be repeated from these options (canRepeat).
Result<RunOptions> runOptionsFromJson(const QJsonObject& object, const QString& context);

// Whether `options` hold everything their run started from: false for a run whose start came
// from given factors that are not at hand (read back from a file).
inline bool canRepeat(const RunOptions& options)
{
    return options.driver.startSource.empty() || options.driver.start != nullptr;
}

} // namespace facet
