// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/algorithm.h"
#include "core/gram.h"
#include "core/method.h"
#include "graph/graph.h"
#include "graph/knn_graph.h" // KnnSearch

#include <functional>

#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace facet {

// Every parameter of every method, by the names the CLI (--name) and the JSON `params` object
// use. A method reads the fields that concern it.
enum class KernelKind { Linear, Polynomial, Gaussian };
enum class InitKind { Random, Nndsvd, Nmf, KMeans };

struct MethodOptions {
    int rank = 0; // k
    // How the objective is minimized (core/algorithm.h); unset: the method's default
    // (defaultAlgorithm). An algorithm a method has no route for is refused (algorithmRefusal).
    std::optional<Algorithm> algorithm;
    InitKind init = InitKind::Random; // CCF: Nmf when not set explicitly (initSet = false)
    bool initSet = false;
    std::optional<double> lambda; // unset: the method's default (LCCF/GNMF 100, LCF 0.3, OGL 1)
    // kNN graph (METHODS.md 1.3)
    int p = 5;
    GraphWeight weight = GraphWeight::Binary;
    std::optional<double> heatT; // unset: mean pairwise distance over <= 3000 sampled points
    KnnSearch knnSearch = KnnSearch::Auto; // exact below 50,000 samples, HNSW from there on
    // CF_OGL (section 3)
    double beta = 0.1;
    double mu = 1.0;
    int clusters = 0; // c, the number of eigenvectors / components; 0 = rank
    int outerIterations = 30;
    int innerSteps = 10;
    bool paperVariant = false;
    // Kernels and weighting (1.4, 1.7)
    KernelKind kernel = KernelKind::Linear;
    double degree = 2;
    double offset = 0;
    std::optional<double> sigma; // Gaussian width; unset: mean pairwise distance
    bool ncw = false;
    bool generalForm = false; // force the general form even when K >= 0
    // LCF (1.5)
    bool normalizeEach = false;
    // Semi-supervised (section 2): class index of each sample whose label is known, -1 otherwise.
    std::vector<int> knownLabels;
    // Missing entries and weights (methods/mask.h): W, m x n like X, finite and >= 0, weight 0 =
    // missing; the data term becomes sum_ij W_ij (X - U V^T)_ij^2. Null: no mask. Taken by nmf,
    // gnmf, semignmf and cnmf (acceptsMask); makeMethodFactory refuses it for the others with
    // maskRefusal's reason. A mask of all ones is the unmasked run, bit for bit.
    std::shared_ptr<const Matrix> weights;
};

struct MethodInfo {
    std::string name; // CLI / JSON name: "nmf", "cf", ...
    std::string title; // "Concept Factorization (Xu & Gong)"
    std::string objective; // one line, for tooltips and --help
    bool needsNonNegativeData = false;
    bool cfFamily = false; // basis = X W
    bool semiSupervised = false; // reads MethodOptions::knownLabels
    bool baseline = false; // no factorization loop: handled by runAndCluster (kmeans, pca)
};

const std::vector<MethodInfo>& methodCatalog();
const MethodInfo* findMethod(const std::string& name);
// The method's short label for tables and titles: "NMF", "CF-OGL", "SemiGNMF", "k-means"; the
// name in capitals for a name outside the catalog.
std::string methodLabel(const std::string& name);

// The weight lambda a method uses when MethodOptions::lambda is unset (METHODS.md: LCCF, GNMF
// and SemiGNMF 100 (1.3), LCF 0.3 (1.5, the paper's), CF_OGL 1 (3)); none for the methods
// without one.
inline constexpr double kDefaultGraphLambda = 100;
inline constexpr double kDefaultLcfLambda = 0.3;
inline constexpr double kDefaultCfOglLambda = 1;
std::optional<double> defaultLambda(const std::string& method);

