// SPDX-License-Identifier: GPL-3.0-or-later
#include "bench/flops.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace facet {
namespace {

// Bytes of one stored entry of the sparse graph: the value and its 64-bit row index.
constexpr double kSparseIndexBytes = 8;

// Every count below follows one iteration of the code: Method::step(), Method::objective() and
// the driver's copy of the factors (state()). Products are 2 flops per multiply-add; an
// element-wise multiplicative update M <- max(M o P / max(N, eps), floor) is 3 flops and 4
// passes (read M, P, N, write M). The traffic model counts each dense operand once per product
// that reads or writes it, X or K once per pass (Eigen's GEMM packs the big operand once when k
// fits one panel), and S as nnz values with their indices. It assumes every pass comes from
// memory: a set that fits in the last-level cache can beat the bytes term.
struct Terms {
    double flops = 0;
    double nk = 0; // dense n x k passes
    double mk = 0; // dense m x k passes
};

// NMF (methods/nmf.cpp), one step + objective:
//   U rule:  X V 2mnk, V^T V 2nk^2, U (V^T V) 2mk^2, update 3mk
//   cache:   X^T U 2mnk, U^T U 2mk^2
//   V rule:  V (U^T U) 2nk^2, update 3nk
//   O:       V^T V 2nk^2, sum(V o X^T U) 2nk, sum(U^T U o V^T V) 2k^2
//   flops = 4mnk + 6nk^2 + 4mk^2 + 5nk + 3mk + 2k^2;  X is read twice: 2mn
Terms nmfTerms(double m, double n, double k)
{
    Terms t;
    t.flops = 4 * m * n * k + 6 * n * k * k + 4 * m * k * k + 5 * n * k + 3 * m * k + 2 * k * k;
    // n x k: X V reads V (1), V^T V (2), X^T U writes (1), V U^T U (2), update (4), O (4),
    // state copy (2); m x k: X V writes (1), U V^T V (2), update (4), X^T U reads (1), U^T U
    // (2), state copy (2).
    t.nk = 16;
    t.mk = 12;
    return t;
}

// CF (methods/cf.cpp), K as an operator (core/gram.h):
//   W rule:  K V, V^T V 2nk^2, (K W) V^T V 2nk^2, update 3nk
//   cache:   K W, W^T (K W) 2nk^2
//   V rule:  V (W^T K W) 2nk^2, update 3nk
//   O:       V^T V 2nk^2, sum(V o K W) 2nk, 2k^2
// with each K M = X^T (X M) = 4mnk when K is implicit, 2n^2 k when K is formed:
//   flops = 8mnk (or 4n^2 k) + 10nk^2 + 8nk + 2k^2;  X read 4 times (or K twice)
Terms cfTerms(double m, double n, double k, bool explicitKernel)
{
    Terms t;
    const double kernelProducts = explicitKernel ? 4 * n * n * k : 8 * m * n * k;
    t.flops = kernelProducts + 10 * n * k * k + 8 * n * k + 2 * k * k;
    // n x k: two K M products (read M, write K M: 4), V^T V (2), K W V^T V (2), W update (4),
    // W^T K W (2), V W^T K W (2), V update (4), O (4), state copy (4); m x k: the X M
    // intermediates written and read again (4), implicit only.
    t.nk = 28;
    t.mk = explicitKernel ? 0 : 4;
    return t;
}

// The graph term lambda Tr(V^T L V) (methods/lccf.cpp, gnmf.cpp; graph/graph_terms.cpp). V rule:
// D V (nk), S V (2 nnz k), two scalings by lambda (2nk), the sums into P and N (2nk); 16 n x k
// passes. O: V^T copied (2 passes), then per stored s_ij the k-vector |v_i - v_j|^2 (3k) and per
// sample |v_i|^2 (2k). Total 5 nnz k + 7nk. The objective's gather also yields the next rule's
// S V and D V (GraphTermCache), so S is read once per iteration and V^T copied once: 16 n x k
// passes.
void addGraphTerm(Terms& t, double n, double k, double nnz, double scalarBytes, double& sparseBytes)
{
    t.flops += 5 * nnz * k + 7 * n * k;
    t.nk += 16;
    sparseBytes += nnz * (scalarBytes + kSparseIndexBytes);
}

} // namespace

