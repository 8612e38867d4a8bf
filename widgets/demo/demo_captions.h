// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "experiment/run.h"

#include <QString>

#include <Eigen/Core>

namespace facet {

// The texts of a 2-D demo panel. Subtitles are always two lines, so the axes below them keep
// their size (and scale) when one subtitle replaces another.

// "LCF   AC 0.993   NMI 0.970"; the method alone without scores.
QString demoTitle(const RunResult& result);

// The run's settings and how it stopped, then METHODS.md 7's claim in one number: the mean
// distance from each basis vector to the nearest Gaussian centre (centres: 2 x c).
QString demoSubtitle(
    const RunResult& result, const RunOptions& options, const Eigen::MatrixXd& centres);

QString demoFrameSubtitle(int iteration, int lastIteration);
QString demoRunningSubtitle(const QString& method);

} // namespace facet
