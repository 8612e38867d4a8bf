// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "cli/bench_options.h"
#include "cli/rank_survey_options.h"
#include "cli/reproduce_options.h"
#include "cli/sweep_cli_options.h"
#include "data/dataset_source.h"
#include "experiment/run.h"
#include "util/result.h"

#include <QString>
#include <QStringList>

namespace facet::cli {

enum class Command {
    Help,
    Version,
    Info,
    Run,
    ExportDataset,
    Bench,
    Sweep,
    SweepCell,
    RankSurvey,
    Reproduce,
};

// Which preparation a run asks for: `auto` normalizes samples to unit L2 norm for the CF
// family and leaves them for NMF (METHODS.md section 8).
enum class Normalize { Auto, None, L2 };

struct CliOptions {
    Command command = Command::Help;
    DatasetRequest dataset;
    Normalize normalize = Normalize::Auto;
    RunOptions run;
    QStringList classes; // class names to keep (empty = all)
    QString jsonPath;
    QString basisPngPath;
    QString factorsPath; // --factors: U, V, W, labels, ... as a MAT file (data/mat_writer.h)
    QString initFromPath; // --init-from: a warm start from such a file (readStartFactors)
    QString maskPath; // --mask: entry weights from a MAT-file (cli/mask_options.h)
    QString maskVariable; // --mask-var
    QString outPath; // export-dataset --out
    bool exportMat73 = false; // export-dataset --mat73
    BenchCliOptions bench; // bench
    SweepCliOptions sweep; // sweep, sweep-cell
    RankSurveyCliOptions rankSurvey; // rank-survey
    ReproduceCliOptions reproduce; // reproduce
    int threads = 0; // 0 = all cores
    QString helpText; // for Command::Help
};

// Parses argv (without the program name). Errors are one line a user can act on.
Result<CliOptions> parseArguments(const QStringList& arguments);

// The usage text of `facet-cli` or of one command.
QString usageText(Command command = Command::Help);

} // namespace facet::cli
