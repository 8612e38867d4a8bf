// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/types.h"

namespace facet {

// The two products every iteration of NMF and of the implicit CF kernel spends its time in,
// X M and X^T M with X m x n large and M of few columns (methods/nmf.cpp, core/gram.cpp). Eigen's
// general GEMM packs X into panels before multiplying; with k = 10 each packed value then feeds
// only 10 multiply-adds, so packing costs as much as the arithmetic, and its threads synchronize
// per panel: both products ran at a fifth to a third of the 2-core GEMM peak (issue 7,
// bench/RESULTS.md). These kernels read X once, in place, in the order it is stored, with one
// OpenMP parallel region over Eigen::nbThreads() threads. Measured on 2 cores at k = 10:
// 89-117 GFLOP/s for X M against Eigen's 35-38 (20,000 x 784, 4,000 x 1024, 70,000 x 784), 77-99
// against 20-30 for X^T M. From k ~ 32 on Eigen's blocked GEMM is as fast, so larger k, like tiny
// sizes, goes to Eigen. The result is the same for the same thread count (fixed split and
// summation order), so a seed still reproduces its factors.
inline constexpr Eigen::Index kSkinnyMaxRank = 24;

// out = X M: X m x n, M n x k, out m x k.
void multiplySkinny(MatrixCRef X, const Matrix& M, Matrix& out);

// out = X^T M: X m x n, M m x k, out n x k.
void multiplyTransposedSkinny(MatrixCRef X, const Matrix& M, Matrix& out);

} // namespace facet
