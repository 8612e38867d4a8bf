// SPDX-License-Identifier: GPL-3.0-or-later
#include "cli/commands.h"
#include "cli/bench_report.h"
#include "cli/mask_options.h"
#include "cli/run_progress.h"

#include "core/openmp.h"
#include "data/dataset_source.h"
#include "data/image_render.h"
#include "data/mat_writer.h"
#include "data/missing_entries.h"
#include "experiment/run_report.h"
#include "util/atomic_write.h"

#include <Eigen/Core>

#include <QElapsedTimer>
#include <QFileInfo>

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <vector>

namespace facet::cli {

using namespace Qt::StringLiterals;

namespace {

// Loads without preparation, so load and preparation are timed (and reported) apart.
Result<Dataset> loadRaw(const DatasetRequest& request, std::stop_token stop)
{
    DatasetRequest raw = request;
    raw.prepare = PrepareOptions { false, false };
    raw.mat.stop = std::move(stop);
    return loadDataset(raw);
}

// Class names -> class indices of `data`, in the order given.
Result<std::vector<int>> classIndices(const Dataset& data, const QStringList& names)
{
    if (!data.hasLabels())
        return Error { u"--classes needs a labelled dataset; %1 has no labels"_s.arg(data.name) };
    std::vector<int> indices;
    for (const QString& name : names) {
        const qsizetype index = data.classNames.indexOf(name);
        if (index < 0)
            return Error { u"--classes: %1 has no class '%2' (classes: %3 .. %4)"_s.arg(
                data.name, name, data.classNames.first(), data.classNames.last()) };
        // By the name the user gave: Dataset::selectClasses would name the 0-based index.
        if (std::find(indices.begin(), indices.end(), int(index)) != indices.end())
            return Error { u"--classes: class '%1' is listed twice"_s.arg(name) };
        indices.push_back(int(index));
    }
    return indices;
}

QString formatOptional(const std::optional<double>& v)
{
    return v ? QString::number(*v, 'f', 4) : u"n/a"_s;
}

} // namespace

QString interruptedWhileLoadingMessage(const QString& dataset)
{
    return u"interrupted while loading %1; nothing was written"_s.arg(dataset);
}

int interruptedWhileLoading(const QString& dataset, QTextStream& err)
{
    err << "facet-cli: " << interruptedWhileLoadingMessage(dataset) << Qt::endl;
    return kExitInterrupted;
}

int runInfo(const CliOptions& options, QTextStream& out, QTextStream& err, std::stop_token stop)
{
    const Result<Dataset> loaded = loadRaw(options.dataset, stop);
    if (!loaded) {
        if (stop.stop_requested())
            return interruptedWhileLoading(options.dataset.spec, err);
        err << "facet-cli: " << loaded.error() << Qt::endl;
        return kExitFailure;
    }
    if (stop.stop_requested()) // during a load that does not watch it (a folder, a Level 5 file)
        return interruptedWhileLoading(options.dataset.spec, err);
    const Dataset& d = *loaded;
    out << describe(d) << '\n';
    out << "source:   " << d.source << '\n';
    out << "samples:  " << d.samples() << '\n';
    out << "features: " << d.features() << " (" << d.height << "x" << d.width << ")\n";
    if (d.X.size() > 0)
        out << "values:   " << d.X.minCoeff() << " .. " << d.X.maxCoeff() << '\n';
    if (d.hasLabels()) {
        out << "classes:  " << d.classCount() << '\n';
        const std::vector<int> sizes = d.classSizes();
        for (int c = 0; c < d.classCount(); ++c)
            out << "  " << d.classNames.at(c) << ": " << sizes[std::size_t(c)] << '\n';
    } else {
        out << "classes:  none (unlabelled)\n";
    }
    for (const QString& note : d.notes)
        out << "note:     " << note << '\n';
    out.flush();
    return kExitOk;
}

QString runOutputsProblem(const CliOptions& options)
{
    // The outputs' paths before any work: a typo there found after a long solve cost the solve,
    // and a JSON already written beside a failed --factors looked like a finished run.
    for (const auto& [path, image] : { std::pair { options.jsonPath, false },
             std::pair { options.basisPngPath, true }, std::pair { options.factorsPath, false } })
        if (!path.isEmpty() && path != QLatin1String(kStandardOutputPath))
            if (QString problem = outputPathProblem(path, image); !problem.isEmpty()
                || !(problem = overwritesDatasetProblem(path, options.dataset.spec)).isEmpty())
                return problem;
    return {};
}

std::optional<int> prepareRunData(const CliOptions& options, QTextStream& out, QTextStream& err,
    std::stop_token stop, Dataset& data, RunTimings& timings)
{
    if (const QString problem = runOutputsProblem(options); !problem.isEmpty()) {
        err << "facet-cli: " << problem << Qt::endl;
        return kExitFailure;
    }
    QElapsedTimer clock;
    clock.start();
    Result<Dataset> loaded = loadRaw(options.dataset, stop);
    if (!loaded) {
        if (stop.stop_requested())
            return interruptedWhileLoading(options.dataset.spec, err);
        err << "facet-cli: " << loaded.error() << Qt::endl;
        return kExitFailure;
    }
    timings.loadSeconds = double(clock.nsecsElapsed()) * 1e-9;

    clock.restart();
    data = std::move(*loaded);
    // What the loader left out (files that are not images, damaged or unreadable ones, folders
    // without images) or merged (nested folders into their class) changes the data the run
    // sees; info prints every note, run these.
    for (const QString& note : std::as_const(data.notes))
        if (note.startsWith(u"skipped "_s) || note.startsWith(u"ignored "_s)
            || note.startsWith(u"left out "_s) || note.startsWith(u"images in folders below"_s))
            out << "note: " << note << '\n';
    if (!options.maskPath.isEmpty())
        if (const Result<bool> masked = facet::applyMaskFile(
                options.maskPath, options.maskVariable, int(options.dataset.mat.pixelOrder), data);
            !masked) {
            err << "facet-cli: --mask: " << masked.error() << Qt::endl;
            return kExitFailure;
        }
    // With missing entries the L2 normalization is over each sample's observed entries.
    prepareDataset(data, options.dataset.prepare);
    try {
        if (!options.classes.isEmpty()) {
            const Result<std::vector<int>> indices = classIndices(data, options.classes);
            if (!indices) {
                err << "facet-cli: " << indices.error() << Qt::endl;
                return kExitFailure;
            }
            data = data.selectClasses(*indices);
        }
    } catch (const std::exception& e) {
        err << "facet-cli: " << e.what() << Qt::endl;
        return kExitFailure;
    }
    timings.prepareSeconds = double(clock.nsecsElapsed()) * 1e-9;

    return std::nullopt;
}

int writeRunOutputs(const CliOptions& options, const Dataset& data, const RunOptions& runOptions,
    const RunResult& result, const RunTimings& timings, const QJsonObject& extra, QTextStream& out,
    QTextStream& err)
{
    const bool jsonToStdout = options.jsonPath == QLatin1String(kStandardOutputPath);
    QJsonObject report = runReport(data, options.dataset, runOptions, result, timings);
    for (auto it = extra.begin(); it != extra.end(); ++it)
        report.insert(it.key(), it.value());
    report.insert(u"openmp_wait"_s, openMpWaitJson()); // what time_history was measured under
    if (data.hasMask())
        report.insert(u"mask"_s, maskJson(data));
    out.flush(); // the notes so far, before the JSON
    // Every output goes to its temporary file first, and all are renamed into place only once
    // each was written: a --factors that fails no longer leaves the JSON of a run that looks
    // finished (all outputs or none).
    std::vector<StagedOutputPtr> staged;
    const auto stage = [&](Result<StagedOutputPtr> output) {
        if (!output) {
            err << "facet-cli: " << output.error() << "; no output was written" << Qt::endl;
            return false;
        }
        staged.push_back(std::move(*output));
        return true;
    };
    if (!jsonToStdout && !stage(stageJsonFile(options.jsonPath, report)))
        return kExitFailure;
    if (!options.basisPngPath.isEmpty()) {
        const Factorization& f = result.factorization;
        const int columns = int(std::ceil(std::sqrt(double(f.basis.cols()))));
        const QImage mosaic = imageMosaic(f.basis, data.height, data.width, columns, 3, 2);
        if (!stage(stageImageFile(options.basisPngPath, mosaic)))
            return kExitFailure;
    }
    if (!options.factorsPath.isEmpty()
        && !stage(stageFactorsMat(options.factorsPath, data, result, report)))
        return kExitFailure;
    if (const Result<bool> written = commitOutputs(staged); !written) {
        err << "facet-cli: " << written.error() << Qt::endl;
        return kExitFailure;
    }
    if (jsonToStdout)
        if (const Result<bool> written = writeJsonFile(options.jsonPath, report); !written) {
            err << "facet-cli: " << written.error() << Qt::endl;
            return kExitFailure;
        }

    const Factorization& f = result.factorization;
    out << QString::fromStdString(options.run.method) << " rank " << options.run.params.rank
        << " on " << data.name << ": " << f.iterations << " iterations ("
        << (runOptions.driver.startHistory.empty()
                   ? QString()
                   : u"%1 after the start file's %2, "_s
                         .arg(f.iterations - int(runOptions.driver.startHistory.size()))
                         .arg(runOptions.driver.startHistory.size()))
        << QString::fromLatin1(stopReasonName(f.stopReason)) << "), objective "
        << (f.history.empty() ? u"none (no iteration finished)"_s
                              : QString::number(f.history.back()))
        << (returnedObjectiveDiffers(f)
                   ? u" (%1 at the returned factors, after the normalization)"_s.arg(
                       f.returnedObjective, 0, 'g', 6)
                   : QString())
        << ", AC " << formatOptional(result.ac) << ", NMI " << formatOptional(result.nmi) << ", "
        << QString::number(result.setupSeconds + f.initSeconds + f.solveSeconds, 'f', 2) << " s -> "
        << options.jsonPath << '\n';
    if (result.graphAc)
        out << "graph components (CF_OGL): AC " << formatOptional(result.graphAc) << ", NMI "
            << formatOptional(result.graphNmi) << '\n';
    if (everySampleLabelled(result))
        out << "note: every sample's label was given to "
            << QString::fromStdString(options.run.method)
            << ", so AC and NMI score the given labels, not a clustering; label fewer samples "
               "(--labeled-fraction or --labeled-per-class)\n";
    if (suggestsKMeansStart(f, runOptions))
        out << "note: stopped at --max-iter while the objective was still decreasing; raise "
               "--max-iter or try --init kmeans (from a random start every basis vector begins "
               "near the data mean, which the CF family leaves slowly)\n";
    else if (f.stillDecreasing)
        out << "note: stopped at --max-iter while the objective was still decreasing\n";
    for (const std::string& line : f.log)
        out << "log: " << QString::fromStdString(line) << '\n';
    out.flush();
    if (f.stopReason == StopReason::Cancelled) {
        // A script must be able to tell an interrupted run from a finished one.
        err << "facet-cli: interrupted after " << f.iterations
            << " iterations; the outputs hold the factors so far (stop_reason \"cancelled\")"
            << Qt::endl;
        return kExitInterrupted;
    }
    return kExitOk;
}

int runRun(
    const CliOptions& options, QTextStream& standardOutput, QTextStream& err, std::stop_token stop)
{
    // With --json - standard output carries the JSON alone; what the run says goes to stderr.
    const bool jsonToStdout = options.jsonPath == QLatin1String(kStandardOutputPath);
    QTextStream& out = jsonToStdout ? err : standardOutput;
    if (options.threads > 0) {
        omp::setThreads(options.threads); // Eigen follows it (core/openmp.h)
    }
    RunTimings timings;
    Dataset data;
    if (const std::optional<int> failed = prepareRunData(options, out, err, stop, data, timings))
        return *failed;

    RunOptions runOptions = options.run;
    if (data.hasMask()) // after --classes: the weights of the samples kept
        runOptions.params.weights = std::make_shared<const Matrix>(data.weights);
    if (!options.initFromPath.isEmpty()) {
        Result<StartFactors> start = readStartFactors(options.initFromPath, data, runOptions);
        if (!start) {
            err << "facet-cli: --init-from: " << start.error() << Qt::endl;
            return kExitFailure;
        }
        runOptions.driver.start
            = std::make_shared<const std::vector<Matrix>>(std::move(start->factors));
        runOptions.driver.startHistory = std::move(start->history);
        for (const QString& note : std::as_const(start->notes))
            out << "note: " << note << '\n';
        runOptions.driver.startSource
            = QFileInfo(options.initFromPath).absoluteFilePath().toStdString();
    }

    RunResult result;
    try {
        RunProgress progress(runOptions.driver.maxIter, int(runOptions.driver.startHistory.size()));
        SolveControl control;
        control.stop = stop;
        if (progress.active()) {
            control.onStage = [&](std::string_view stage) { progress.stage(stage); };
            control.onStageProgress = [&](double fraction) { progress.stageProgress(fraction); };
            control.onIteration = [&](const IterationReport& r) { progress.iteration(r); };
        }
        result = runAndCluster(data.X, data.labels, runOptions, control);
    } catch (const std::exception& e) {
        err << "facet-cli: " << e.what() << Qt::endl;
        return kExitFailure;
    }
    if (!result.cancelledDuring.empty()) {
        err << "facet-cli: cancelled during " << QString::fromStdString(result.cancelledDuring)
            << ", before the first iteration; nothing was written" << Qt::endl;
        return kExitInterrupted;
    }

    if (result.stoppedAtStart) {
        err << "facet-cli: the run stopped before its first iteration: the objective of its first "
               "step was not finite (the products overflow the double range), so there is no "
               "result to score or write; nothing was written. Check the data's scale and the "
               "weights (--lambda, --beta, --mu, --offset, --degree)"
            << Qt::endl;
        return kExitFailure;
    }
    return writeRunOutputs(options, data, runOptions, result, timings, {}, out, err);
}

} // namespace facet::cli
