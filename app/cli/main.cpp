// SPDX-License-Identifier: GPL-3.0-or-later
// facet-cli: the headless twin of Facet (no Widgets, except the sweep's offscreen plots).
#include "cli/bench_command.h"
#include "cli/commands.h"
#include "cli/distributed_run.h"
#include "cli/export_command.h"
#include "cli/process_launch.h"
#include "cli/rank_survey_command.h"
#include "cli/reproduce_command.h"
#include "cli/sweep_command.h"
#include "cli/sweep_ranks.h"
#include "data/mat_reader_process.h"
#include "util/openmp_environment.h"
#ifdef FACET_HAVE_MPI
#include "mpi/mpi_collectives.h"
#include "mpi/mpi_session.h"
#endif

#include <QCoreApplication>

#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <memory>

namespace {

std::stop_source g_stop;

extern "C" void onInterrupt(int signal)
{
    // A second Ctrl+C falls back to the default action and ends the process.
    std::signal(signal, SIG_DFL);
    g_stop.request_stop();
}

// `sweep` as one of the processes of mpirun or srun: its communicator, or why it has none.
int runLaunchedSweep(const facet::cli::CliOptions& options, const facet::cli::ProcessLaunch& launch,
    facet::Communicator* mpi, QTextStream& out, QTextStream& err)
{
    std::signal(SIGINT, onInterrupt);
    // mpirun turns Ctrl+C into SIGTERM for every rank (a second later, and SIGKILL a second after
    // that); Slurm's scancel and time limit send SIGTERM too. Either way the ranks stop as at
    // Ctrl+C.
    std::signal(SIGTERM, onInterrupt);
    if (mpi)
        return facet::cli::runSweep(options, out, err, g_stop.get_token(), *mpi);
    if (launch.processes > 1) {
        err << "facet-cli: started as one of " << launch.processes
            << " processes (mpirun or srun), but this facet-cli was built without MPI "
               "(FACET_MPI=OFF), so each would run the whole sweep; build it with MPI, or start "
               "one process"
            << Qt::endl;
        return facet::cli::kExitUsage;
    }
    facet::SingleProcessCommunicator alone;
    return facet::cli::runSweep(options, out, err, g_stop.get_token(), alone);
}

} // namespace

int main(int argc, char** argv)
{
    // may start the program again
    facet::ensureOpenMpWaitPolicy(argv, facet::cliOpenMpUse(argc, argv));
    // Only a sweep or a run that mpirun or srun started initialises MPI: every other command, and
    // one started alone, runs without it (no MPI start-up, no MPI messages).
    const facet::cli::ProcessLaunch launch = facet::cli::processLaunch();
    const bool launchedRun = launch.parallel && argc > 1 && std::strcmp(argv[1], "run") == 0;
#ifdef FACET_HAVE_MPI
    std::unique_ptr<facet::MpiSession> mpi;
    if (launch.parallel && argc > 1 && (std::strcmp(argv[1], "sweep") == 0 || launchedRun))
        mpi = std::make_unique<facet::MpiSession>();
    facet::Communicator* communicator = mpi ? &mpi->communicator() : nullptr;
    // A distributed run's collectives (cli/distributed_run.h); released before MPI_Finalize.
    std::unique_ptr<facet::Collectives> collectives;
    if (mpi && launchedRun && communicator->size() > 1)
        collectives = facet::makeMpiCollectives();
    const std::function<void(int)> abortJob = [](int code) { facet::abortMpiJob(code); };
#else
    facet::Communicator* communicator = nullptr;
    facet::Collectives* const collectives = nullptr;
    const std::function<void(int)> abortJob = [](int code) { std::exit(code); };
#endif
    // A QApplication (offscreen) for `sweep`, `rank-survey` and `reproduce`, whose plots need one;
    // QCoreApplication otherwise, and on the ranks of a distributed sweep that draw no plots.
    const std::unique_ptr<QCoreApplication> app = communicator && communicator->rank() != 0
        ? std::make_unique<QCoreApplication>(argc, argv)
        : facet::cli::makeCliApplication(argc, argv);
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
        // The other ranks of a distributed run wait in a collective this one never joins.
        if (collectives) {
            err << "facet-cli (rank " << communicator->rank() << " of " << communicator->size()
                << "): " << parsed.error() << Qt::endl;
            abortJob(facet::cli::kExitUsage);
        }
        // The other ranks of a distributed sweep would wait for this one's report.
        if (communicator && communicator->size() > 1)
            return facet::cli::refuseDistributedSweep(
                *communicator, { facet::cli::kExitUsage, parsed.error() }, err);
        err << "facet-cli: " << parsed.error() << Qt::endl;
        return facet::cli::kExitUsage;
    }
    const facet::cli::CliOptions& options = *parsed;
    const facet::cli::Command command = options.command;
    if (launch.processes > 1 && command == facet::cli::Command::Run && !collectives) {
        err << "facet-cli: started as one of " << launch.processes
            << " processes (mpirun or srun), but this facet-cli was built without MPI "
               "(FACET_MPI=OFF), so each would run the whole factorization; build it with MPI, or "
               "start one process"
            << Qt::endl;
        return facet::cli::kExitUsage;
    }
    if (launch.processes > 1 && command != facet::cli::Command::Sweep
        && command != facet::cli::Command::Run && command != facet::cli::Command::Help
        && command != facet::cli::Command::Version) {
        err << "facet-cli: started as one of " << launch.processes
            << " processes (mpirun or srun), but only `sweep` and `run` run distributed; start "
            << arguments.value(0) << " as one process" << Qt::endl;
        return facet::cli::kExitUsage;
    }
    switch (command) {
    case facet::cli::Command::Help:
        if (!communicator || communicator->rank() == 0) // `mpirun ... facet-cli sweep --help`
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
        if (launch.parallel)
            return runLaunchedSweep(options, launch, communicator, out, err);
        std::signal(SIGINT, onInterrupt);
        {
            facet::SingleProcessCommunicator alone;
            return facet::cli::runSweep(options, out, err, g_stop.get_token(), alone);
        }
    case facet::cli::Command::SweepCell:
        return facet::cli::runSweepCell(options, out, err);
    case facet::cli::Command::RankSurvey:
        std::signal(SIGINT, onInterrupt);
        return facet::cli::runRankSurveyCommand(options, out, err, g_stop.get_token());
    case facet::cli::Command::Reproduce:
        std::signal(SIGINT, onInterrupt);
        return facet::cli::runReproduce(options, out, err, g_stop.get_token());
    case facet::cli::Command::Run:
        // Distributed: no handler, so mpirun's SIGTERM (Ctrl+C) ends every rank at once; a rank
        // that stopped between iterations would leave the others waiting in a collective.
        if (collectives)
            return facet::cli::runDistributedRun(
                options, arguments, out, err, *collectives, abortJob);
        std::signal(SIGINT, onInterrupt);
        return facet::cli::runRun(options, out, err, g_stop.get_token());
    }
    return facet::cli::kExitUsage;
}
