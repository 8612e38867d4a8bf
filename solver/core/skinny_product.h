// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/types.h"

#include <functional>
#include <vector>

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

// out = X M: X m x n, M n x k, out m x k. out is written before X is read through: it must not
// share X's or M's storage (neither must multiplyTransposedSkinny's).
void multiplySkinny(MatrixCRef X, const Matrix& M, Matrix& out);

// out = X^T M: X m x n, M m x k, out n x k.
void multiplyTransposedSkinny(MatrixCRef X, const Matrix& M, Matrix& out);

// Threads for row-local work of this many multiply-adds, where each row's result does not depend
// on the others' and nothing is added up across threads (the V rule of a formed kernel's fused
// step): all of Eigen's threads from the bound at which X^T M splits, else one.
int threadsForRows(double multiplyAdds);

// Whether the methods take their fused route (transposedUpdateProduct, methods/cf_fused.h) for X
// (m x n) and rank k: wherever the skinny kernels run (not for tiny products or ranks past the
// kernels' limit, which go to Eigen); always false while fused passes are disabled. Until
// 24 November it took X >= 16 MiB, past the caches, where each pass comes from memory; on the
// Intel host of bench/RESULTS.md section 15 the fused route also took 0.7-0.9 of the plain
// route's time on cache-resident sets (ORL, Yale, COIL-20, subsets of 50-200 samples; double and
// float): one parallel region instead of several, and X's second pass from L2 instead of L3.
bool fusesPasses(MatrixCRef X, Eigen::Index k);
// The same decision from the shape alone (the benchmark's cost model, for a K it does not hold).
bool fusesPasses(Eigen::Index rows, Eigen::Index cols, Eigen::Index k);
// On by default. Off: the methods take their plain two-pass route at any size (tests compare the
// routes; a process-wide switch, meant to be set before solving).
void setFusedPassesEnabled(bool enabled);

// Two passes over X in one, for the rules whose coefficient side is updated row by row between a
// product with X^T and a product with X (NMF: V <- V o (X^T U) / (V U^T U), then X V for the
// next U rule). Column block by column block of X, on the calling thread's OpenMP team: Q's rows
// = X_b^T U, then updateRows(first, count) rewrites V's rows first..first+count from Q's (called
// concurrently for disjoint ranges: it must touch only those rows), then P += X_b V_b with the
// new rows while X's block is still in L2. At the end Q = X^T U and P = X V (the new V), having
// read X from memory once instead of twice. U m x k, V n x k.
void transposedUpdateProduct(MatrixCRef X, const Matrix& U, Matrix& Q, Matrix& V,
    const std::function<void(Eigen::Index first, Eigen::Index count)>& updateRows, Matrix& P);

// Q(0..count, 0..k) = X(:, 0..count)^T M on the calling thread, in the register tiles of
// multiplyTransposedSkinny, for float or double whatever the build's Scalar (k-means runs in
// double in both builds). Column-major with leading dimensions: X m x count, M m x k, Q count x
// k. Each entry is summed in one fixed order, so the result does not depend on the threads.
// `prefetch`: each tile's first group also fetches the next tile's columns (past the last one:
// the columns that follow the block in memory; a prefetch never faults), for an X past the
// caches (pastTheCaches). k-means, 20,000 x 784 / 70,000 x 1024, k = 10, with its sums added
// per label (cluster/kmeans.cpp): 3.5 -> 3.2 / 15.6 -> 15.3 ms per round. (Before that change
// the same prefetch measured 7 % slower.)
template <class T>
void dotProductBlock(const T* X, Eigen::Index ldx, Eigen::Index m, const T* M, Eigen::Index ldm,
    Eigen::Index k, Eigen::Index count, T* Q, Eigen::Index ldq, bool prefetch = false);

// Whether an operand of this many bytes streams from memory (16 MiB and up): the size from which
// the kernels prefetch and the NMF/CF steps fuse their passes.
bool pastTheCaches(double bytes);

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
