// SPDX-License-Identifier: GPL-3.0-or-later
// facet-cli: the headless twin of Facet (no Widgets, except the sweep's offscreen plots).
#include "cli/bench_command.h"
#include "cli/commands.h"
#include "cli/export_command.h"
#include "cli/rank_survey_command.h"
#include "cli/reproduce_command.h"
#include "cli/sweep_command.h"
#include "data/mat_reader_process.h"
#include "util/openmp_environment.h"

#include <QCoreApplication>

#include <csignal>
#include <cstdio>
#include <memory>

namespace {

std::stop_source g_stop;

extern "C" void onInterrupt(int)
{
    // A second Ctrl+C falls back to the default action and ends the process.
    std::signal(SIGINT, SIG_DFL);
    g_stop.request_stop();
}

} // namespace

int main(int argc, char** argv)
{
    // may start the program again
    facet::ensureOpenMpWaitPolicy(argv, facet::cliOpenMpUse(argc, argv));
    // A QApplication (offscreen) for `sweep`, `rank-survey` and `reproduce`, whose plots need one;
    // QCoreApplication otherwise.
    const std::unique_ptr<QCoreApplication> app = facet::cli::makeCliApplication(argc, argv);
    QCoreApplication::setApplicationName(QStringLiteral("facet-cli"));
    QCoreApplication::setApplicationVersion(QStringLiteral(FACET_VERSION_STRING));
    // What a facet-cli killed while facet-mat-reader read a MAT 7.3 file left in the temporary
    // folder (the reader itself died with it).
    facet::reclaimAbandonedHelperFolders();
    QTextStream out(stdout);
    QTextStream err(stderr);

    QStringList arguments = QCoreApplication::arguments();
    arguments.removeFirst();
    const facet::Result<facet::cli::CliOptions> parsed = facet::cli::parseArguments(arguments);
    if (!parsed) {
        err << "facet-cli: " << parsed.error() << Qt::endl;
        return facet::cli::kExitUsage;
    }
    const facet::cli::CliOptions& options = *parsed;
    switch (options.command) {
    case facet::cli::Command::Help:
        out << options.helpText;
        return arguments.isEmpty() ? facet::cli::kExitUsage : facet::cli::kExitOk;
    case facet::cli::Command::Version:
        out << "facet-cli " << QCoreApplication::applicationVersion() << Qt::endl;
        return facet::cli::kExitOk;
    case facet::cli::Command::Info:
        std::signal(SIGINT, onInterrupt);
        return facet::cli::runInfo(options, out, err, g_stop.get_token());
    case facet::cli::Command::ExportDataset:
        return facet::cli::runExportDataset(options, out, err);
    case facet::cli::Command::Bench:
        return facet::cli::runBench(options, out, err);
    case facet::cli::Command::Sweep:
        std::signal(SIGINT, onInterrupt);
        return facet::cli::runSweep(options, out, err, g_stop.get_token());
    case facet::cli::Command::SweepCell:
        return facet::cli::runSweepCell(options, out, err);
    case facet::cli::Command::RankSurvey:
        std::signal(SIGINT, onInterrupt);
        return facet::cli::runRankSurveyCommand(options, out, err, g_stop.get_token());
    case facet::cli::Command::Reproduce:
        std::signal(SIGINT, onInterrupt);
        return facet::cli::runReproduce(options, out, err, g_stop.get_token());
    case facet::cli::Command::Run:
        std::signal(SIGINT, onInterrupt);
        return facet::cli::runRun(options, out, err, g_stop.get_token());
    }
    return facet::cli::kExitUsage;
}
