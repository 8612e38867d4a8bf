// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "cli/cli_options.h"

#include <QTextStream>

#include <stop_token>

namespace facet::cli {

// `facet-cli rank-survey`: the options of `run` without --rank and the outputs, plus --ranks,
// --runs, --subsample and --out DIR.
Result<CliOptions> parseRankSurveyArguments(const QStringList& arguments);
QString rankSurveyUsage();

// Loads and prepares the data as `run` does, surveys the ranks (experiment/rank_survey.h) and
// writes survey.json, survey.csv, survey.md, the plots (PNG, SVG, PDF) of every measure against
// k, and the ordered consensus of the suggested rank as a PNG. Needs a QApplication for the
// plots (makeCliApplication makes one for this command). Ctrl+C between runs writes nothing.
int runRankSurveyCommand(
    const CliOptions& options, QTextStream& out, QTextStream& err, std::stop_token stop);

} // namespace facet::cli
