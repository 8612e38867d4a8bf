// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <Eigen/Core>

#include <string>
#include <vector>

namespace facet {

// What one driver iteration (step + objective + the driver's copy of the factors) of a method
// costs, counted from the code as written (methods/*.cpp), for the roofline of the benchmark.
// Shapes: X m x n, rank k, graph S with nnz stored entries.
struct CostInputs {
    std::string method;
    Eigen::Index m = 0;
    Eigen::Index n = 0;
    Eigen::Index k = 0;
    bool explicitKernel = false; // CF family: K (n x n) is formed (Gram::isExplicit, n <= m)
    Eigen::Index graphNonZeros = 0; // nnz(S), graph-regularized methods
    int scalarBytes = 8; // sizeof(Scalar)
    // The method ran its fused step (Nmf::fusedStep, Cf::fusedStep: X or a formed K past the
    // caches): X is read once per iteration instead of twice (NMF family), twice instead of four
    // times (CF), and CF forms W^T K W from X W (2mk^2) instead of W and K W (2nk^2); a formed K
    // is read once instead of twice.
    bool fusedPasses = false;
    // c, cnmf and ccf: the classes with a labelled sample, whose part of X V their fused step
    // adds as (class sums of X) Z_C
    Eigen::Index labelledClasses = 0;
    // kmeans, per Lloyd round on average (KMeansResult): the share of rounds that summed every
    // point afresh, and the points whose move updated the sums in the others.
    double kmeansFreshShare = 1;
    double kmeansUpdatesPerRound = 0;
};

// Whether `method` has a fused step at all (nmf, gnmf, semignmf, cnmf, cf, lccf, lcf, ccf): all the
// modelled methods. Whether it runs is
// decided by its data (core/skinny_product.h: fusesPasses).
bool hasFusedStep(const std::string& method);

struct IterationCost {
    double flops = 0; // floating-point operations, a multiply-add counted as 2
    double bytes = 0; // memory traffic model (see flops.cpp): the large operands once per pass
};

// The methods with a cost model: nmf, gnmf, semignmf, cnmf, cf, lccf, lcf, ccf, and one Lloyd
// round of kmeans (k = the number of clusters; it runs in double whatever scalarBytes says).
const std::vector<std::string>& modelledMethods();
bool hasCostModel(const std::string& method);

// Throws std::invalid_argument for a method without a model or non-positive sizes.
IterationCost iterationCost(const CostInputs& inputs);

// PCA is one solve, not an iteration: its cost depends on how the eigenpairs were found
// (methods/baselines.h: PcaStats), so the bench passes what the solve reported.
struct PcaCostInputs {
    Eigen::Index m = 0;
    Eigen::Index n = 0;
    Eigen::Index k = 0;
    int scalarBytes = 8;
    bool lanczos = false;
    Eigen::Index subspace = 0;
    Eigen::Index products = 0;
    Eigen::Index restarts = 0;
};
IterationCost pcaCost(const PcaCostInputs& inputs);

// One outer iteration of CF_OGL (methods/cf_ogl.cpp: CfOgl::step + objective + the driver's
// copy), which holds data-dependent work: the learned graph's sizes and the eigensolve of its
// Laplacian, as the method counted them (Factorization::work).
struct CfOglCostInputs {
    Eigen::Index m = 0;
    Eigen::Index n = 0;
    Eigen::Index k = 0; // rank
    Eigen::Index c = 0; // clusters: the embedding's columns
    int innerSteps = 10;
    bool explicitKernel = false;
    bool fusedPasses = false; // the inner steps' fused passes (methods/cf_fused.h)
    int scalarBytes = 8;
    double qNonZeros = 0; // Q's stored entries (G's pattern)
    double sNonZeros = 0; // (Q + Q^T)/2's stored entries, per step
    double eigenFlops = 0; // per step (graph/spectral.h)
    double eigenBytes = 0;
};
IterationCost cfOglCost(const CfOglCostInputs& inputs);

} // namespace facet
