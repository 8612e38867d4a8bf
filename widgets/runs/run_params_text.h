// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "experiment/run.h"

#include <QString>

namespace facet {

// The parameters a run's method reads, compactly ("k=10, λ=100, p=5, heat t=2"), for the run
// history's Parameters column and the comparison's headers. Unset values show the method's
// default, so two rows that ran the same way read the same.
QString runParamsText(const RunOptions& options);

// What `options` set differently from `before` in runParamsText's terms, rank aside ("λ=31.6",
// "β=0.2, p=7"); empty when the two read the same. Names the runs of a tuning gesture.
QString runParamsChange(const RunOptions& options, const RunOptions& before);

} // namespace facet