const std::vector<std::string>& modelledMethods()
{
    static const std::vector<std::string> names { "nmf", "gnmf", "semignmf", "cnmf", "cf", "lccf",
        "lcf", "ccf", "kmeans" };
    return names;
}

bool hasCostModel(const std::string& method)
{
    const auto& names = modelledMethods();
    return std::find(names.begin(), names.end(), method) != names.end();
}

bool hasFusedStep(const std::string& method)
{
    return hasCostModel(method) && method != "kmeans";
}

// One Lloyd round of the k-means baseline (cluster/kmeans.cpp: assignAndSum, meansFromSums;
// k = clusters), always in double, one pass over X:
//   assignment: |c|^2 2mk, x^T c block by block 2mnk, the scores |c|^2 - 2 x^T c and their
//               comparison 2nk
//   means:      a fresh round adds each point into its chunk's sum while in cache mn; another
//               round subtracts each moved point from one sum and adds it to another 2m per
//               update; the 8 chunks' sums added 7mk, the division mk
//   flops = 2mnk + f mn + 2m u + 2nk + 10mk, with f the share of fresh rounds and u the
//   updates per round;  X read once (mn doubles), the labels (4 bytes) read and written,
//   12 + 8f m x k passes (C read, 8 partial sums read, C written, divided; zeroed when fresh).
IterationCost kmeansCost(double m, double n, double k, double fresh, double updates)
{
    IterationCost cost;
    cost.flops = 2 * m * n * k + fresh * m * n + 2 * m * updates + 2 * n * k + 10 * m * k;
    cost.bytes = m * n * 8 + 2 * n * 4 + (12 + 8 * fresh) * m * k * 8;
    return cost;
}

// One PCA solve (methods/baselines.cpp: pcaBaseline), p = min(m, n), q = max(m, n):
//   Gram:     the lower triangle of the p x p Gram matrix, p(p+1)/2 dot products of length q:
//             p(p+1)q (the diagonal tiles by a triangular rank update, the others by GEMM);
//             with the mean's sums mn; the p x p accumulator read and written once per slab of
//             256 along q (kGramTileSlab; mostly from the last-level cache, counted at the
//             triad's bandwidth all the same)
//   centring: 4p^2 (m <= n: C - n mu mu^T; m > n: G 1, and G - X^T mu 1^T - 1 mu^T X + mu^T mu)
//   eigen:    Lanczos: per product with the p x p matrix 2p^2, reading its lower triangle
//             p(p+1)/2 (in double; core/symmetric_product.h, as Eigen's selfadjoint product did),
//             and its orthogonalization against the subspace 4p ncv; per restart V Q 2p ncv^2.
//             Until 24 November each product was counted as reading the whole p x p matrix,
//             which doubled this term and, on COIL-20, made the byte time the limit. The full
//             decomposition instead: 9p^3 (Golub & Van Loan 8.3, eigenvectors accumulated)
//   scores:   m <= n: X^T U 2mnk and 1 (mu^T U) nk; m > n: X [E 1/n] 2mn(k+1), G E 2p^2 k
//   X is read twice (the Gram matrix, then the scores or U).
IterationCost pcaCost(const PcaCostInputs& in)
{
    if (in.m < 1 || in.n < 1 || in.k < 1 || in.k > std::min(in.m, in.n) || in.scalarBytes < 1)
        throw std::invalid_argument("the PCA cost model needs 1 <= k <= min(m, n)");
    const double m = double(in.m), n = double(in.n), k = double(in.k);
    const double p = std::min(m, n), q = std::max(m, n), s = double(in.scalarBytes);
    const double slabs = std::ceil(q / 256);
    IterationCost cost;
    cost.flops = p * (p + 1) * q + m * n + 4 * p * p;
    cost.bytes = 2 * m * n * s + 2 * slabs * p * p * s + 6 * p * p * s + p * p * 8;
    if (in.lanczos) {
        const double ncv = double(in.subspace), products = double(in.products);
        cost.flops
            += products * (2 * p * p + 4 * p * ncv) + double(in.restarts) * 2 * p * ncv * ncv;
        cost.bytes += products * p * (p + 1) / 2 * 8;
    } else {
        cost.flops += 9 * p * p * p;
        cost.bytes += 4 * p * p * 8;
    }
    cost.flops += in.m <= in.n ? 2 * m * n * k + n * k : 2 * m * n * (k + 1) + 2 * p * p * k;
    return cost;
}

