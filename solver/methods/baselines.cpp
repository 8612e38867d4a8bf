// SPDX-License-Identifier: GPL-3.0-or-later
#include "methods/baselines.h"

#include "core/cancellation.h"
#include "core/skinny_product.h"
#include "core/symmetric_product.h"
#include "core/update.h"
#include "methods/registry.h"

#include <Eigen/Eigenvalues>
#include <Spectra/SymEigsSolver.h>

#include <array>
#include <chrono>
#include <functional>
#include <stdexcept>
#include <utility>
#include <vector>

namespace facet {

Factorization kmeansBaseline(MatrixCRef X, const KMeansOptions& options)
{
    requireUsableData(X);
    const auto start = std::chrono::steady_clock::now();
    const KMeansResult km = kmeans(X, options);
    Factorization f;
    f.method = "kmeans";
    f.basis = km.centroids;
    f.V = Matrix::Zero(X.cols(), options.clusters);
    for (std::size_t i = 0; i < km.labels.size(); ++i)
        f.V(Eigen::Index(i), km.labels[i]) = 1;
    f.history = { km.objective };
    f.returnedObjective = km.objective; // nothing rescales the centroids or the assignments
    f.iterations = km.iterations;
    f.stopReason = km.cancelled ? StopReason::Cancelled
        : km.converged          ? StopReason::Converged
                                : StopReason::MaxIterations; // options.maxIter rounds
    f.solveSeconds
        = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    return f;
}

namespace {

// The Gram matrix is made slab by slab along its depth, so each slab of the data is read from
// memory once and then served from the cache to the tile products below, at any depth. Slabs of
// 256: two tiles' rows of a slab (2 x 512 KiB in double) then sit in L2. On the Intel Xeon of
// bench/RESULTS.md section 24 (2 MiB of L2 per core), medians of three interleaved runs in one
// process: 1024 x 70,000 504 ms against 575 with slabs of 512 and 668 with the depth parts this
// replaced (four contiguous depth ranges, each summed by one thread's rank update), 784 x 20,000
// 92 against 101 and 106, 1024 x 1,440 (COIL-20) 11 against 12 and 19, 784 x 4,000 19 against
// 20 and 25; in float 1024 x 70,000 263 against 292 and 311. (Slabs of 128, 384 and 1024 and
// tiles of 192 and 512 were no better. On the Zen hosts of sections 8 and 14 the depth parts and
// the tiles with slabs of 512 had been within each other's noise at 1024 x 70,000.)
constexpr Eigen::Index kGramTileSlab = 256;
// Lower triangle in square tiles of 256: the tiles below the diagonal are one GEMM each, the
// diagonal ones a triangular rank update (only the lower triangle's micro-tiles), each on one
// thread, the tiles spread over the threads. A tile's value does not depend on which thread
// computes it, so the result has the same bits on any number of threads. Measured (2 cores,
// median of 9, interleaved) against the earlier block rows of 256 (each one of Eigen's parallel
// GEMMs, the diagonal blocks computed whole): 1024 x 1,440 (COIL-20) 14.1 -> 11.4 ms,
// 784 x 4,000 (MNIST-4000) 25.7 -> 18.4 ms, 784 x 20,000 133 -> 103 ms.
constexpr Eigen::Index kGramTile = 256;
// The tile for a Gram matrix of order p: kGramTile, or for p <= kGramTile half the order rounded
// up to whole 8-entry packets, so that its three tiles (two diagonal halves and the square below
// them) keep two threads busy; as one tile it ran on one thread at any depth (a set of 256
// features, say). It depends on p alone, so the bits do not depend on the threads.
Eigen::Index gramTile(Eigen::Index p)
{
    return p > kGramTile ? kGramTile : ((p + 1) / 2 + 7) / 8 * 8;
}
// Lanczos (Spectra) for the k leading eigenpairs from this order on, when the subspace it keeps
// is at most half the order; else the full dense decomposition. Measured (2 cores): Yale (p =
// 165, k = 15) 0.7 ms against 3.0 ms dense; 1024 x 1024 with k = 10, 4 ms against 300 ms.
constexpr Eigen::Index kLanczosFrom = 64;

// Lower triangle of A A^T (A p x q; the upper triangle is not the Gram's), and the row sums of
// A added into `rowSums` while each slab is in cache. `stop` is checked between slabs
// (SetupCancelled), and the fraction of the slabs done is reported between them.
template <typename Derived>
Matrix lowerGram(const Eigen::MatrixBase<Derived>& A, Vector* rowSums, const std::stop_token& stop,
    const StageProgress& progress)
{
    const Eigen::Index p = A.rows();
    const Eigen::Index q = A.cols();
    const Eigen::Index tile = gramTile(p);
    Matrix C = Matrix::Zero(p, p);
    if (rowSums)
        *rowSums = Vector::Zero(p);
    std::vector<std::pair<Eigen::Index, Eigen::Index>> tiles; // (row, column) tile, I >= J
    for (Eigen::Index I = 0; I * tile < p; ++I)
        for (Eigen::Index J = 0; J <= I; ++J)
            tiles.emplace_back(I, J);
    const auto count = std::ptrdiff_t(tiles.size());
    for (Eigen::Index s = 0; s < q; s += kGramTileSlab) {
        throwIfStopped(stop, kPcaStage);
        const Eigen::Index w = std::min(kGramTileSlab, q - s);
        // A parallel region even for a single tile: outside one, Eigen's product would run on
        // its own threads, with blocking sizes that depend on their number, and the bits would
        // change with it.
#pragma omp parallel for schedule(dynamic, 1)
        for (std::ptrdiff_t t = 0; t < count; ++t) {
            const Eigen::Index i = tiles[std::size_t(t)].first * tile;
            const Eigen::Index j = tiles[std::size_t(t)].second * tile;
            const Eigen::Index r = std::min(tile, p - i);
            if (i == j) {
                C.block(i, i, r, r)
                    .template selfadjointView<Eigen::Lower>()
                    .rankUpdate(A.block(i, s, r, w));
            } else {
                C.block(i, j, r, tile).noalias()
                    += A.block(i, s, r, w) * A.block(j, s, tile, w).transpose();
            }
        }
        if (rowSums)
            *rowSums += A.middleCols(s, w).rowwise().sum();
        reportProgress(progress, double(s + w) / double(q));
    }
    return C;
}

// SymmetricLowerProduct that checks the stop token before each product, so Cancel ends
// Lanczos within one product (SetupCancelled leaves Spectra's loop like any exception), and
// reports its products to `onProduct` (their count so far).
class CancellableProduct {
public:
    using Scalar = double;
    CancellableProduct(const SymmetricLowerProduct& product, const std::stop_token& stop,
        const std::function<void(Eigen::Index)>& onProduct)
        : m_product(product)
        , m_stop(stop)
        , m_onProduct(onProduct)
    {
    }
    Eigen::Index rows() const { return m_product.rows(); }
    Eigen::Index cols() const { return m_product.cols(); }
    void perform_op(const double* x_in, double* y_out) const
    {
        throwIfStopped(m_stop, kPcaStage);
        m_product.perform_op(x_in, y_out);
        if (m_onProduct)
            m_onProduct(++m_products);
    }

private:
    const SymmetricLowerProduct& m_product;
    std::stop_token m_stop;
    const std::function<void(Eigen::Index)>& m_onProduct;
    mutable Eigen::Index m_products = 0;
};

// How pcaBaseline reports its progress (StageProgress): the Gram matrix's slabs count as this
// share of the work, Lanczos' products as the rest. On the Intel host of bench/RESULTS.md
// section 20 COIL-20's solve took about 11 ms for the Gram matrix and 7 for Lanczos, and on the
// large sets (deep Gram matrices of order 784-1024) nearly all of it was the Gram matrix.
constexpr double kPcaGramShare = 0.8;
// Lanczos' products are counted against twice its subspace (COIL-20's rank 20: 53 products for
// a subspace of 41), and the bar stays below 0.98 until the solve returns.
constexpr double kPcaProductsExpected = 2.0;

// The `rank` leading eigenvectors of the symmetric C (lower triangle read), largest first.
Eigen::MatrixXd leadingEigenvectors(const Eigen::MatrixXd& C, int rank, PcaStats& stats,
    const std::stop_token& stop, const StageProgress& progress)
{
    const Eigen::Index p = C.rows();
    stats.order = p;
    const Eigen::Index subspace
        = std::min<Eigen::Index>(p, std::max<Eigen::Index>(2 * rank + 1, rank + 20));
    if (p >= kLanczosFrom && 2 * subspace <= p) {
        // The products on both threads from order 256 on (core/symmetric_product.h).
        const SymmetricLowerProduct product(C);
        const std::function<void(Eigen::Index)> onProduct = [&](Eigen::Index products) {
            const double expected = kPcaProductsExpected * double(subspace);
            reportProgress(progress,
                kPcaGramShare + (1 - kPcaGramShare) * std::min(0.9, double(products) / expected));
        };
        CancellableProduct op(product, stop, onProduct);
        Spectra::SymEigsSolver<CancellableProduct> eigs(op, rank, subspace);
        eigs.init(); // Spectra's fixed start: the result is reproducible
        eigs.compute(Spectra::SortRule::LargestAlge, 1000, 1e-10);
        if (eigs.info() == Spectra::CompInfo::Successful) {
            stats.lanczos = true;
            stats.subspace = subspace;
            stats.products = eigs.num_operations();
            stats.restarts = eigs.num_iterations();
            return eigs.eigenvectors(); // largest first
        }
    }
    Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd> eig(C); // reads the lower triangle
    if (eig.info() != Eigen::Success)
        throw std::runtime_error("PCA: the eigendecomposition of the " + std::to_string(p) + " x "
            + std::to_string(p) + " covariance did not converge");
    return eig.eigenvectors().rightCols(rank).rowwise().reverse();
}

// PCA's covariance X X^T - n mu mu^T (or the centred Gram matrix) keeps a spread about the mean
// of at least this share of ||X||^2 to about eight digits; below it the rounding of the two
// large terms is of the spread's own size.
constexpr double kResolvedSpread = 1e-8;

// Refuses data PCA cannot find a direction in, from the Gram matrix's traces before and after
// centring (||X||^2 and the spread about the mean): all zeros or values whose squares underflow
// (Spectra then failed on the zero matrix: "TridiagEigen: eigen decomposition failed"), and
// constant data (which came out "converged", a negative variance left out and k identical
// components). Reads X again only when the traces say the data may be one of these.
void requireSpread(MatrixCRef X, double uncentred, double centred)
{
    const double smallest = smallestDataScale();
    if (!(uncentred >= smallest * smallest))
        requireUsableData(X); // all zeros, or too small: says which
    if (centred > kResolvedSpread * uncentred)
        return;
    bool constant = true;
    for (Eigen::Index j = 1; j < X.cols() && constant; ++j)
        constant = X.col(j) == X.col(0);
    if (constant)
        throw std::invalid_argument("the data is constant: every sample equals the mean, so PCA "
                                    "has no direction to find");
    const Vector mean = X.rowwise().mean();
    const double spread = double((X.colwise() - mean).squaredNorm());
    if (spread > kResolvedSpread * uncentred)
        return;
    throw std::invalid_argument("the data is nearly constant: its spread about the mean is "
        + scientific(spread / uncentred)
        + " of its sum of squares, which PCA's covariance loses to rounding; subtract the mean "
          "from the data (or scale the differences up) first");
}

} // namespace

Factorization pcaBaseline(MatrixCRef X, int rank, PcaStats* statsOut, const std::stop_token& stop,
    const StageProgress& progress)
{
    const Eigen::Index m = X.rows();
    const Eigen::Index n = X.cols();
    if (rank < 1 || rank > std::min(m, n))
        throw std::invalid_argument("PCA rank must be in [1, min(m, n)] = [1, "
            + std::to_string(std::min(m, n)) + "], got " + std::to_string(rank));
    // NaN or Inf in X makes the Gram matrix's sums non-finite, so X is checked for them (and the
    // message placed) only then, instead of in a pass of its own (29 ms at 1024 x 70,000).
    const auto requireFiniteGram = [&](const Matrix& gram) {
        if (gram.allFinite())
            return;
        requireFinite(X);
        throw std::invalid_argument("the data's values are too large: their covariance "
                                    "overflows; scale the data down");
    };
    const auto start = std::chrono::steady_clock::now();
    PcaStats stats;
    Vector mean;
    Matrix U(m, rank);
    double centredNorm2 = 0; // ||Xc||_F^2 = trace of the centred Gram matrix
    Matrix V(n, rank);
    const StageProgress gramProgress
        = [&](double fraction) { reportProgress(progress, kPcaGramShare * fraction); };
    if (m <= n) {
        // C = Xc Xc^T = X X^T - n mu mu^T (m x m), without forming Xc; the mean comes from the
        // same pass over X. The scores Xc^T U = X^T U - 1 (mu^T U) are the second pass.
        Matrix C = lowerGram(X, &mean, stop, gramProgress);
        requireFiniteGram(C);
        const double uncentred = double(C.diagonal().sum());
        mean /= Scalar(n);
        C.noalias() -= Scalar(n) * mean * mean.transpose();
        centredNorm2 = double(C.diagonal().sum());
        requireSpread(X, uncentred, centredNorm2);
        U = leadingEigenvectors(C.cast<double>(), rank, stats, stop, progress).cast<Scalar>();
        // The skinny kernel reads X once in place; Eigen's GEMM packed all of X^T first (135 ms
        // against about 25 at 1024 x 70,000, k = 10).
        multiplyTransposedSkinny(X, U, V);
        V.rowwise() -= mean.transpose() * U;
    } else {
        // G = Xc^T Xc (n x n, n < m) from X^T X: with 1 the ones, X^T mu = (X^T X) 1 / n and
        // mu^T mu = 1^T X^T X 1 / n^2, so the centring reads X no more. For an eigenvector e_j
        // of G, u_j = Xc e_j / |Xc e_j| with |Xc e_j|^2 = e_j^T G e_j, and the scores are
        // Xc^T u_j = G e_j / |Xc e_j|: one more pass over X, for [Xc E, mu] together.
        Matrix G = lowerGram(X.transpose(), nullptr, stop, gramProgress);
        requireFiniteGram(G);
        const double uncentred = double(G.diagonal().sum());
        G = Matrix(G.selfadjointView<Eigen::Lower>());
        const Vector Xtmu = G.rowwise().sum() / Scalar(n);
        const Scalar mumu = Xtmu.sum() / Scalar(n);
        G.colwise() -= Xtmu;
        G.rowwise() -= Xtmu.transpose();
        G.array() += mumu;
        centredNorm2 = double(G.diagonal().sum());
        requireSpread(X, uncentred, centredNorm2);
        const Matrix E
            = leadingEigenvectors(G.cast<double>(), rank, stats, stop, progress).cast<Scalar>();
        Matrix B(n, rank + 1);
        B << E, Vector::Constant(n, Scalar(1) / Scalar(n));
        const Matrix XB = X * B;
        mean = XB.col(rank);
        U = XB.leftCols(rank) - mean * E.colwise().sum();
        V.noalias() = G * E;
        for (Eigen::Index j = 0; j < rank; ++j) {
            const Scalar norm = U.col(j).norm();
            if (norm > 0) {
                U.col(j) /= norm;
                V.col(j) /= norm;
            }
        }
    }
    for (Eigen::Index j = 0; j < rank; ++j) {
        Eigen::Index at = 0;
        U.col(j).cwiseAbs().maxCoeff(&at);
        if (U(at, j) < 0) {
            U.col(j) = -U.col(j);
            V.col(j) = -V.col(j);
        }
    }
    Factorization f;
    f.method = "pca";
    f.basis = U;
    f.V = std::move(V);
    f.iterations = 1;
    // The variance left out: ||Xc||^2 - ||Xc^T U||^2.
    f.history = { centredNorm2 - double(f.V.squaredNorm()) };
    f.returnedObjective = f.history.back();
    f.stopReason = StopReason::Converged;
    reportProgress(progress, 1);
    f.log.push_back(stats.lanczos
            ? "PCA: the " + std::to_string(rank) + " leading eigenpairs of the "
                + std::to_string(stats.order) + " x " + std::to_string(stats.order)
                + " covariance by Lanczos (Spectra, subspace " + std::to_string(stats.subspace)
                + ", " + std::to_string(stats.products) + " products)"
            : "PCA: full eigendecomposition of the " + std::to_string(stats.order) + " x "
                + std::to_string(stats.order) + " covariance");
    f.solveSeconds
        = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    if (statsOut)
        *statsOut = stats;
    return f;
}

void appendBaselineMethods(std::vector<MethodEntry>& table)
{
    const auto noLoop = [](MatrixCRef, const MethodOptions&, MethodContext&) -> MethodFactory {
        throw std::invalid_argument("kmeans and pca are baselines without a factorization loop; "
                                    "run them through runAndCluster");
    };
    table.push_back({ { "kmeans", "k-means on the raw samples (baseline)",
                          "min sum_i ||x_i - c_(label i)||^2 (k-means++ seeding, replicates)",
                          false, false, false, true },
        noLoop });
    table.push_back({ { "pca", "PCA, then k-means on the scores (baseline)",
                          "max variance: k leading principal components, then k-means", false,
                          false, false, true },
        noLoop });
}

} // namespace facet
