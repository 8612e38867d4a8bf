// SPDX-License-Identifier: GPL-3.0-or-later
#include "cli/sweep_ranks.h"

#include "cli/commands.h"
#include "cli/sweep_command.h"
#include "data/dataset_request_json.h"
#include "experiment/sweep_json.h"

#include <QSysInfo>

namespace facet::cli {

using namespace Qt::StringLiterals;

int threadsPerRank(int threads, int ranks)
{
    return ranks > 1 && threads <= 0 ? 1 : threads;
}

RankReport rankReport(const CliOptions& options, const std::shared_ptr<ExperimentDataset>& loaded,
    const std::optional<JobStatus>& failure, int ranks)
{
    RankReport report;
    report.host = QSysInfo::machineHostName();
    report.threads = std::max(1, threadsPerRank(options.threads, ranks));
    if (failure) {
        report.exitCode = failure->exitCode;
        report.error = failure->message;
        return report;
    }
    report.options = experimentOptionsToJson(options.sweep.experiment, loaded->normalization());
    report.dataset = sweepDatasetToJson(datasetRequestToJson(options.dataset), loaded->raw());
    return report;
}

std::optional<JobStatus> checkRanks(const std::vector<RankReport>& ranks)
{
    const int size = int(ranks.size());
    for (int r = 1; r < size; ++r) {
        const RankReport& report = ranks[std::size_t(r)];
        const QString name = rankName(r, size, report.host);
        if (report.exitCode != kExitOk)
            return JobStatus { report.exitCode,
                u"%1 could not take part: %2"_s.arg(name, report.error) };
        const QString here = u"on rank %1"_s.arg(r);
        if (const QStringList d
            = jsonDifferences(ranks[0].options, report.options, {}, u"on rank 0"_s, here);
            !d.isEmpty())
            return JobStatus { kExitFailure,
                u"%1 was started with other sweep options than rank 0, so its cells would not "
                "belong to this sweep; start every rank with the same command:\n  "_s.arg(name)
                    + d.join(u"\n  "_s) };
        if (const QStringList d
            = jsonDifferences(ranks[0].dataset, report.dataset, u"dataset"_s, u"on rank 0"_s, here);
            !d.isEmpty())
            return JobStatus { kExitFailure,
                u"%1 loaded other data than rank 0; every rank must read the same data set:\n  "_s
                        .arg(name)
                    + d.join(u"\n  "_s) };
    }
    return std::nullopt;
}

namespace {

// How a rank other than 0 ends: with the job's exit code, and its message naming this rank (an
// interruption is reported by rank 0 alone).
int endRank(const Communicator& comm, const JobStatus& status, QTextStream& err)
{
    if (status.exitCode != kExitInterrupted && !status.message.isEmpty())
        err << "facet-cli (" << rankName(comm.rank(), comm.size(), {}) << "): " << status.message
            << Qt::endl;
    return status.exitCode;
}

} // namespace

int refuseDistributedSweep(Communicator& comm, const JobStatus& failure, QTextStream& err)
{
    RankReport report;
    report.host = QSysInfo::machineHostName();
    report.exitCode = failure.exitCode;
    report.error = failure.message;
    if (comm.rank() != 0) {
        sendRankReport(comm, report);
        return endRank(comm, waitForStart(comm), err);
    }
    collectRankReports(comm, report);
    sendStart(comm, failure);
    err << "facet-cli: " << failure.message << Qt::endl;
    return failure.exitCode;
}

int runSweepRank(
    const CliOptions& options, QTextStream& err, std::stop_token stop, Communicator& comm)
{
    const auto end = [&](const JobStatus& status) { return endRank(comm, status, err); };
    Result<std::shared_ptr<ExperimentDataset>> loaded = loadExperimentData(options, stop);
    std::optional<JobStatus> failure;
    if (!loaded)
        failure = stop.stop_requested()
            ? JobStatus { kExitInterrupted, interruptedWhileLoadingMessage(options.dataset.spec) }
            : JobStatus { kExitFailure, loaded.error() };
    sendRankReport(comm, rankReport(options, loaded ? *loaded : nullptr, failure, comm.size()));
    if (const JobStatus start = waitForStart(comm); start.exitCode != kExitOk)
        return end(start);
    // Rank 0 starts the cells only when every rank reported its data loaded.
    const ExperimentDataset& data = **loaded;
    const ExperimentOptions& experiment = options.sweep.experiment;
    const std::vector<ExperimentCell> plan = planCells(experiment);
    CellWorkers local(data, experiment, plan, threadsPerRank(options.threads, comm.size()));
    return end(workCells(comm, local, experiment, data.raw().classNames, stop));
}

} // namespace facet::cli
