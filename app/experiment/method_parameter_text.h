// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "experiment/run.h"
#include "util/result.h"

#include <QString>
#include <QStringList>

namespace facet {

// The experiment form's "Method parameters" line: the run options `facet-cli sweep` takes as
// flags, written as "lambda=100, p=3, weight=heat, ncw" (a flag alone is on; a leading "--" is
// allowed, so a CLI line can be pasted). The names are the CLI's (runParamsToJson's keys);
// values are checked by runOptionsFromJson, so the form refuses what the CLI refuses. The keys a
// sweep sets per cell or from its own fields (rank, clusters, seed, max-iter, algorithm, the
// labelled subset) are refused with the field to use instead. Empty text: RunOptions' defaults,
// i.e. each method's own.
Result<RunOptions> parseMethodParameters(const QString& text);

// The names parseMethodParameters accepts, in runParamsToJson's order.
QStringList methodParameterNames();

} // namespace facet
