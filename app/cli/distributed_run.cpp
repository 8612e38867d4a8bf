// SPDX-License-Identifier: GPL-3.0-or-later
#include "cli/distributed_run.h"

#include "cli/bench_process_memory.h"
#include "cli/commands.h"
#include "cli/distributed_data.h"
#include "cli/run_progress.h"
#include "core/driver.h"
#include "core/openmp.h"
#include "core/update.h"
#include "distributed/distributed_sweep.h"
#include "experiment/run.h"
#include "graph/knn_graph.h"
#include "methods/registry.h"
#include "metrics/clustering_metrics.h"
#include "metrics/quality.h"
#include "util/atomic_write.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

#include <chrono>
#include <cstring>
#include <exception>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

namespace facet::cli {

using namespace Qt::StringLiterals;

QString distributedRunRefusal(const CliOptions& options)
{
    const RunOptions& run = options.run;
    const QString method = QString::fromStdString(run.method);
    const bool graph = run.method == "gnmf" || run.method == "lccf";
    if (run.method != "nmf" && run.method != "cnmf" && run.method != "cf" && run.method != "lcf"
        && run.method != "ccf" && !graph)
        return u"%1 does not run distributed: under mpirun, `run` splits the samples of nmf, "
               "cnmf, cf, lcf, ccf, gnmf and lccf only (SemiGNMF's label edges join samples "
               "across every rank at once, CF_OGL's steps and the kernels other than linear need "
               "n x n matrices, k-means and PCA are not factorizations here); start one "
               "process"_s.arg(method);
    if (graph && run.params.knnSearch == KnnSearch::Approximate)
        return u"the approximate neighbour search does not run distributed (its index holds "
               "every sample); use --knn exact or auto, which is exact under mpirun"_s;
    if (graph && run.params.algorithm && baseAlgorithm(*run.params.algorithm) == Algorithm::Hals)
        return u"%1 with --algorithm %2 does not run distributed: the graph term's HALS sweeps "
               "update V's rows one after another across the ranks; use mu or mu-ex, or start "
               "one process"_s.arg(method,
                   QString::fromStdString(std::string(algorithmName(*run.params.algorithm))));
    if (run.method != "nmf" && run.method != "cnmf" && run.params.kernel != KernelKind::Linear)
        return u"%1 with a non-linear kernel does not run distributed: its K is n x n; use the "
               "linear kernel (K V = X^T (X V)) or start one process"_s.arg(method);
    if (run.params.ncw || run.params.generalForm)
        return u"--ncw and --general-form do not run distributed; start one process"_s;
    if (run.params.initSet && run.params.init != InitKind::Random
        && run.params.init != InitKind::Nmf)
        return u"only the random and nmf starts run distributed (the others look at every sample "
               "at once); use --init random or nmf, or start one process"_s;
    if (!options.maskPath.isEmpty())
        return u"--mask does not run distributed; start one process"_s;
    if (!options.initFromPath.isEmpty())
        return u"--init-from does not run distributed; start one process"_s;
    return {};
}

namespace {

QString rankLabel(const Collectives& comm)
{
    return rankName(comm.rank(), comm.size(), {});
}

QJsonArray jsonArray(const std::vector<double>& values)
{
    QJsonArray out;
    for (const double v : values)
        out.append(v);
    return out;
}

// Rank 0's data set and what it tells the other ranks before the columns go out.
struct Start {
    QString error; // why the run cannot start (empty: it can)
    int exitCode = kExitOk;
    bool toldAlready = false; // rank 0 printed the error itself (prepareRunData)
    Eigen::Index m = 0;
    Eigen::Index n = 0;
};

Start startOnRankZero(const CliOptions& options, QTextStream& say, QTextStream& err, int ranks,
    Dataset& data, RunTimings& timings)
{
    Start start;
    if (const std::optional<int> failed = prepareRunData(options, say, err, {}, data, timings)) {
        start = { u"rank 0 could not load the data set; nothing was written"_s, *failed, true };
        return start;
    }
    if (data.X.size() > 0 && data.X.minCoeff() < 0)
        start.error = u"the data has negative entries: the distributed rules need X >= 0"_s;
    else if (data.samples() < ranks)
        start.error = u"%1 samples cannot be split over %2 ranks"_s.arg(data.samples()).arg(ranks);
    if (!start.error.isEmpty())
        start.exitCode = kExitFailure;
    start.m = data.features();
    start.n = data.samples();
    return start;
}

// The labelled samples of a semi-supervised method (runKnownLabels: drawn on rank 0 as one process
// draws them), for every rank: n class indices, -1 for the unlabelled, as 4-byte integers.
std::vector<int> shareKnownLabels(
    Collectives& comm, const RunOptions& run, const Dataset& data, Start& start)
{
    std::string bytes;
    if (comm.rank() == 0 && start.error.isEmpty()) {
        try {
            const std::vector<int> known = runKnownLabels(run, data.labels);
            bytes.assign(reinterpret_cast<const char*>(known.data()), known.size() * sizeof(int));
        } catch (const std::exception& e) {
            start.error = QString::fromStdString(e.what());
            start.exitCode = kExitFailure;
        }
    }
    comm.broadcast(bytes, 0);
    std::vector<int> known(bytes.size() / sizeof(int));
    if (!known.empty())
        std::memcpy(known.data(), bytes.data(), known.size() * sizeof(int));
    return known;
}

// What rank 0's checks of the options run with. GNMF and LCCF get a graph without edges in
// place of the kNN graph (its search over the whole X is the work the ranks share), after the
// checks the search itself would make.
MethodContext checkContext(const RunOptions& run, MatrixCRef X)
{
    MethodContext context;
    if (run.method != "gnmf" && run.method != "lccf")
        return context;
    requireUsableData(X);
    const Eigen::Index n = X.cols();
    KnnOptions knn;
    knn.p = run.params.p;
    knn.weight = run.params.weight;
    knn.heatT = run.params.heatT;
    requireKnnOptions(knn, n);
    auto edgeless = std::make_shared<Graph>();
    edgeless->S.resize(n, n);
    edgeless->degree = Vector::Zero(n);
    context.graph = std::move(edgeless);
    return context;
}

// Rank 0's refusal of the options or the outputs' paths, and every rank's command line against
// rank 0's: nullopt when the run can go on; else the exit code, after rank 0 (or each rank started
// otherwise) said why.
std::optional<int> agreeOnTheCommand(
    const CliOptions& options, const QStringList& arguments, Collectives& comm, QTextStream& err)
{
    const int rank = comm.rank(), ranks = comm.size();
    std::string header;
    if (rank == 0) {
        QString error = distributedRunRefusal(options);
        int exitCode = error.isEmpty() ? kExitOk : kExitUsage;
        if (error.isEmpty() && !(error = runOutputsProblem(options)).isEmpty())
            exitCode = kExitFailure;
        header = QJsonDocument(QJsonObject { { u"error"_s, error }, { u"exit_code"_s, exitCode },
                                   { u"arguments"_s, QJsonArray::fromStringList(arguments) } })
                     .toJson(QJsonDocument::Compact)
                     .toStdString();
    }
    comm.broadcast(header, 0);
    const QJsonObject h = QJsonDocument::fromJson(QByteArray::fromStdString(header)).object();
    const bool sameCommand
        = h.value(u"arguments"_s).toArray() == QJsonArray::fromStringList(arguments);
    const std::vector<double> otherCommand = valuePerRank(comm, sameCommand ? 0 : 1);
    const QString error = h.value(u"error"_s).toString();
    int firstOther = -1;
    for (int r = 0; r < ranks && firstOther < 0; ++r)
        if (otherCommand[std::size_t(r)] != 0)
            firstOther = r;
    if (firstOther >= 0) {
        if (rank != 0)
            err << "facet-cli (" << rankLabel(comm) << "): "
                << u"%1 was started with other arguments than rank 0; start every rank with the "
                   "same command. Nothing was written"_s.arg(rankName(firstOther, ranks, {}))
                << Qt::endl;
        return kExitFailure;
    }
    if (error.isEmpty())
        return std::nullopt;
    if (rank == 0)
        err << "facet-cli: " << error << Qt::endl;
    return h.value(u"exit_code"_s).toInt(kExitFailure);
}

// Rank 0 reads and prepares the whole set and sends each rank its columns (`received`; rank 0
// keeps the whole set in `data`), and every rank learns n. nullopt when every rank has its
// columns; else the exit code, after rank 0 said why.
std::optional<int> scatterFromRankZero(const CliOptions& options, QTextStream& say,
    QTextStream& err, Collectives& comm, Dataset& data, RunTimings& timings, RunOptions& runOptions,
    Matrix& received, SampleRange& mine, Eigen::Index& n)
{
    const int rank = comm.rank(), ranks = comm.size();
    Start start;
    if (rank == 0)
        start = startOnRankZero(options, say, err, ranks, data, timings);
    if (std::vector<int> known = shareKnownLabels(comm, runOptions, data, start); !known.empty())
        runOptions.params.knownLabels = std::move(known);
    if (rank == 0 && start.error.isEmpty() && start.exitCode == kExitOk) {
        // The method's own checks (an algorithm it does not run, a rank past n, a parameter out
        // of range) on the whole X, as one process makes them: one message before the columns go
        // out.
        try {
            (void)makeMethodFactory(
                runOptions.method, data.X, runOptions.params, checkContext(runOptions, data.X));
        } catch (const std::exception& e) {
            start.error = QString::fromStdString(e.what()) + u"; nothing was written"_s;
            start.exitCode = kExitFailure;
        }
    }
    std::string header;
    if (rank == 0)
        header = QJsonDocument(
            QJsonObject { { u"error"_s, start.error }, { u"exit_code"_s, start.exitCode },
                { u"m"_s, qint64(start.m) }, { u"n"_s, qint64(start.n) } })
                     .toJson(QJsonDocument::Compact)
                     .toStdString();
    comm.broadcast(header, 0);
    const QJsonObject h = QJsonDocument::fromJson(QByteArray::fromStdString(header)).object();
    if (const QString error = h.value(u"error"_s).toString(); !error.isEmpty()) {
        if (rank == 0 && !start.toldAlready)
            err << "facet-cli: " << error << Qt::endl;
        return h.value(u"exit_code"_s).toInt(kExitFailure);
    }
    const Eigen::Index m = Eigen::Index(h.value(u"m"_s).toInteger());
    n = Eigen::Index(h.value(u"n"_s).toInteger());
    mine = sampleRange(n, ranks, rank);
    std::vector<std::string> parts;
    if (rank == 0)
        for (int r = 0; r < ranks; ++r) {
            const SampleRange range = sampleRange(n, ranks, r);
            const char* first = reinterpret_cast<const char*>(data.X.data() + range.first * m);
            parts.emplace_back(r == 0
                    ? std::string() // rank 0 reads its columns in place
                    : std::string(first, std::size_t(range.count * m) * sizeof(Scalar)));
        }
    const std::string part = comm.scatter(parts, 0);
    parts.clear();
    if (rank != 0)
        received
            = Eigen::Map<const Matrix>(reinterpret_cast<const Scalar*>(part.data()), m, mine.count);
    return std::nullopt;
}

} // namespace

int runDistributedRun(const CliOptions& options, const QStringList& arguments, QTextStream& out,
    QTextStream& err, Collectives& comm, const std::function<void(int)>& abortJob)
{
    const int rank = comm.rank(), ranks = comm.size();
    const bool jsonToStdout = options.jsonPath == QLatin1String(kStandardOutputPath);
    QTextStream& say = jsonToStdout ? err : out;
    if (options.threads > 0)
        omp::setThreads(options.threads);

    // 1. Rank 0 checks the options and the outputs' paths, and every rank that it was given rank
    // 0's command line (a rank with other options would factorize something else).
    if (const std::optional<int> refused = agreeOnTheCommand(options, arguments, comm, err))
        return *refused;

    // 2. The columns: each rank reads its own where the format allows (cli/distributed_data.h),
    // or rank 0 reads the whole set and sends each rank its block.
    const QString eachReadsObstacle = eachRankReadsObstacle(options);
    Dataset data;
    RunTimings timings;
    RunOptions runOptions = options.run;
    Matrix received;
    SampleRange mine;
    Eigen::Index n = 0;
    if (eachReadsObstacle.isEmpty()) {
        const auto loadStart = std::chrono::steady_clock::now();
        if (const std::optional<int> failed = loadOwnColumns(options, comm, data, mine, err))
            return *failed;
        timings.loadSeconds
            = std::chrono::duration<double>(std::chrono::steady_clock::now() - loadStart).count();
        n = data.whole->samples;
        Start start;
        if (std::vector<int> known = shareKnownLabels(comm, runOptions, data, start);
            !known.empty())
            runOptions.params.knownLabels = std::move(known);
        if (anyRankFailed(comm, start.error, err))
            return kExitFailure;
    } else if (const std::optional<int> failed = scatterFromRankZero(
                   options, say, err, comm, data, timings, runOptions, received, mine, n)) {
        return *failed;
    }
    const bool scattered = !eachReadsObstacle.isEmpty();
    const MatrixCRef X = !scattered ? MatrixCRef(data.X)
        : rank == 0                 ? MatrixCRef(data.X.middleCols(mine.first, mine.count))
                                    : MatrixCRef(received);

    // 3. The solve, with every sum over the samples reduced (core/collectives.h). The method's
    // set-up (GNMF's and LCCF's graph, built across the ranks) refuses options alike on every
    // rank, which then say so once; a rank that fails inside the solve ends every rank.
    Factorization f;
    const Collectives::Traffic before = comm.traffic();
    const auto solveStart = std::chrono::steady_clock::now();
    Collectives::Traffic setup;
    double setupSeconds = 0;
    {
        // Only around the set-up and the solve: rank 0 clusters and scores alone afterwards.
        const DistributedScope scope({ &comm, n, mine.first });
        MethodFactory make;
        QString setupError;
        try {
            make = makeMethodFactory(runOptions.method, X, runOptions.params);
        } catch (const std::exception& e) {
            setupError = QString::fromStdString(e.what()) + u"; nothing was written"_s;
        }
        if (anyRankFailed(comm, setupError, err))
            return kExitFailure;
        setup = comm.traffic();
        setupSeconds
            = std::chrono::duration<double>(std::chrono::steady_clock::now() - solveStart).count();
        try {
            RunProgress progress(runOptions.driver.maxIter, 0);
            SolveControl control;
            if (rank == 0 && progress.active())
                control.onIteration = [&](const IterationReport& r) { progress.iteration(r); };
            f = solve(make, runOptions.driver, control);
        } catch (const std::exception& e) {
            err << "facet-cli (" << rankLabel(comm) << "): " << e.what()
                << "; every rank stops, nothing was written" << Qt::endl;
            err.flush();
            abortJob(kExitFailure);
            return kExitFailure;
        }
    }
    const double seconds
        = std::chrono::duration<double>(std::chrono::steady_clock::now() - solveStart).count();
    const Collectives::Traffic after = comm.traffic();

    // 4. What it cost on every rank and the reconstruction's sums, then V (and W) to rank 0.
    const std::vector<double> peak = valuePerRank(comm, peakResidentMemoryBytes());
    const std::vector<double> counts = valuePerRank(comm, double(mine.count));
    const std::vector<double> setupExchanged
        = valuePerRank(comm, double(setup.exchangedBytes - before.exchangedBytes));
    const std::vector<double> exchanged = valuePerRank(
        comm, double(after.exchangedBytes - setup.exchangedBytes) / std::max(1, f.iterations));
    const ReconstructionSums mineSums = reconstructionSums(X, f.basis, f.V);
    Scalar summed[2] = { Scalar(mineSums.residualSquared), Scalar(mineSums.dataSquared) };
    comm.sumReduce(summed, 2);
    const ReconstructionSums sums { double(summed[0]), double(summed[1]) };
    Matrix V = comm.gatherRows(f.V, 0);
    Matrix W = f.W.size() > 0 ? comm.gatherRows(f.W, 0) : Matrix();
    if (rank != 0)
        return kExitOk;

    RunResult result;
    result.knownLabels = runOptions.params.knownLabels;
    f.V = std::move(V);
    f.W = std::move(W);
    result.factorization = std::move(f);
    const Factorization& g = result.factorization;
    result.clusters = runClusters(runOptions, data.labels);
    if (runOptions.cluster.mode == ClusterMode::ArgMax && result.clusters > g.V.cols())
        result.clusters = int(g.V.cols()); // as runAndCluster
    result.predicted = clusterRepresentation(
        g.V, result.clusters, runOptions.cluster, runClusterSeed(runOptions.driver.seed));
    result.stoppedAtStart = g.stopReason == StopReason::NonFinite && g.iterations == 0;
    if (result.stoppedAtStart) {
        err << "facet-cli: the run stopped before its first iteration: the objective of its first "
               "step was not finite; nothing was written"
            << Qt::endl;
        return kExitFailure;
    }
    if (!data.labels.empty()) {
        result.ac = clusteringAccuracy(data.labels, result.predicted);
        result.nmi = normalizedMutualInformation(data.labels, result.predicted);
    }
    result.reconstructionError = relativeReconstructionError(sums);
    result.sparseness = hoyerSparseness(g.V);

    const double iterations = std::max(1, g.iterations);
    const QJsonObject distributed {
        { u"ranks"_s, ranks },
        // Where the columns came from: "each rank" read its own, or "rank 0" read the whole set
        // and scattered them (with the reason).
        { u"columns_read_by"_s, eachReadsObstacle.isEmpty() ? u"each rank"_s : u"rank 0"_s },
        { u"columns_read_by_rank_0_because"_s, eachReadsObstacle },
        { u"samples_per_rank"_s, jsonArray(counts) },
        { u"peak_memory_bytes_per_rank"_s, jsonArray(peak) },
        { u"solve_seconds"_s, seconds }, // from the method's set-up to the last iteration
        { u"setup_seconds"_s, setupSeconds }, // the set-up alone: GNMF's and LCCF's kNN graph
        { u"reduced_bytes"_s, double(after.reducedBytes - before.reducedBytes) },
        { u"reductions"_s, double(after.reductions - before.reductions) },
        { u"reduced_bytes_per_iteration"_s,
            double(after.reducedBytes - before.reducedBytes) / iterations },
        { u"reductions_per_iteration"_s,
            double(after.reductions - before.reductions) / iterations },
        // What each rank sent to others point to point (GNMF, LCCF): building the kNN graph
        // (the ring of X's blocks, the edges, the halo's columns of X), then V's halo rows.
        { u"graph_setup_exchanged_bytes_per_rank"_s, jsonArray(setupExchanged) },
        { u"exchanged_bytes_per_iteration_per_rank"_s, jsonArray(exchanged) },
    };
    return writeRunOutputs(options, data, runOptions, result, timings,
        QJsonObject { { u"distributed"_s, distributed } }, say, err);
}

} // namespace facet::cli
