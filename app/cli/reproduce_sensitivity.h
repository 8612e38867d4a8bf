// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "cli/cli_options.h"
#include "experiment/paper_record.h"

#include <QTextStream>

#include <stop_token>

namespace facet::cli {

// `facet-cli reproduce PAPER --sensitivity --out DIR [...]` (experiment/sensitivity.h): the
// baseline and each row's sweeps into DIR/<row>/<data set>/ (a row folder that holds a sweep is
// resumed, so the same command continues an interrupted run), then DIR/sensitivity.md, .csv and
// .json. Every row's sweeps are planned, and so checked, before the first one runs.
int runReproduceSensitivity(const PaperRecord& paper, const CliOptions& options, QTextStream& out,
    QTextStream& err, std::stop_token stop);

} // namespace facet::cli
