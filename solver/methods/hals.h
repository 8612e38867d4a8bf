// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/types.h"
#include "graph/graph.h"

namespace facet {

// Accelerated hierarchical alternating least squares (HALS), the `hals` algorithm of the NMF
// family (METHODS.md section 9; docs/algorithms.md has the derivations and sources).
//
// One factor F (rows x k) with the other fixed: the objective's part in F is
//   Tr(F^T F B) - 2 Tr(F^T A) (+ lambda Tr(F^T L F) on the V side of GNMF),
// with A = X V, B = V^T V for F = U, and A = X^T U, B = U^T U for F = V. Column j alone is an
// independent quadratic in f_j with curvature 2 B_jj, minimized over f_j >= 0 in closed form
// (Cichocki & Phan 2009):
//   f_j <- max(floor, f_j + (A_j - F B_j) / B_jj).
// One sweep updates j = 0..k-1 in order, each with the newest other columns; each column update is
// an exact block minimization, so the objective never increases. A and B cost O(rows n k) and a
// sweep O(rows k^2), so after the products a sweep is repeated (Gillis & Glineur 2012, A-HALS)
// while it still moves F: at most `maxSweeps` times, stopping once a sweep changes F by less
// than `delta` times what the first sweep did (squared Frobenius norms, delta^2 compared).
//
// The floor is kPositiveFloor, not 0: a multiplicative rule that continues from these factors (a
// warm start with --algorithm mu) could never revive an exact zero.

// The number of sweeps A-HALS allows after products costing `productFlops`, when one sweep costs
// `sweepFlops`: floor(1 + alpha rho), rho = productFlops / sweepFlops, at least 1, at most 100.
int halsSweepBudget(double productFlops, double sweepFlops, double alpha = 0.5);

// Rows are independent in a sweep without a graph term: F is cut into fixed blocks of rows
// (kHalsRowBlock, whatever the thread count, so a seed reproduces its factors), each block runs its
// own sweeps on the calling thread's OpenMP team and stops by the rule above on its own rows.
inline constexpr Eigen::Index kHalsRowBlock = 64;

// What a factor's sweeps did: the most sweeps any block ran, and how far the first sweep found F
// from a solution of its subproblem: sum_ij |Delta f_ij| c_ij, each entry's step in that sweep
// times its curvature. Inside the feasible set that is |g_ij|, the gradient (halved) as the
// entry's update began; at the bound it is the projected gradient's part the constraint allows
// (scikit-learn's `cd` sums |projected gradient|, which counts an entry resting a rounding
// error above 0 in full). Zero exactly at a stationary point; the driver's stationarity rule
// compares it with the first iteration's.
struct HalsSweepStats {
    int sweeps = 0;
    double violation = 0;
};

// Sweeps on F with A and B as above. `firstRow`: F's rows are rows firstRow.. of a larger factor
// (a rank's part of a distributed V): the blocks are cut where that factor's are, so each stops
// after the sweeps it would take in one process.
HalsSweepStats halsSweeps(Matrix& F, const Matrix& A, const Matrix& B, int maxSweeps, double delta,
    Eigen::Index firstRow = 0);

// The V side of GNMF and SemiGNMF: the graph term lambda Tr(V^T L V), L = D - S, couples rows, so
// it is majorized at the V a column update starts from by lambda Tr(V^T M V) with the diagonal
// M = D + diag(S 1) (M - L = diag(S 1) + S is positive semidefinite: a signless Laplacian; with
// D = diag(S 1) it is the 2D of METHODS.md section 9). Each entry's subproblem then has curvature
// 2 (B_jj + lambda M_ii), and
//   v_ij <- max(floor, v_ij - g_ij / (B_jj + lambda M_ii)),
//   g = V B - A + lambda (D V - S V)   (half the gradient, at the V the column update starts from),
// which minimizes the majorizer: the objective does not increase. Column j of S V is that of the
// V the sweep starts from, since columns before j do not enter it; it is computed once per sweep.
// The rows of a column are updated together, in the blocks of halsSweeps; the sweeps stop by the
// change over the whole factor. `majorizer` is M (n). (Exact coordinate minimization entry by
// entry, Gauss-Seidel in row order, takes larger steps but runs on one thread: it was slower to a
// given objective on Yale and ORL; docs/algorithms.md.)
HalsSweepStats halsGraphSweeps(Matrix& V, const Matrix& A, const Matrix& B, const Graph& graph,
    const Vector& majorizer, Scalar lambda, int maxSweeps, double delta);

// M = D + diag(S 1) for halsGraphSweeps.
Vector halsGraphMajorizer(const Graph& graph);

} // namespace facet