// One outer iteration of CF_OGL (methods/cf_ogl.cpp), T inner steps, KM the cost of one K M:
//   inner step (lccfStep; fused below): K V and K W 2 KM, V^T V, K W (V^T V), W^T K W and
//     V (W^T K W) 8nk^2, the two multiplicative updates 6nk, the graph parts (graph_terms:
//     S V 2 nnz(S) k, D V, scalings and sums 5nk): 2 KM + 8nk^2 + 2 nnz(S) k + 11nk;
//     X read twice per K M (implicit K) or K once, 32 n x k passes, S once, the X M
//     intermediates 4 m x k passes (implicit only)
//   after them: |v_i - v_j|^2 per stored entry of Q 3 nnz(Q) k, Q's new values 5 nnz(Q), the
//     simplex projections 4 nnz(Q) (sorting is not counted), S = (Q + Q^T)/2 and S 1 3 nnz(S),
//     L = D - S nnz(S) + n, the eigensolve (counted by graph/spectral.h), |f_i - f_j|^2
//     3 nnz(Q) c
//   objective: 7 nnz(Q), V^T V 2nk^2, sum(V o K W) 2nk, 2k^2; the driver's copy of W, V
IterationCost cfOglCost(const CfOglCostInputs& in)
{
    if (in.m < 1 || in.n < 1 || in.k < 1 || in.c < 1 || in.innerSteps < 1 || in.qNonZeros < 0
        || in.sNonZeros < 0 || in.eigenFlops < 0 || in.eigenBytes < 0)
        throw std::invalid_argument("the CF_OGL cost model needs m, n, k, c, steps >= 1");
    const double m = double(in.m), n = double(in.n), k = double(in.k), c = double(in.c);
    const double s = double(in.scalarBytes), T = double(in.innerSteps);
    const double q = in.qNonZeros, sym = in.sNonZeros;
    const double km = in.explicitKernel ? 2 * n * n * k : 4 * m * n * k;
    const double sparse = s + kSparseIndexBytes;
    IterationCost cost;
    cost.flops = T * (2 * km + 8 * n * k * k + 2 * sym * k + 11 * n * k) + 3 * q * k + 9 * q
        + 4 * sym + n + in.eigenFlops + 3 * q * c + 7 * q + 2 * n * k * k + 2 * n * k + 2 * k * k;
    // Fused inner steps (methods/cf_fused.h) read X twice instead of four times, or K once
    // instead of twice, and with X take W^T K W as (X W)^T (X W): 2mk^2 for 2nk^2.
    if (in.fusedPasses && !in.explicitKernel)
        cost.flops += T * (2 * m * k * k - 2 * n * k * k);
    const double bigPasses
        = in.explicitKernel ? (in.fusedPasses ? 1 : 2) * n * n : (in.fusedPasses ? 2 : 4) * m * n;
    cost.bytes = T
            * (bigPasses * s + 32 * n * k * s + sym * sparse
                + (in.explicitKernel ? 0 : 4 * m * k * s))
        + (2 * q * k + 2 * q * c) * s + 12 * q * sparse + 4 * sym * sparse + in.eigenBytes
        + 10 * n * k * s;
    return cost;
}

