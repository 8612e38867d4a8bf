// SPDX-License-Identifier: GPL-3.0-or-later
#include "cli/sweep_command.h"

#include "cli/commands.h"
#include "cli/sweep_outputs.h"
#include "cli/sweep_progress.h"
#include "cli/sweep_ranks.h"
#include "data/dataset_request_json.h"
#include "experiment/sweep_runner.h"
#include "line_chart.h"

#include <QDir>
#include <QFileInfo>
#include <QLockFile>

#include <cstring>
#include <optional>
#include <set>
#include <tuple>

namespace facet::cli {

using namespace Qt::StringLiterals;

namespace {

SampleNormalization normalizationOf(Normalize n)
{
    return n == Normalize::None ? SampleNormalization::None
        : n == Normalize::L2    ? SampleNormalization::L2
                                : SampleNormalization::Auto;
}

using CellKey = std::tuple<std::string, int, int, int>;
CellKey keyOf(const ExperimentCell& c)
{
    return { c.method, c.clusters, c.trial, c.parameterIndex };
}

} // namespace

std::unique_ptr<QCoreApplication> makeCliApplication(int& argc, char** argv)
{
    if (argc > 1
        && (std::strcmp(argv[1], "sweep") == 0 || std::strcmp(argv[1], "rank-survey") == 0
            || std::strcmp(argv[1], "reproduce") == 0))
        return plots::makeOffscreenApplication(argc, argv);
    return std::make_unique<QCoreApplication>(argc, argv);
}

// The shared start of sweep and sweep-cell: the labelled data, checked against the options.
Result<std::shared_ptr<ExperimentDataset>> loadExperimentData(
    const CliOptions& options, std::stop_token stop)
{
    DatasetRequest request = options.dataset;
    request.mat.stop = std::move(stop);
    Result<Dataset> loaded = loadDataset(request);
    if (!loaded)
        return Error { loaded.error() };
    if (!loaded->hasLabels())
        return Error { u"a sweep needs a labelled dataset; %1 has no labels"_s.arg(loaded->name) };
    try {
        validateExperiment(options.sweep.experiment, loaded->classCount());
        validateExperimentSizes(options.sweep.experiment, loaded->classSizes());
        return std::make_shared<ExperimentDataset>(
            std::move(*loaded), normalizationOf(options.normalize));
    } catch (const std::exception& e) {
        QString message = QString::fromStdString(e.what());
        if (options.sweep.clustersDefaulted && message.startsWith(u"cluster count"_s))
            message += u" (--clusters defaults to 2-10; %1 has %2 classes, so give --clusters "
                       "2-%2 or fewer)"_s.arg(loaded->name)
                           .arg(loaded->classCount());
        return Error { message };
    }
}

namespace {

// What rank 0 (or a process alone) has prepared before any cell runs: nothing in the folder has
// changed yet, so a sweep that does not start leaves a good results.json as it was.
struct PreparedSweep {
    std::shared_ptr<ExperimentDataset> data;
    SweepState state;
    std::vector<ExperimentCell> plan;
    std::vector<std::size_t> todo; // indices into plan of the cells not finished before
    std::unique_ptr<QLockFile> lock; // held until the sweep ends
};

// The data, the folder (locked) and, with --resume, the cells finished before; or why not.
std::optional<JobStatus> prepareSweep(
    const CliOptions& options, std::stop_token stop, PreparedSweep& p)
{
    const SweepCliOptions& s = options.sweep;
    const auto failure = [](const QString& message) { return JobStatus { kExitFailure, message }; };
    Result<std::shared_ptr<ExperimentDataset>> loaded = loadExperimentData(options, stop);
    if (!loaded)
        return stop.stop_requested()
            ? JobStatus { kExitInterrupted, interruptedWhileLoadingMessage(options.dataset.spec) }
            : failure(loaded.error());
    p.data = std::move(*loaded);
    const ExperimentDataset& data = *p.data;

    SweepState& state = p.state;
    state.dir = s.outDir;
    state.options = s.experiment;
    state.classNames = data.raw().classNames;
    state.datasetName = data.raw().name;
    state.samples = int(data.raw().samples());
    state.compare = s.compare;
    state.file.options = experimentOptionsToJson(s.experiment, data.normalization());
    state.file.dataset = sweepDatasetToJson(datasetRequestToJson(options.dataset), data.raw());
    state.file.arguments = s.arguments;
    p.plan = planCells(s.experiment);
    state.cellsPlanned = int(p.plan.size());

    if (!QDir().mkpath(s.outDir))
        return failure(u"cannot create the folder %1"_s.arg(s.outDir));
    // One sweep writes a folder at a time: a second one (a --resume of the same folder, or the
    // same --out started twice) would replace the first's results.json with its own. QLockFile
    // holds the PID; a lock left by a process that no longer runs (SIGKILL) is taken over.
    p.lock = std::make_unique<QLockFile>(QDir(s.outDir).filePath(u".facet-sweep.lock"_s));
    QLockFile& lock = *p.lock;
    lock.setStaleLockTime(0);
    if (!lock.tryLock(0)) {
        qint64 pid = 0;
        QString host, application;
        if (lock.error() == QLockFile::LockFailedError
            && lock.getLockInfo(&pid, &host, &application))
            return failure(
                u"%1 is being written by another sweep (%2, process %3 on %4); wait "
                "for it to finish or stop it, or choose another --out"_s.arg(s.outDir, application)
                    .arg(pid)
                    .arg(host));
        return failure(u"cannot lock %1 for the sweep (%2)"_s.arg(s.outDir,
            lock.error() == QLockFile::PermissionError ? u"permission denied"_s
                                                       : u"its lock file is unreadable"_s));
    }
    const bool exists = QFileInfo::exists(state.resultsPath());
    if (exists && !s.resume)
        return failure(u"%1 already holds a sweep; continue it with --resume %2, or choose "
                       "another --out"_s.arg(state.resultsPath(), s.outDir));
    if (!exists && s.resume)
        return failure(u"nothing to resume: %1 does not exist"_s.arg(state.resultsPath()));
    std::set<CellKey> done;
    if (s.resume) {
        Result<SweepFile> previous = readSweepFile(state.resultsPath());
        if (!previous)
            return failure(previous.error());
        QStringList differences = jsonDifferences(previous->options, state.file.options);
        differences += jsonDifferences(previous->dataset, state.file.dataset, u"dataset"_s);
        if (!differences.isEmpty())
            return failure(u"--resume: the options differ from those of %1, so its cells would "
                           "not be comparable; run the same command with --resume, or start a "
                           "new sweep with --out:\n  "_s.arg(state.resultsPath())
                + differences.join(u"\n  "_s));
        std::set<CellKey> planned;
        for (const ExperimentCell& c : p.plan)
            planned.insert(keyOf(c));
        for (TrialResult& t : previous->trials)
            if (planned.count(keyOf(t.cell)) && done.insert(keyOf(t.cell)).second)
                state.file.trials.push_back(std::move(t));
    }
    for (std::size_t i = 0; i < p.plan.size(); ++i)
        if (!done.count(keyOf(p.plan[i])))
            p.todo.push_back(i);
    return std::nullopt;
}

} // namespace

int runSweep(const CliOptions& options, QTextStream& out, QTextStream& err, std::stop_token stop,
    Communicator& comm)
{
    if (comm.rank() != 0)
        return runSweepRank(options, err, stop, comm);
    const SweepCliOptions& s = options.sweep;
    const bool distributed = comm.size() > 1;
    // Every rank ends with rank 0's exit code; the other ranks print its message too.
    const auto end = [&](const JobStatus& status) {
        if (!status.message.isEmpty())
            err << "facet-cli: " << status.message << Qt::endl;
        if (distributed)
            sendFinish(comm, status);
        return status.exitCode;
    };
    PreparedSweep p;
    std::optional<JobStatus> failure = prepareSweep(options, stop, p);
    std::vector<RankReport> ranks;
    if (distributed) {
        ranks = collectRankReports(comm, rankReport(options, p.data, failure, comm.size()));
        if (!failure)
            failure = checkRanks(ranks);
        sendStart(comm, failure.value_or(JobStatus {}));
    }
    if (failure) {
        if (!failure->message.isEmpty())
            err << "facet-cli: " << failure->message << Qt::endl;
        return failure->exitCode;
    }
    const ExperimentDataset& data = *p.data;
    SweepState& state = p.state;
    const std::size_t doneBefore = p.plan.size() - p.todo.size();
    if (s.resume)
        err << "resuming " << s.outDir << ": " << doneBefore << " of " << p.plan.size()
            << " cells already finished" << Qt::endl;
    if (const Result<bool> ok = writeSweepResults(state); !ok)
        return end({ kExitFailure, ok.error() });

    SweepProgress progress(int(p.plan.size()), int(doneBefore));
    QString writeError;
    // A results.json that cannot be saved stops the sweep at once: cells computed after it
    // would be lost with the process (issue 36, item 9). The caller's stop (Ctrl+C) still works.
    std::stop_source cells;
    const std::stop_callback forward(stop, [&cells] { cells.request_stop(); });
    const auto onTrial = [&](const TrialResult& t) {
        if (!writeError.isEmpty())
            return; // a cell that finished while the others stopped: not saved either
        std::vector<TrialResult> saved = state.file.trials;
        state.file.trials.push_back(t);
        sortTrials(state.file.trials, state.options);
        if (const Result<bool> ok = writeSweepResults(state); !ok) {
            writeError = ok.error();
            state.file.trials = std::move(saved); // what the file on disk holds
            cells.request_stop();
        }
        progress.cellFinished(t);
    };
    SweepRunOutcome outcome;
    if (distributed) {
        CellWorkers local(data, s.experiment, p.plan, threadsPerRank(options.threads, comm.size()));
        outcome = coordinateCells(comm, local, ranks, p.todo, cells.get_token(), onTrial);
    } else {
        std::vector<ExperimentCell> remaining;
        for (std::size_t i : p.todo)
            remaining.push_back(p.plan[i]);
        outcome = runCellsInParallel(
            data, s.experiment, remaining, options.threads, cells.get_token(), onTrial);
    }
    progress.finish();
    if (!writeError.isEmpty())
        return end({ kExitFailure,
            u"the sweep stopped: %1; %2 holds the %3 cells saved before, and "
            "facet-cli sweep --resume %4 continues from them"_s.arg(writeError, state.resultsPath())
                .arg(state.file.trials.size())
                .arg(s.outDir) });
    state.file.complete = int(state.file.trials.size()) == state.cellsPlanned;

    const Result<QStringList> written = writeSweepOutputs(state);
    if (!written)
        return end({ kExitFailure, written.error() });
    out << data.raw().name << ": " << state.file.trials.size() << " of " << p.plan.size()
        << " cells, " << selectionLabel(s.experiment) << "; average over c:\n"
        << sweepAverageLines(state).join(u'\n') << "\n-> " << written->join(u", "_s) << '\n';
    out.flush();
    if (!outcome.error.empty())
        return end({ kExitFailure,
            u"a cell failed, the sweep stopped: %1"_s.arg(QString::fromStdString(outcome.error)) });
    if (outcome.stopped)
        return end({ kExitInterrupted,
            u"stopped; %1 finished cells are saved. Continue with: facet-cli sweep --resume %2"_s
                .arg(state.file.trials.size())
                .arg(s.outDir) });
    return end({});
}

} // namespace facet::cli
