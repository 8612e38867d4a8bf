// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/types.h"
#include "graph/graph.h"

namespace facet {

// Up to this size the eigenproblem is solved densely (METHODS.md section 3: "dense is fine for
// n <= 2000"); above it, sparse shift-invert Lanczos (Spectra).
// METHODS.md 3 allows the dense solver up to n = 2000; measured here, one dense solve at
// n = 2000 costs ~5 s against ~0.15 s for the sparse path (tested equal). At 500 it still lost:
// a CF_OGL iteration on ORL (n = 400, c = 40) took 13.2 ms with the dense solve and 5.0 ms with
// the sparse one (2 cores), so the dense solver is kept for tiny graphs only.
inline constexpr Eigen::Index kDenseEigenLimit = 100;

// From this many nodes on, the sparse path first tries a Chebyshev-filtered subspace iteration on
// L itself (no factorization; spectral.cpp gives the measurements), and falls back to the
// shift-invert Lanczos when that has not converged. Below it, shift-invert alone.
inline constexpr Eigen::Index kChebyshevMinNodes = 2000;

// Eigenvalues below this count as 0 (METHODS.md 3, beta self-tuning).
inline constexpr Scalar kZeroEigenvalue
    = std::is_same_v<Scalar, float> ? Scalar(1e-5) : Scalar(1e-10);

// The spectral embedding of a graph: F = the c eigenvectors of L with the smallest eigenvalues,
// which minimizes Tr(F^T L F) over F^T F = I (Ky Fan). Shapes: F n x c.
struct SpectralEmbedding {
    Matrix F; // n x c, orthonormal columns, ordered by eigenvalue
    Vector eigenvalues; // the min(c + 1, n) smallest eigenvalues of L, ascending
    bool converged = true; // false: the sparse solver did not converge (F, eigenvalues are NaN)
    // The work the solve did, for the bench's cost model (bench/flops.h: cfOglCost), counted as
    // smallestEigenpairs describes below.
    double flops = 0;
    double bytes = 0;
    // The sparse path's eigenvectors past the null space (n x (min(c + 1, n) - r), r the number of
    // connected components; empty on the dense path and when no solve ran), to start the next
    // solve on a nearby graph from, and the operator products the solve took (block products
    // with L on the filtered path, plus the shift-invert products if it fell back).
    Matrix solved;
    Eigen::Index products = 0;
    // Which solver gave the result: none needed (the components alone), the dense one, the
    // filtered subspace iteration, or the shift-invert Lanczos (also after the filtered one
    // fell back).
    enum class Path { Components, Dense, Filtered, ShiftInvert } path = Path::Components;
};

// L = D - S is the Laplacian of a symmetric affinity S >= 0 (n x n, both triangles stored);
// 1 <= c <= n. Deterministic (no random start).
//   n <= denseLimit: Eigen's SelfAdjointEigenSolver on the dense L.
//   otherwise: the null space of L is known exactly, spanned by the indicator vectors of the
//     connected components of S (r of them, eigenvalue 0), so they are taken directly; a
//     single-vector Lanczos could not resolve that repeated eigenvalue reliably. The remaining
//     min(c + 1, n) - r eigenpairs are the largest of the deflated shift-invert operator
//     P (L + s I)^{-1} P, P the projector onto the complement of the indicators, whose
//     eigenvalues are 1 / (lambda + s) (Spectra's SymEigsShiftSolver, sigma = -s,
//     s = 1e-8 max diag(L): small against every eigenvalue worth separating, large enough for
//     a stable LDL^T of L + s I). When r >= c + 1 no solve is needed at all. With r >= 2, L is
//     block diagonal: the components go into up to 4 groups of about equal size, each group's
//     block is factorized and solved apart, the groups in parallel (CF_OGL at n = 20,000, 10
//     components: 632-645 -> 368 ms per outer iteration). The groups do not depend on the
//     thread count, so neither does the result.
//   n >= chebyshevFrom (default kChebyshevMinNodes): before the shift-invert solve, the same
//     min(c + 1, n) - r pairs by a Chebyshev-filtered subspace iteration on P L P (degree-20
//     filters up to a Lanczos estimate of lambda_max, Rayleigh-Ritz after each, residuals
//     ||L y - theta y|| <= 1e-9 (float 2e-5) times Gershgorin's bound on lambda_max); the
//     shift-invert solve only when that has not converged after 40 filters. Sparse products with
//     blocks of rows in parallel, no factorization.
// warmStart (optional, sparse path): the `solved` eigenvectors of an earlier solve on a nearby
//   graph of the same size, e.g. CF_OGL's previous outer iteration. The filtered iteration takes
//   them as the first columns of its start block (the rest fixed pseudo-random). Lanczos starts
//   from their sum (projected) plus the fixed start at a weight of 1e-6 (float 1e-3), instead of
//   the fixed start alone: the wanted eigenvectors dominate the start, and on a 20,000-sample
//   CF_OGL graph the solve converged in its first Lanczos cycle (22 products instead of 44; COIL-20
//   54 instead of 65). The small fixed part keeps every direction in the Krylov space: an
//   eigenvector the warm start lacks is still found when its eigenvalue is separated from the
//   others, and one whose eigenvalue is close to a found one changes Tr(F^T L F) by at most that
//   gap. The result is deterministic for the same inputs, and equal to a cold solve's within the
//   solver's tolerance (up to the signs and, for repeated eigenvalues, the basis of F).
// A sparse solve that does not converge is a numerical outcome, not an error: F and the
// eigenvalues are then NaN, so the caller's objective turns non-finite (StopReason::NonFinite).
// Work counted (a multiply-add is 2 flops; s = sizeof(Scalar)):
//   dense: the symmetric QR algorithm with eigenvectors, 9n^3 (Golub & Van Loan 8.3), and four
//     passes over the n x n matrix.
//   sparse: each LDL^T factorization sum_j (c_j^2 + 3 c_j) with c_j the entries below the
//     diagonal in column j of the factor, reading L and writing the factor once; each product
//     of the operator a forward and a back substitution 4 nnz(factor) + n, the two projections
//     4n and Spectra's orthogonalization of the new vector against the ncv kept, 4n ncv,
//     reading the factor twice (values and 8-byte indices) and (6 + 2 ncv) n-vectors.
//   filtered (block of b columns): each product with L 2 nnz(L) b + 5 n b, reading L's values and
//     8-byte indices and three n x b blocks; each Rayleigh-Ritz step 14 n b^2 + 5 n b and 16
//     passes over an n x b block; the 16 Lanczos steps that bound lambda_max(L) for the filter
//     2 nnz(L) + 10 n each, reading L and six n-vectors (not in `products`).
SpectralEmbedding smallestEigenpairs(const SparseMatrix& L, int c,
    Eigen::Index denseLimit = kDenseEigenLimit, const Matrix* warmStart = nullptr,
    Eigen::Index chebyshevFrom = kChebyshevMinNodes);

// The top of the interval that the filtered iteration damps: an upper bound of lambda_max(L)
// for a symmetric L, from 16 Lanczos steps with a fixed start, lambda_max(T) + |beta| (Zhou &
// Li 2011), never above Gershgorin's bound max_i sum_j |L_ij|. Zhou & Li's bound holds in
// practice, not in theory; should a Ritz value of the iteration ever pass it, the iteration goes
// on with Gershgorin's bound. Deterministic; 16 sparse products.
Scalar spectrumUpperBound(const SparseMatrix& L);

} // namespace facet