// The largest weight (lambda, beta, mu) and polynomial offset |c0| a run takes. A weight
// multiplies objective terms whose size follows the data's (lambda Tr(V^T L V), CF_OGL's graph
// fit and its beta- and mu-scaled terms, the kernel's entries (x_i^T x_j + c0)^d), and their
// products leave the double range (1.8e308) once the weight and the term pass 1e154 together:
// the run stopped as non-finite before its first iteration. Well below that, 1e150 leaves room
// for the factors' own scale.
inline constexpr double kLargestWeight = 1e150;
// The largest polynomial degree: above it the kernel of L2-normalized samples is the identity
// matrix to double precision for every pair at an angle above 45 degrees (0.707^100 = 9e-16),
// and any inner product above 1 overflows from degree 710 on (e^710 > 1.8e308).
inline constexpr double kLargestDegree = 100;
// Why `options` holds a weight or kernel parameter no run can compute with: lambda, beta, mu or
// |offset| above kLargestWeight, a degree above kLargestDegree, each named with the bound.
// Empty when none (the data-derived bound of the polynomial kernel is polynomialKernel's).
std::string parameterBoundProblem(const MethodOptions& options);

// The algorithm a method runs when MethodOptions::algorithm is unset, and whether it has a
// route for `algorithm` at all.
Algorithm defaultAlgorithm(const std::string& method);
// The same for these options: mu for lcf with normalizeEach.
Algorithm defaultAlgorithm(const std::string& method, const MethodOptions& options);
bool supportsAlgorithm(const std::string& method, Algorithm algorithm);
// Why `method` has no route for `algorithm` (the error a refused --algorithm gives).
std::string algorithmRefusal(const std::string& method, Algorithm algorithm);

// Shared, once-per-data-set pieces (the kernel operator, the kNN graph, ...).
struct MethodContext {
    std::shared_ptr<const Gram> gram; // linear kernel; created on demand when null
    std::shared_ptr<const Graph> graph; // kNN graph for the options' p/weight; built on demand
    // The run's cancel: the long set-up (the neighbour searches, a formed kernel) checks it and
    // throws SetupCancelled (core/cancellation.h) once it is set.
    std::stop_token stop {};
    // Called as such a step begins, with its stage name (SolveControl::onStage); may be empty.
    std::function<void(std::string_view stage)> onStage;
    // The neighbour searches' progress within their stage (SolveControl::onStageProgress).
    StageProgress onStageProgress;

    void beginStage(std::string_view stage) const
    {
        if (onStage)
            onStage(stage);
    }
};

// One entry of the method table: what the method is and how to make it. `make` validates the
// options against X and fills the context's shared pieces it needs.
struct MethodEntry {
    MethodInfo info;
    std::function<MethodFactory(MatrixCRef X, const MethodOptions& options, MethodContext& context)>
        make;
};

// The method families add their entries here (one file each, so families stay independent).
void appendBaseMethods(std::vector<MethodEntry>& table); // nmf, cf
void appendGraphMethods(std::vector<MethodEntry>& table); // lccf, gnmf, semignmf
void appendLocalityAndLabelMethods(std::vector<MethodEntry>& table); // lcf, cnmf, ccf
void appendGraphLearningMethods(std::vector<MethodEntry>& table); // cf-ogl
void appendBaselineMethods(std::vector<MethodEntry>& table); // kmeans, pca

// Validates the options against X (m x n, which must outlive every method made) and returns a
// factory for the driver. Throws std::invalid_argument with the broken rule.
MethodFactory makeMethodFactory(const std::string& name, MatrixCRef X, const MethodOptions& options,
    MethodContext context = {});
// The same, reading the shared pieces from `context` and leaving there those the method builds
// (the kNN graph, the linear kernel), for the next run on the same X (experiment/run.h's
// SetupCache).
MethodFactory makeMethodFactoryInto(
    const std::string& name, MatrixCRef X, const MethodOptions& options, MethodContext& context);

} // namespace facet
