// SPDX-License-Identifier: GPL-3.0-or-later
#include "cluster/kmeans.h"

#include "core/random.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <string>

namespace facet {
namespace {

// k-means runs in double in both builds of the solver (METHODS.md section 4 does not say; this is
// the choice): scores ||c||^2 - 2 x^T c cancel, and the k-means++ draws compare cumulative
// squared distances with uniform numbers, so in float rounding flips assignments and seeding
// choices and lands in another local optimum. Measured on LCCF's V for ORL (rows nearly constant,
// clusters in deviations of 1e-3): the float and double runs' V agree to 8e-4 of their spread,
// yet float k-means scored them 10 points of AC apart. The points are converted once (d x N).
using KMatrix = Eigen::MatrixXd;
using KVector = Eigen::VectorXd;
using KRef = Eigen::Ref<const KMatrix>;

struct DoubleResult {
    std::vector<int> labels;
    KMatrix centroids;
    double objective = 0;
    int iterations = 0;
};

// The points as doubles: the single-precision build converts them, the double build reads them
// in place (no copy of a large X for the k-means baseline).
[[maybe_unused]] KMatrix asDouble(const Eigen::Ref<const Eigen::MatrixXf>& points)
{
    return points.cast<double>();
}

[[maybe_unused]] const Eigen::Ref<const Eigen::MatrixXd>& asDouble(
    const Eigen::Ref<const Eigen::MatrixXd>& points)
{
    return points;
}

// Points are scored against the centroids kPointBlock at a time, so the k x block score matrix
// stays in cache even for N = 70000.
constexpr Eigen::Index kPointBlock = 4096;
// Eigen's GEMM picks its depth blocking from the cache size and the thread count; summing fixed
// slices no deeper than any block it picks (>= 120 on x86) in a fixed order makes the scores,
// and so the labels, independent of the number of OpenMP threads.
constexpr Eigen::Index kDepthSlice = 64;

// Checked in the build's own precision, before any conversion.
void validate(const MatrixCRef& points, const KMeansOptions& options)
{
    if (options.clusters < 1)
        throw std::invalid_argument(
            "k-means needs clusters >= 1; got " + std::to_string(options.clusters));
    if (options.clusters > points.cols())
        throw std::invalid_argument("k-means: clusters = " + std::to_string(options.clusters)
            + " exceeds the number of points N = " + std::to_string(points.cols()));
    if (options.replicates < 1)
        throw std::invalid_argument(
            "k-means needs replicates >= 1; got " + std::to_string(options.replicates));
    if (options.maxIter < 1)
        throw std::invalid_argument(
            "k-means needs maxIter >= 1; got " + std::to_string(options.maxIter));
    for (Eigen::Index i = 0; i < points.cols(); ++i) {
        for (Eigen::Index r = 0; r < points.rows(); ++r) {
            if (!std::isfinite(points(r, i)))
                throw std::invalid_argument("k-means needs finite points; point "
                    + std::to_string(i) + " has " + std::to_string(points(r, i)) + " in row "
                    + std::to_string(r));
        }
    }
}

// Cosine k-means is Euclidean k-means on x / ||x||_2; a zero point has no direction and stays
// at the origin.
KMatrix normalizedColumns(const KRef& points)
{
    KMatrix normalized = points;
    for (Eigen::Index i = 0; i < normalized.cols(); ++i) {
        const double norm = normalized.col(i).norm();
        if (norm > 0)
            normalized.col(i) /= norm;
    }
    return normalized;
}

double squaredDistance(const KRef& X, Eigen::Index i, const KMatrix& C, Eigen::Index j)
{
    return double((X.col(i) - C.col(j)).squaredNorm());
}

// k-means++ seeding (Arthur & Vassilvitskii 2007): the first centre is a uniform point, each
// next one is point x drawn with probability D(x)^2 / sum_y D(y)^2, D = distance to the nearest
// centre chosen so far.
KMatrix seedPlusPlus(const KRef& X, int clusters, Rng& rng)
{
    const Eigen::Index N = X.cols();
    KMatrix C(X.rows(), clusters); // d x clusters
    Eigen::Index chosen = Eigen::Index(rng.below(std::uint64_t(N)));
    C.col(0) = X.col(chosen);
    std::vector<double> nearest(static_cast<std::size_t>(N));
    for (Eigen::Index i = 0; i < N; ++i)
        nearest[std::size_t(i)] = squaredDistance(X, i, C, 0);

    for (int c = 1; c < clusters; ++c) {
        double total = 0;
        for (const double d2 : nearest)
            total += d2;
        if (total > 0) {
            // Inverse-CDF draw; points with D = 0 never advance the running sum, so they are
            // never picked, and rounding at the top end falls back to the last positive one.
            const double target = rng.uniform() * total;
            double running = 0;
            chosen = -1;
            Eigen::Index lastPositive = 0;
            for (Eigen::Index i = 0; i < N; ++i) {
                const double d2 = nearest[std::size_t(i)];
                if (d2 <= 0)
                    continue;
                running += d2;
                lastPositive = i;
                if (running > target) {
                    chosen = i;
                    break;
                }
            }
            if (chosen < 0)
                chosen = lastPositive;
        } else {
            // Every point coincides with a centre: any choice duplicates one, and the empty
            // cluster it leaves is re-seeded by Lloyd.
            chosen = Eigen::Index(rng.below(std::uint64_t(N)));
        }
        C.col(c) = X.col(chosen);
        if (c + 1 < clusters) {
            for (Eigen::Index i = 0; i < N; ++i)
                nearest[std::size_t(i)]
                    = std::min(nearest[std::size_t(i)], squaredDistance(X, i, C, c));
        }
    }
    return C;
}

// G = C^T Xb (k x b) as a fixed-order sum over depth slices (see kDepthSlice).
void crossProducts(const KMatrix& C, const KRef& Xb, Eigen::Ref<KMatrix> G)
{
    const Eigen::Index d = C.rows();
    if (d == 0) {
        G.setZero();
        return;
    }
    const Eigen::Index first = std::min(kDepthSlice, d);
    G.noalias() = C.topRows(first).transpose() * Xb.topRows(first);
    for (Eigen::Index p = first; p < d; p += kDepthSlice) {
        const Eigen::Index depth = std::min(kDepthSlice, d - p);
        G.noalias() += C.middleRows(p, depth).transpose() * Xb.middleRows(p, depth);
    }
}

// Nearest-centroid step. ||x - c||^2 = ||x||^2 - 2 x^T c + ||c||^2 and ||x||^2 is the same for
// every c, so ||c||^2 - 2 x^T c is compared, with x^T c from one GEMM per block. A point only
// moves when another centroid is strictly closer, so ties cannot make labels oscillate; a new
// point (label -1) takes the lowest-index closest centroid. Returns the number of moved points.
Eigen::Index assignToNearest(const KRef& X, const KMatrix& C, std::vector<int>& labels)
{
    const Eigen::Index N = X.cols();
    const Eigen::Index k = C.cols();
    const KVector centroidNorms = C.colwise().squaredNorm().transpose();
    KMatrix G(k, std::min(kPointBlock, N));
    Eigen::Index moved = 0;
    for (Eigen::Index start = 0; start < N; start += kPointBlock) {
        const Eigen::Index count = std::min(kPointBlock, N - start);
        crossProducts(C, X.middleCols(start, count), G.leftCols(count));
        for (Eigen::Index i = 0; i < count; ++i) {
            int& label = labels[std::size_t(start + i)];
            int best = label;
            double bestScore = best >= 0 ? centroidNorms(best) - 2 * G(best, i)
                                         : std::numeric_limits<double>::infinity();
            for (Eigen::Index j = 0; j < k; ++j) {
                const double score = centroidNorms(j) - 2 * G(j, i);
                if (score < bestScore) {
                    bestScore = score;
                    best = int(j);
                }
            }
            // Only an overflowing score (finite points near the largest double) leaves no
            // winner; cluster 0 keeps the labels valid.
            if (best < 0)
                best = 0;
            if (best != label) {
                label = best;
                ++moved;
            }
        }
    }
    return moved;
}

std::vector<Eigen::Index> clusterSizes(const std::vector<int>& labels, int clusters)
{
    std::vector<Eigen::Index> sizes(std::size_t(clusters), 0);
    for (const int label : labels)
        ++sizes[std::size_t(label)];
    return sizes;
}

// Gives every empty cluster the point farthest from the centroid it was assigned to, taken from
// a cluster that keeps at least one point (one always exists while clusters <= N). Returns the
// number of moved points.
Eigen::Index fillEmptyClusters(const KRef& X, const KMatrix& C, std::vector<int>& labels)
{
    const int clusters = int(C.cols());
    std::vector<Eigen::Index> sizes = clusterSizes(labels, clusters);
    if (std::find(sizes.begin(), sizes.end(), 0) == sizes.end())
        return 0;

    const Eigen::Index N = X.cols();
    std::vector<double> distance(static_cast<std::size_t>(N));
    for (Eigen::Index i = 0; i < N; ++i)
        distance[std::size_t(i)] = squaredDistance(X, i, C, labels[std::size_t(i)]);

    Eigen::Index moved = 0;
    for (int empty = 0; empty < clusters; ++empty) {
        if (sizes[std::size_t(empty)] > 0)
            continue;
        Eigen::Index farthest = -1;
        for (Eigen::Index i = 0; i < N; ++i) {
            if (sizes[std::size_t(labels[std::size_t(i)])] < 2)
                continue;
            if (farthest < 0 || distance[std::size_t(i)] > distance[std::size_t(farthest)])
                farthest = i;
        }
        int& label = labels[std::size_t(farthest)];
        --sizes[std::size_t(label)];
        label = empty;
        sizes[std::size_t(empty)] = 1;
        ++moved;
    }
    return moved;
}

void computeMeans(const KRef& X, const std::vector<int>& labels, KMatrix& C)
{
    C.setZero();
    std::vector<Eigen::Index> sizes(std::size_t(C.cols()), 0);
    for (Eigen::Index i = 0; i < X.cols(); ++i) {
        const int label = labels[std::size_t(i)];
        C.col(label) += X.col(i);
        ++sizes[std::size_t(label)];
    }
    for (Eigen::Index j = 0; j < C.cols(); ++j)
        C.col(j) /= double(sizes[std::size_t(j)]);
}

// sum_i ||x_i - c_{label(i)}||^2, summed directly (no norm expansion, so no cancellation).
double objectiveOf(const KRef& X, const std::vector<int>& labels, const KMatrix& C)
{
    double total = 0;
    for (Eigen::Index i = 0; i < X.cols(); ++i)
        total += squaredDistance(X, i, C, labels[std::size_t(i)]);
    return total;
}

// One Lloyd run: assign, fill empty clusters, move centroids to the means; stop when no label
// changes (the means then equal the previous ones exactly) or after maxIter rounds. The kept
// state has no empty cluster and centroids equal to the means of their points.
DoubleResult lloyd(const KRef& X, int clusters, int maxIter, Rng& rng)
{
    DoubleResult result;
    result.centroids = seedPlusPlus(X, clusters, rng);
    result.labels.assign(std::size_t(X.cols()), -1);
    for (result.iterations = 1;; ++result.iterations) {
        Eigen::Index moved = assignToNearest(X, result.centroids, result.labels);
        moved += fillEmptyClusters(X, result.centroids, result.labels);
        computeMeans(X, result.labels, result.centroids);
        if (moved == 0 || result.iterations >= maxIter)
            break;
    }
    result.objective = objectiveOf(X, result.labels, result.centroids);
    return result;
}

} // namespace

KMeansResult kmeans(MatrixCRef points, const KMeansOptions& options)
{
    validate(points, options);
    const auto& input = asDouble(points);
    KMatrix normalized;
    if (options.cosine)
        normalized = normalizedColumns(input);
    const KRef X = options.cosine ? KRef(normalized) : KRef(input);

    DoubleResult best;
    for (int replicate = 0; replicate < options.replicates; ++replicate) {
        // Each replicate has its own stream, so replicate r can be re-run alone.
        Rng rng(deriveSeed(options.seed, std::uint64_t(replicate)));
        DoubleResult candidate = lloyd(X, options.clusters, options.maxIter, rng);
        if (replicate == 0 || candidate.objective < best.objective)
            best = std::move(candidate);
    }
    KMeansResult result;
    result.labels = std::move(best.labels);
    result.centroids = best.centroids.cast<Scalar>();
    result.objective = best.objective;
    result.iterations = best.iterations;
    return result;
}

} // namespace facet
