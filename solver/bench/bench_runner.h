// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "bench/roofline.h"
#include "graph/knn_graph.h"
#include "methods/registry.h"

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace facet {

// A --methods entry: a method name, optionally with variants (METHODS.md 1.7): "+ncw", the
// normalized-cut weighting (nmf, cf, lccf), and "+gaussian" or "+polynomial", a formed kernel K
// with the method's default parameters (the CF family), e.g. "cf+gaussian", "lccf+ncw". The row's
// method is the entry as written in this canonical order (name, kernel, ncw).
struct BenchMethod {
    std::string name;
    KernelKind kernel = KernelKind::Linear;
    bool ncw = false;
    std::string label() const;
};
// Throws std::invalid_argument for an unknown method or variant, or one the method does not take.
BenchMethod parseBenchMethod(const std::string& entry);

// What `facet-cli bench` runs on each dataset.
struct BenchOptions {
    std::vector<std::string> methods { "nmf", "gnmf", "cnmf", "cf", "lccf", "lcf", "ccf", "kmeans",
        "pca" };
    std::vector<int> ranks; // empty: the dataset's number of classes
    int iterations = 50; // timed iterations per repeat (tol = 0: every run does exactly these)
    int repeats = 3;
    int warmupIterations = 3; // one untimed run first: page faults, thread pool, caches
    KnnSearch knn = KnnSearch::Auto;
    std::uint64_t seed = 0;
    bool score = true; // AC / NMI of k-means on V after the last repeat
    int kmeansReplicates = 10;
    double labeledFraction = 0.1; // cnmf, ccf, semignmf: labels given to the method
    // The start of every method (METHODS.md section 0); unset: each method's own default
    // (random; nmf for CCF).
    std::optional<InitKind> init;
    // Measure the GEMM and triad ceilings again right before each case's timed runs
    // (measureCaseCeilings) and judge the case against them; false: every case against the
    // ceilings the caller measured once. `facet-cli bench --ceilings case` (its default).
    bool ceilingsPerCase = false;
};

// One method x dataset x rank.
struct BenchRow {
    std::string dataset;
    std::string method;
    std::string precision; // "double" or "float": the Scalar of the solver that ran
    int rank = 0;
    Eigen::Index m = 0;
    Eigen::Index n = 0;
    int iterations = 0;
    int repeats = 0;
    double msPerIteration = 0; // median over the repeats of each repeat's steady-state mean
    double msMin = 0;
    double msMax = 0;
    double setupSeconds = 0; // validation, kernel operator, kNN graph (shared: first use)
    double graphSeconds = 0; // the kNN graph build alone (0 when the method has none)
    std::string knnSearch; // "exact" / "approximate" for graph methods
    bool explicitKernel = false;
    bool fusedPasses = false; // the method ran its fused step (bench/flops.h)
    Eigen::Index graphNonZeros = 0;
    bool modelled = false; // flops, bytes and the roofline below are set
    double flopsPerIteration = 0;
    double bytesPerIteration = 0;
    double gflops = 0; // achieved: flopsPerIteration / time
    double limitMs = 0; // roofline limit of one iteration
    double limitFraction = 0; // limitMs / msPerIteration (1 = at the hardware limit)
    double gemmGflops = 0; // the ceilings limitMs was computed from (the run's or the case's)
    double triadGBs = 0;
    double peakMemoryBytes = 0; // resident high-water mark of this case (see BenchHooks)
    std::optional<double> ac;
    std::optional<double> nmi;
    double objective = 0; // after the last timed iteration
    std::string error; // set when the case could not run (the method's message)
};

// How the host process observes itself; the solver does no file I/O, so the executables supply
// the /proc readers. Without them the peak is getrusage's, which never decreases.
struct BenchHooks {
    std::function<void()> resetPeakMemory;
    std::function<double()> peakMemoryBytes;
    std::function<void(const std::string&)> progress; // one line per case
};

// The default rank of a dataset: its number of classes, else 10.
int defaultRank(const std::vector<int>& labels);

// Process high-water mark from getrusage (bytes).
double processPeakMemoryBytes();

// Runs every method x rank of `options` on X (m x n) and returns one row each. `peaks` are the
// run's ceilings; with options.ceilingsPerCase each case measures its own beside it. NMF-family
// methods run on X as given; then the columns of X are scaled to unit L2 norm IN PLACE and the
// CF family runs (the `auto` preparation of `facet-cli run`), so a large set is held once.
// A case that throws (bad rank, a kernel that does not fit) gives a row with `error` set.
std::vector<BenchRow> benchDataset(const std::string& name, Matrix& X,
    const std::vector<int>& labels, const BenchOptions& options, const MachinePeaks& peaks,
    const BenchHooks& hooks = {});

} // namespace facet
