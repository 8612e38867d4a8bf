// SPDX-License-Identifier: GPL-3.0-or-later
#include "bench/bench_runner.h"

#include "cluster/kmeans.h"
#include "core/driver.h"
#include "core/skinny_product.h"
#include "experiment/labeled_subset.h"
#include "experiment/run.h"
#include "methods/baselines.h"
#include "methods/constraint.h"
#include "metrics/clustering_metrics.h"

#include <sys/resource.h>

#include <algorithm>
#include <chrono>
#include <memory>
#include <set>
#include <stdexcept>
#include <type_traits>

namespace facet {
namespace {

using Clock = std::chrono::steady_clock;

double caseSecondsSince(Clock::time_point start)
{
    return std::chrono::duration<double>(Clock::now() - start).count();
}

bool isGraphMethod(const std::string& method)
{
    return method == "lccf" || method == "gnmf" || method == "semignmf";
}

double median(std::vector<double> values)
{
    std::sort(values.begin(), values.end());
    const std::size_t h = values.size() / 2;
    return values.size() % 2 ? values[h] : 0.5 * (values[h - 1] + values[h]);
}

// The data both method groups share per preparation: the linear kernel and the kNN graph.
struct Prepared {
    MethodContext context;
    double graphSeconds = 0;
    std::string knnSearch;
};

void buildGraph(MatrixCRef X, const BenchOptions& options, Prepared& prepared)
{
    const MethodOptions defaults;
    KnnOptions knn;
    knn.p = defaults.p;
    knn.weight = defaults.weight;
    knn.search = options.knn;
    knn.seed = options.seed;
    const auto start = Clock::now();
    prepared.context.graph = std::make_shared<const Graph>(buildKnnGraph(X, knn));
    prepared.graphSeconds = caseSecondsSince(start);
    prepared.knnSearch = usesApproximateSearch(options.knn, X.cols()) ? "approximate" : "exact";
}

// One timed solve: the mean of the steady-state iterations 2..N from the driver's per-iteration
// reports, so the start, the final normalization and the export are not counted.
double timedSolve(const MethodFactory& make, int iterations, std::uint64_t seed, Factorization& out)
{
    DriverOptions driver;
    driver.maxIter = iterations;
    driver.minIter = iterations;
    driver.tol = 0;
    driver.seed = seed;
    std::vector<Clock::time_point> stamps;
    stamps.reserve(std::size_t(iterations));
    SolveControl control;
    control.onIteration = [&stamps](const IterationReport&) { stamps.push_back(Clock::now()); };
    out = solve(make, driver, control);
    if (stamps.size() >= 2)
        return std::chrono::duration<double>(stamps.back() - stamps.front()).count()
            / double(stamps.size() - 1);
    return out.solveSeconds / std::max(1, out.iterations);
}

void setRoofline(BenchRow& row, const IterationCost& cost, const MachinePeaks& peaks)
{
    row.modelled = true;
    row.flopsPerIteration = cost.flops;
    row.bytesPerIteration = cost.bytes;
    row.gflops = cost.flops / (row.msPerIteration * 1e-3) * 1e-9;
    row.limitMs = 1e3 * rooflineSeconds(cost, peaks);
    row.limitFraction = row.limitMs / row.msPerIteration;
    row.gemmGflops = peaks.gemmGflops;
    row.triadGBs = peaks.triadGBs;
}

double readPeakMemory(const BenchHooks& hooks)
{
    return hooks.peakMemoryBytes ? hooks.peakMemoryBytes() : processPeakMemoryBytes();
}

// The row's times from each repeat's seconds per iteration: the median, and the extremes.
void setTimes(BenchRow& row, const std::vector<double>& seconds)
{
    row.msPerIteration = 1e3 * median(seconds);
    row.msMin = 1e3 * *std::min_element(seconds.begin(), seconds.end());
    row.msMax = 1e3 * *std::max_element(seconds.begin(), seconds.end());
}

// AC and NMI of k-means (options.kmeansReplicates restarts) on the rows of V, when asked and
// the dataset has labels.
void scoreRepresentation(
    const Matrix& V, const std::vector<int>& labels, const BenchOptions& options, BenchRow& row)
{
    if (!options.score || labels.empty())
        return;
    const int classes = int(std::set<int>(labels.begin(), labels.end()).size());
    ClusterOptions cluster;
    cluster.replicates = options.kmeansReplicates;
    const std::vector<int> predicted
        = clusterRepresentation(V, classes, cluster, deriveSeed(options.seed, 1u << 20));
    row.ac = clusteringAccuracy(labels, predicted);
    row.nmi = normalizedMutualInformation(labels, predicted);
}

// The k-means baseline, one replicate from k-means++ seeding: the time of its Lloyd rounds over
// their number (it stops early when no label moves; row.iterations says how many ran).
void timeKMeans(MatrixCRef X, const std::vector<int>& labels, int rank, const BenchOptions& options,
    const MachinePeaks& peaks, BenchRow& row)
{
    KMeansOptions km;
    km.clusters = rank;
    km.replicates = 1;
    km.maxIter = options.iterations;
    km.seed = options.seed;
    if (options.warmupIterations > 0) {
        KMeansOptions warm = km;
        warm.maxIter = options.warmupIterations;
        kmeans(X, warm);
    }
    std::vector<double> seconds;
    KMeansResult result;
    for (int r = 0; r < options.repeats; ++r) {
        result = kmeans(X, km);
        seconds.push_back(result.lloydSeconds / std::max(1, result.iterations));
    }
    row.iterations = result.iterations;
    setTimes(row, seconds);
    row.objective = result.objective;
    CostInputs cost { "kmeans", X.rows(), X.cols(), rank };
    const double rounds = std::max(1, result.iterations);
    cost.kmeansFreshShare = result.freshSumRounds / rounds;
    cost.kmeansUpdatesPerRound = double(result.sumUpdates) / rounds;
    setRoofline(row, iterationCost(cost), peaks);
    if (options.score && !labels.empty()) {
        row.ac = clusteringAccuracy(labels, result.labels);
        row.nmi = normalizedMutualInformation(labels, result.labels);
    }
}

// PCA: the time of one solve (pcaBaseline's solveSeconds: the Gram matrix, the eigenpairs and
// the scores, not the k-means on them) as its "iteration", against the model of that solve.
void timePca(MatrixCRef X, const std::vector<int>& labels, int rank, const BenchOptions& options,
    const MachinePeaks& peaks, BenchRow& row)
{
    if (options.warmupIterations > 0)
        pcaBaseline(X, rank);
    std::vector<double> seconds;
    Factorization f;
    PcaStats stats;
    for (int r = 0; r < options.repeats; ++r) {
        f = pcaBaseline(X, rank, &stats);
        seconds.push_back(f.solveSeconds);
    }
    row.iterations = 1;
    setTimes(row, seconds);
    row.objective = f.history.empty() ? 0 : f.history.back();
    setRoofline(row,
        pcaCost({ X.rows(), X.cols(), rank, int(sizeof(Scalar)), stats.lanczos, stats.subspace,
            stats.products, stats.restarts }),
        peaks);
    scoreRepresentation(f.V, labels, options, row);
}

BenchRow runCase(const std::string& name, MatrixCRef X, const std::vector<int>& labels,
    const std::string& entry, int rank, const BenchOptions& options, const MachinePeaks& runPeaks,
    Prepared& prepared, const BenchHooks& hooks)
{
    // The ceilings this case is judged against: the run's, or measured just before its timed
    // solves. The triad's arrays are not the case's memory: the peak before the measurement is
    // kept and the high-water mark reset after it.
    MachinePeaks peaks = runPeaks;
    double peakBeforeCeilings = 0;
    const auto measureCeilings = [&] {
        if (!options.ceilingsPerCase)
            return;
        peakBeforeCeilings = readPeakMemory(hooks);
        peaks = measureCaseCeilings(runPeaks);
        if (hooks.resetPeakMemory)
            hooks.resetPeakMemory();
    };
    const auto casePeakMemory = [&] { return std::max(peakBeforeCeilings, readPeakMemory(hooks)); };
    BenchRow row;
    row.dataset = name;
    row.method = entry;
    row.precision = std::is_same_v<Scalar, float> ? "float" : "double";
    row.rank = rank;
    row.m = X.rows();
    row.n = X.cols();
    row.iterations = options.iterations;
    row.repeats = options.repeats;
    if (hooks.resetPeakMemory)
        hooks.resetPeakMemory();
    try {
        const BenchMethod variant = parseBenchMethod(entry);
        const std::string& method = variant.name;
        row.method = variant.label();
        MethodOptions params;
        params.rank = rank;
        // Per iteration the bench times the papers' rules, whose flops solver/bench/flops.cpp
        // counts (bench/to_solution.sh compares the algorithms to a solution).
        params.algorithm = Algorithm::Mu;
        params.kernel = variant.kernel;
        params.ncw = variant.ncw;
        if (method == "kmeans" && std::is_same_v<Scalar, float>)
            throw std::invalid_argument("k-means runs in double in both precisions "
                                        "(cluster/kmeans.cpp): its row is in the double run");
        if (method == "pca" || method == "kmeans") {
            measureCeilings();
            if (method == "pca")
                timePca(X, labels, rank, options, peaks, row);
            else
                timeKMeans(X, labels, rank, options, peaks, row);
            row.peakMemoryBytes = casePeakMemory();
            return row;
        }
        params.knnSearch = options.knn;
        if (options.init) {
            params.init = *options.init;
            params.initSet = true;
        }
        if (const MethodInfo* semi = findMethod(method); semi && semi->semiSupervised) {
            if (labels.empty())
                throw std::invalid_argument(method + " needs a labelled dataset");
            params.knownLabels
                = chooseLabeledSubset(labels, { options.labeledFraction, 0, options.seed });
        }
        if (isGraphMethod(method)) {
            if (!prepared.context.graph)
                buildGraph(X, options, prepared);
            row.graphSeconds = prepared.graphSeconds;
            row.knnSearch = prepared.knnSearch;
            row.graphNonZeros = prepared.context.graph->S.nonZeros();
        }
        const MethodInfo* info = findMethod(method);
        const bool cfFamily = info && info->cfFamily;
        const auto setupStart = Clock::now();
        // The linear kernel is made here rather than inside makeMethodFactory (which takes the
        // context by value), so the CF-family methods of a dataset share one, as in a session.
        if (cfFamily && !prepared.context.gram)
            prepared.context.gram = Gram::linear(X);
        const MethodFactory make = makeMethodFactory(method, X, params, prepared.context);
        row.setupSeconds = caseSecondsSince(setupStart) + row.graphSeconds;
        // A non-linear kernel is always formed (methods/kernels.cpp); NCW's weighted linear one
        // is formed when X's is (the same shapes).
        row.explicitKernel = cfFamily
            && (variant.kernel != KernelKind::Linear || prepared.context.gram->isExplicit());

        Factorization f;
        measureCeilings();
        if (options.warmupIterations > 0)
            timedSolve(make, options.warmupIterations, options.seed, f);
        std::vector<double> seconds;
        for (int r = 0; r < options.repeats; ++r)
            seconds.push_back(timedSolve(make, options.iterations, options.seed, f));
        setTimes(row, seconds);
        row.objective = f.history.empty() ? 0 : f.history.back();

        if (method == "cf-ogl" && f.work.count("steps")) {
            CfOglCostInputs in;
            in.m = X.rows();
            in.n = X.cols();
            in.k = rank;
            // The method's own c and step count (the registry's defaults applied).
            in.c = Eigen::Index(f.work.at("clusters"));
            in.innerSteps = int(f.work.at("inner_steps"));
            in.explicitKernel = row.explicitKernel;
            in.fusedPasses = f.work.count("fused_passes") && f.work.at("fused_passes") > 0;
            row.fusedPasses = in.fusedPasses;
            in.scalarBytes = int(sizeof(Scalar));
            in.qNonZeros = f.work.at("q_nonzeros");
            in.sNonZeros = f.work.at("s_nonzeros_per_step");
            in.eigenFlops = f.work.at("eigen_flops_per_step");
            in.eigenBytes = f.work.at("eigen_bytes_per_step");
            row.graphNonZeros = Eigen::Index(in.qNonZeros);
            setRoofline(row, cfOglCost(in), peaks);
        } else if (hasCostModel(method)) {
            CostInputs in { method, X.rows(), X.cols(), rank, row.explicitKernel, row.graphNonZeros,
                int(sizeof(Scalar)) };
            // The same test the methods make (the bench's data are >= 0: no general form) on
            // the operand the passes read, X or the formed K.
            in.fusedPasses = hasFusedStep(method)
                && (row.explicitKernel ? fusesPasses(X.cols(), X.cols(), rank)
                                       : fusesPasses(X, rank));
            row.fusedPasses = in.fusedPasses;
            if (method == "cnmf" || method == "ccf")
                in.labelledClasses = ConstraintMatrix(params.knownLabels, X.cols()).classes();
            setRoofline(row, iterationCost(in), peaks);
        }
        row.peakMemoryBytes = casePeakMemory();
        scoreRepresentation(f.V, labels, options, row);
    } catch (const std::exception& e) {
        row.error = e.what();
    }
    return row;
}

} // namespace

std::string BenchMethod::label() const
{
    std::string out = name;
    if (kernel == KernelKind::Gaussian)
        out += "+gaussian";
    else if (kernel == KernelKind::Polynomial)
        out += "+polynomial";
    if (ncw)
        out += "+ncw";
    return out;
}

BenchMethod parseBenchMethod(const std::string& entry)
{
    BenchMethod parsed;
    std::size_t at = entry.find('+');
    parsed.name = entry.substr(0, at);
    const MethodInfo* info = findMethod(parsed.name);
    if (!info)
        throw std::invalid_argument("unknown method '" + parsed.name + "'");
    while (at != std::string::npos) {
        const std::size_t next = entry.find('+', at + 1);
        const std::string variant
            = entry.substr(at + 1, next == std::string::npos ? next : next - at - 1);
        at = next;
        if (variant == "ncw") {
            if (parsed.name != "nmf" && parsed.name != "cf" && parsed.name != "lccf")
                throw std::invalid_argument(
                    "'" + entry + "': the NCW weighting applies to nmf, cf and lccf only");
            parsed.ncw = true;
        } else if (variant == "gaussian" || variant == "polynomial") {
            if (!info->cfFamily)
                throw std::invalid_argument("'" + entry + "': " + parsed.name
                    + " factors X itself; kernels apply to the CF family (cf, lccf, lcf, ccf)");
            if (parsed.kernel != KernelKind::Linear)
                throw std::invalid_argument("'" + entry + "': one kernel per entry");
            parsed.kernel = variant == "gaussian" ? KernelKind::Gaussian : KernelKind::Polynomial;
        } else {
            throw std::invalid_argument("'" + entry + "': unknown variant '+" + variant
                + "' (known: +ncw, +gaussian, +polynomial)");
        }
    }
    return parsed;
}

int defaultRank(const std::vector<int>& labels)
{
    const int classes = int(std::set<int>(labels.begin(), labels.end()).size());
    return classes > 0 ? classes : 10;
}

double processPeakMemoryBytes()
{
    rusage usage {};
    getrusage(RUSAGE_SELF, &usage);
    return double(usage.ru_maxrss) * 1024.0; // Linux reports KiB
}

std::vector<BenchRow> benchDataset(const std::string& name, Matrix& X,
    const std::vector<int>& labels, const BenchOptions& options, const MachinePeaks& peaks,
    const BenchHooks& hooks)
{
    if (options.iterations < 1 || options.repeats < 1)
        throw std::invalid_argument("the benchmark needs iterations >= 1 and repeats >= 1");
    std::vector<int> ranks = options.ranks;
    if (ranks.empty())
        ranks.push_back(defaultRank(labels));

    std::vector<BenchRow> rows;
    // Two passes: the NMF family on X as given, then the CF family on unit-norm columns.
    for (const bool cfPass : { false, true }) {
        Prepared prepared;
        bool normalized = false;
        for (const std::string& method : options.methods) {
            // The entry's method without its variants; an unknown one runs (and reports its
            // error) in the first pass.
            const MethodInfo* info = findMethod(method.substr(0, method.find('+')));
            if ((info && info->cfFamily) != cfPass)
                continue;
            if (cfPass && !normalized) {
                for (Eigen::Index j = 0; j < X.cols(); ++j)
                    if (const Scalar norm = X.col(j).norm(); norm > 0)
                        X.col(j) /= norm;
                normalized = true;
            }
            for (const int rank : ranks) {
                if (hooks.progress)
                    hooks.progress(name + " " + method + " rank " + std::to_string(rank));
                rows.push_back(
                    runCase(name, X, labels, method, rank, options, peaks, prepared, hooks));
            }
        }
    }
    return rows;
}

} // namespace facet