IterationCost iterationCost(const CostInputs& in)
{
    if (!hasCostModel(in.method))
        throw std::invalid_argument("no cost model for method '" + in.method + "'");
    if (in.m < 1 || in.n < 1 || in.k < 1 || in.scalarBytes < 1 || in.graphNonZeros < 0
        || in.labelledClasses < 0 || in.labelledClasses > in.n)
        throw std::invalid_argument("the cost model needs m, n, k >= 1 and 0 <= c <= n");
    const double m = double(in.m), n = double(in.n), k = double(in.k);
    const double s = double(in.scalarBytes);
    const double nnz = double(in.graphNonZeros);
    const bool nmfFamily = in.method == "nmf" || in.method == "gnmf" || in.method == "semignmf"
        || in.method == "cnmf";

    if (in.method == "kmeans") {
        if (in.fusedPasses || in.explicitKernel || in.labelledClasses > 0)
            throw std::invalid_argument("k-means has no fused step, kernel or labels");
        if (!(in.kmeansFreshShare >= 0 && in.kmeansFreshShare <= 1)
            || !(in.kmeansUpdatesPerRound >= 0 && in.kmeansUpdatesPerRound <= n))
            throw std::invalid_argument(
                "k-means' share of fresh rounds must be in [0, 1] and its updates in [0, n]");
        return kmeansCost(m, n, k, in.kmeansFreshShare, in.kmeansUpdatesPerRound);
    }
    if (in.fusedPasses && (!hasFusedStep(in.method) || (nmfFamily && in.explicitKernel)))
        throw std::invalid_argument("method '" + in.method + "' has no fused step here");

    Terms t;
    double bigBytes = 0; // X or K passes
    double sparseBytes = 0;
    if (nmfFamily) {
        t = nmfTerms(m, n, k);
        bigBytes = (in.fusedPasses ? 1 : 2) * m * n * s;
    } else {
        t = cfTerms(m, n, k, in.explicitKernel);
        const double passes
            = in.explicitKernel ? (in.fusedPasses ? 1 : 2) : (in.fusedPasses ? 2 : 4);
        bigBytes = passes * (in.explicitKernel ? n * n : m * n) * s;
        if (in.fusedPasses && !in.explicitKernel)
            t.flops += 2 * m * k * k - 2 * n * k * k; // W^T K W = (X W)^T (X W)
    }
    if (in.method == "gnmf" || in.method == "semignmf" || in.method == "lccf")
        addGraphTerm(t, n, k, nnz, s, sparseBytes);
    if (in.method == "cnmf" || in.method == "ccf") {
        if (in.fusedPasses) {
            // Cnmf::step, Ccf::step: the pass updates every row as if unlabelled and leaves
            // the labelled rows out of X V; ConstraintMatrix::finishFusedRule copies V's
            // unlabelled rows into Z and Z's class rows into V (2 n x k passes; the class rows'
            // rule is O(lk + ck^2)), and X V gains (class sums of X) Z_C: 2mck, the m x c sums
            // read once. (With a formed K there is no X V.)
            const double c = in.explicitKernel ? 0 : double(in.labelledClasses);
            t.flops += 2 * m * c * k;
            t.nk += 2;
            bigBytes += m * c * s;
        } else {
            // Z has c + n - l <= n rows: A^T applied to the two parts of the V rule (2nk adds)
            // and V = A Z gathered again (methods/cnmf.cpp, ccf.cpp): 4 more n x k passes.
            t.flops += 2 * n * k;
            t.nk += 4;
        }
    }
    if (in.method == "lcf") {
        // methods/lcf.cpp: diag(V^T 1) and (1 + lambda) K V (2nk), lambda K W and
        // lambda/2 (a 1^T + 1 b^T) (4nk), the two sums into the V rule (2nk), the locality
        // term of O (5nk); 15 more n x k passes.
        t.flops += 13 * n * k;
        t.nk += 15;
    }
    IterationCost cost;
    cost.flops = t.flops;
    cost.bytes = bigBytes + sparseBytes + (t.nk * n * k + t.mk * m * k) * s;
    return cost;
}

} // namespace facet
