// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/gram.h"
#include "methods/registry.h"

#include <cstddef>
#include <memory>
#include <stop_token>
#include <string>
#include <vector>

namespace facet {

// The most memory the solver spends on dense n x n matrices of one run (K of a non-linear kernel,
// K+ and K- of the general form): 4 GiB.
inline constexpr std::size_t kDenseKernelBudget = std::size_t(4) << 30;

// The stage a cancelled kernel names (core/cancellation.h): the functions below check their
// `stop` between the 256 x 256 tiles of X^T X and then throw SetupCancelled. Their `progress`
// hears the fraction done after each group of tiles, X^T X counted as kInnerProductShare of the
// work and the entry transform after it as the rest.
inline constexpr const char* kKernelStage = "the kernel matrix";
// Measured (2 cores, gen: sets of 784 features, gaussian): X^T X 0.29 of 0.34 s at n = 4,000,
// 2.59 of 2.95 s at 12,000, 6.16 of 7.23 s at 20,000; the polynomial kernel's pow is cheaper.
inline constexpr double kInnerProductShare = 0.85;

// Throws std::invalid_argument, naming the byte count, when `count` dense n x n matrices would
// exceed kDenseKernelBudget. `what` says what they are for ("the gaussian kernel").
void requireDenseFits(Eigen::Index n, int count, const std::string& what);

// METHODS.md 1.7: K_ij = (x_i^T x_j + offset)^degree for the columns of X (m x n), n x n.
// degree > 0; a non-integer degree needs x_i^T x_j + offset >= 0 for every pair.
Matrix polynomialKernel(MatrixCRef X, double degree, double offset,
    const std::stop_token& stop = {}, const StageProgress& progress = {});

// METHODS.md 1.7: K_ij = exp(-|x_i - x_j|^2 / (2 sigma^2)), n x n, sigma > 0.
Matrix gaussianKernel(MatrixCRef X, double sigma, const std::stop_token& stop = {},
    const StageProgress& progress = {});

// The kernel operator the options ask for, built once per data set: the linear kernel through
// Gram::linear (never formed when n > m), the polynomial and Gaussian kernels as explicit
// matrices. Gaussian sigma unset: the mean pairwise distance over at most 3000 samples
// (meanPairwiseDistance of the kNN graph, seed 0, so it is deterministic). Appends a line for
// the run log to `notes`. Throws std::invalid_argument for bad parameters or a K beyond the
// memory budget.
std::shared_ptr<const Gram> makeKernel(MatrixCRef X, const MethodOptions& options,
    std::vector<std::string>& notes, const std::stop_token& stop = {},
    const StageProgress& progress = {});

} // namespace facet
