// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/types.h"

namespace facet {

// The two products every iteration of NMF and of the implicit CF kernel spends its time in,
// X M and X^T M with X m x n large and M of few columns (methods/nmf.cpp, core/gram.cpp). Eigen's
// general GEMM packs X into panels before multiplying; with k = 10 each packed value then feeds
// only 10 multiply-adds, so packing costs as much as the arithmetic, and its threads synchronize
// per panel: both products ran at a fifth to a half of the 2-core GEMM peak (issue 7,
// bench/RESULTS.md). These kernels read X once, in place, in the order it is stored, with one
// OpenMP parallel region over Eigen::nbThreads() threads. Measured on 2 idle cores (Eigen's
// 1536^3 GEMM: ~170-180 GFLOP/s): X M at 110-216 GFLOP/s against Eigen's 35-125, X^T M at
// 117-212 against 20-118 (ORL k = 40, Yale k = 15, COIL-20 k = 20, 20,000 x 784 and 70,000 x
// 1024 k = 10; the tile shapes and their measurements are in skinny_product.cpp). Larger k,
// like tiny sizes, goes to Eigen. The result is the same for the same thread count (fixed
// split and summation order), so a seed still reproduces its factors.
inline constexpr Eigen::Index kSkinnyMaxRank = 64;

// out = X M: X m x n, M n x k, out m x k.
void multiplySkinny(MatrixCRef X, const Matrix& M, Matrix& out);

// out = X^T M: X m x n, M m x k, out n x k.
void multiplyTransposedSkinny(MatrixCRef X, const Matrix& M, Matrix& out);

// The same as values, for the small products of the update rules (U^T U, U (V^T V), ...), where
// Eigen's per-product thread start-up cost as much as the arithmetic on ORL-sized sets.
inline Matrix skinnyProduct(MatrixCRef X, const Matrix& M)
{
    Matrix out;
    multiplySkinny(X, M, out);
    return out;
}
inline Matrix skinnyTransposedProduct(MatrixCRef X, const Matrix& M)
{
    Matrix out;
    multiplyTransposedSkinny(X, M, out);
    return out;
}

} // namespace facet
