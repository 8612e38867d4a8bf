// SPDX-License-Identifier: GPL-3.0-or-later
#include "methods/kernels.h"

#include "core/cancellation.h"
#include "core/huge_pages.h"
#include "graph/knn_graph.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <iomanip>
#include <sstream>
#include <stdexcept>
#include <utility>
#include <vector>

namespace facet {
namespace {

// G = X^T X (n x n), exactly symmetric: the tiles (I, J), J <= I, of 256 samples, each a GEMM
// on one thread with the team sharing the tiles, each mirrored into (J, I) by the thread that
// formed it, so K inherits the symmetry the CF derivations assume. (Eigen's symmetric rank
// update, used until 24 November, ran on one thread after zeroing all of G: at n = 20,000 it
// and the mirroring were about half of a kernel method's 24 s set-up; issue 7.)
// The tiles go to the team in groups of kTileGroup, a parallel region each, so the progress is
// reported between regions (core/cancellation.h); a group's last tile leaves at most one tile of
// one thread idle, under 2 % of a group on 2 threads.
constexpr std::size_t kTileGroup = 64;

Matrix innerProducts(
    MatrixCRef X, const std::stop_token& stop, const StageProgress& progress, double share)
{
    const Eigen::Index n = X.cols();
    constexpr Eigen::Index kTile = 256;
    const Eigen::Index blocks = (n + kTile - 1) / kTile;
    std::vector<std::pair<Eigen::Index, Eigen::Index>> tiles;
    for (Eigen::Index I = 0; I < blocks; ++I)
        for (Eigen::Index J = 0; J <= I; ++J)
            tiles.emplace_back(I, J);
    Matrix G(n, n);
    adviseHugePages(G); // read once or twice per iteration, like X
    for (std::size_t first = 0; first < tiles.size(); first += kTileGroup) {
        const std::size_t last = std::min(tiles.size(), first + kTileGroup);
#pragma omp parallel for schedule(dynamic, 1)
        for (std::size_t t = first; t < last; ++t) {
            if (stop.stop_requested())
                continue; // abandoned below, after the region
            const auto [I, J] = tiles[t];
            const Eigen::Index i0 = I * kTile, rows = std::min(kTile, n - i0);
            const Eigen::Index j0 = J * kTile, cols = std::min(kTile, n - j0);
            auto tile = G.block(i0, j0, rows, cols);
            tile.noalias() = X.middleCols(i0, rows).transpose() * X.middleCols(j0, cols);
            if (I == J)
                tile.triangularView<Eigen::StrictlyUpper>() = tile.transpose();
            else
                G.block(j0, i0, cols, rows) = tile.transpose();
        }
        throwIfStopped(stop, kKernelStage);
        reportProgress(progress, share * double(last) / double(tiles.size()));
    }
    return G;
}

// K(i, j) = f(K(i, j)) for every entry, the columns shared over the team.
template <class F> void transformEntries(Matrix& K, F f)
{
#pragma omp parallel for schedule(static)
    for (Eigen::Index j = 0; j < K.cols(); ++j)
        for (Eigen::Index i = 0; i < K.rows(); ++i)
            K(i, j) = f(i, j, K(i, j));
}

std::string number(double value)
{
    std::ostringstream out;
    out << std::setprecision(6) << value;
    return out.str();
}

} // namespace

void requireDenseFits(Eigen::Index n, int count, const std::string& what)
{
    const double bytes = double(count) * double(n) * double(n) * double(sizeof(Scalar));
    if (bytes > double(kDenseKernelBudget))
        throw std::invalid_argument(what + " needs " + std::to_string(count) + " dense "
            + std::to_string(n) + " x " + std::to_string(n) + " matrices, "
            + std::to_string(std::uint64_t(bytes)) + " bytes ("
            + std::to_string(std::uint64_t(bytes) >> 20) + " MiB), over the budget of "
            + std::to_string(kDenseKernelBudget)
            + " bytes; use fewer samples or the linear kernel");
}

Matrix polynomialKernel(MatrixCRef X, double degree, double offset, const std::stop_token& stop,
    const StageProgress& progress)
{
    if (!(degree > 0) || !std::isfinite(degree))
        throw std::invalid_argument(
            "the polynomial kernel needs a finite degree > 0, got " + number(degree));
    if (!std::isfinite(offset))
        throw std::invalid_argument(
            "the polynomial kernel needs a finite offset, got " + number(offset));
    // |x_i^T x_j + c0|^d is at most (max_i |x_i|^2 + |c0|)^d (Cauchy-Schwarz): refused, before
    // the n x n products, where that passes kLargestWeight, for kLargestWeight's reason.
    const double norm2 = X.size() == 0 ? 0.0 : double(X.colwise().squaredNorm().maxCoeff());
    const double base = norm2 + std::abs(offset);
    const double limit = std::log10(kLargestWeight);
    if (base > 1 && degree * std::log10(base) > limit) {
        const double offsetBound = std::pow(10.0, limit / degree) - norm2;
        throw std::invalid_argument("the polynomial kernel (x_i^T x_j + offset)^degree reaches 1e"
            + number(std::floor(degree * std::log10(base)))
            + " on these data (largest |x_i|^2 = " + number(norm2) + ", offset " + number(offset)
            + ", degree " + number(degree) + "), beyond " + number(kLargestWeight)
            + ", where its products leave the double range: lower the degree to at most "
            + number(std::floor(limit / std::log10(base) * 100) / 100)
            + (offsetBound > 0 ? " or |offset| to at most " + number(offsetBound) : std::string())
            + ", or scale the data down");
    }
    requireDenseFits(X.cols(), 1, "the polynomial kernel");
    Matrix K = innerProducts(X, stop, progress, kInnerProductShare);
    K.array() += Scalar(offset);
    const bool integerDegree = degree == std::round(degree);
    if (!integerDegree && K.minCoeff() < 0)
        throw std::invalid_argument("the polynomial kernel with the non-integer degree "
            + number(degree)
            + " needs x_i^T x_j + offset >= 0 for every pair; use an "
              "integer degree or a larger offset");
    // std::pow entry by entry, not Eigen's packet pow: GCC 12 warned -Wuninitialized inside the
    // latter's AVX-512 intrinsics (a false positive), and glibc's pow is faster here (4000 x 4000,
    // one core: degree 2 0.02 s against 0.42-0.49, degree 2.5 0.24 against 0.41).
    if (degree != 1) {
        const Scalar power = Scalar(degree);
        transformEntries(K,
            [power](Eigen::Index, Eigen::Index, Scalar v) { return Scalar(std::pow(v, power)); });
    }
    reportProgress(progress, 1);
    return K;
}

Matrix gaussianKernel(
    MatrixCRef X, double sigma, const std::stop_token& stop, const StageProgress& progress)
{
    if (!(sigma > 0) || !std::isfinite(sigma))
        throw std::invalid_argument(
            "the gaussian kernel needs a finite sigma > 0, got " + number(sigma));
    requireDenseFits(X.cols(), 1, "the gaussian kernel");
    // |x_i - x_j|^2 = |x_i|^2 + |x_j|^2 - 2 x_i^T x_j, cut at 0 against cancellation.
    Matrix K = innerProducts(X, stop, progress, kInnerProductShare);
    const Vector norm2 = K.diagonal();
    const double scale = -1.0 / (2.0 * sigma * sigma);
    // The same expression for (i, j) and (j, i) (the sum of the norms commutes): K stays exactly
    // symmetric.
    transformEntries(K, [&norm2, scale](Eigen::Index i, Eigen::Index j, Scalar product) {
        const double d2 = std::max(0.0, double(norm2(i) + norm2(j) - 2 * product));
        return Scalar(std::exp(scale * d2));
    });
    K.diagonal().setOnes();
    reportProgress(progress, 1);
    return K;
}

std::shared_ptr<const Gram> makeKernel(MatrixCRef X, const MethodOptions& options,
    std::vector<std::string>& notes, const std::stop_token& stop, const StageProgress& progress)
{
    switch (options.kernel) {
    case KernelKind::Linear:
        return Gram::linear(X);
    case KernelKind::Polynomial:
        notes.push_back("kernel: polynomial (x_i^T x_j + " + number(options.offset) + ")^"
            + number(options.degree) + "; the basis images X W are a pre-image approximation");
        return Gram::fromMatrix(
            polynomialKernel(X, options.degree, options.offset, stop, progress));
    case KernelKind::Gaussian: {
        double sigma = 0;
        if (options.sigma) {
            sigma = *options.sigma;
        } else {
            sigma = meanPairwiseDistance(X, 0);
            if (!(sigma > 0))
                throw std::invalid_argument("the gaussian kernel's default sigma (the mean "
                                            "pairwise distance) is 0: the samples coincide; "
                                            "give sigma explicitly");
        }
        notes.push_back("kernel: gaussian, sigma = " + number(sigma)
            + (options.sigma ? "" : " (mean pairwise distance)")
            + "; the basis images X W are a pre-image approximation");
        return Gram::fromMatrix(gaussianKernel(X, sigma, stop, progress));
    }
    }
    throw std::invalid_argument("unknown kernel");
}

} // namespace facet
