// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "experiment/run.h"

#include <string>
#include <vector>

namespace facet {

// A new sample expressed in a finished factorization (the explorer's out-of-sample projection).
//
// METHODS.md is silent here, so the rule is derived from the objectives. Every method of sections
// 1-3 models a sample as x ~ U v with v >= 0, where U is the m x k basis (NMF: U; CF family:
// X W). With the basis fixed, the terms that couple samples (the graph or locality penalties, the
// label constraints) need the new sample's place among the training samples, which it does not
// have; what is left for one new sample is
//     min_{v >= 0} ||x - U v||^2,
// the same non-negative least squares whose fixed point the V step of NMF reaches for a training
// sample (LCCF's paper projects new samples through the learned basis the same way). It is
// solved exactly (Lawson-Hanson active set on the k x k normal equations; any signs of U, so the
// general form of 1.4 is covered too). The baselines: PCA scores v = U^T (x - mean), k-means the
// indicator of the nearest centroid.
struct ProjectionOptions {
    int maxIterations = 1000; // outer active-set iterations (each frees one coefficient)
    double tolerance = 1e-12; // on the gradient, relative to max |U^T x|
};

struct Projection {
    Vector v; // k coefficients (the new row of V)
    Vector reconstruction; // m values, U v (PCA: mean + U v)
    double relativeError = 0; // ||x - reconstruction|| / ||x||
    int cluster = -1; // the nearest cluster (0-based), as the training samples were clustered
    int iterations = 0;
    std::vector<double> residuals; // ||x - U v||^2 after each active-set iteration (non-increasing)
};

// X: the training data (m x n) the factorization was run on (PCA needs its mean); predicted:
// the training samples' clusters; x: the new sample (m values, prepared like X). The nearest
// cluster is the nearest centroid of the training rows of V in that cluster (rows L2-normalized
// first under cosine k-means; the largest coefficient under argmax clustering). Throws
// std::invalid_argument for a size mismatch, non-finite values, or a method whose basis does not
// live in the data's space (non-linear kernels).
Projection projectSample(const Factorization& f, const RunOptions& options, MatrixCRef X,
    const std::vector<int>& predicted, const Eigen::Ref<const Vector>& x,
    const ProjectionOptions& projection = {});

} // namespace facet
