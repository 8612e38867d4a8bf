// SPDX-License-Identifier: GPL-3.0-or-later
#include "cluster/kmeans.h"

#include "core/random.h"
#include "core/skinny_product.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <functional>
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
    double lloydSeconds = 0;
    int freshSumRounds = 0;
    std::int64_t sumUpdates = 0;
    bool cancelled = false;
    bool converged = false;
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

// Points per block of a Lloyd round: the block's columns of X (at most 256 KiB) are still in
// L2 when they are added into the sums after their assignment, so X is read once per round. A
// multiple of the dot kernel's 5-column tiles (blocks of 32 left two single columns per block:
// 6 % of a round at d = 1024).
Eigen::Index roundBlock(Eigen::Index d)
{
    return std::clamp<Eigen::Index>(32768 / std::max<Eigen::Index>(d, 1) / 5 * 5, 5, 510);
}
// The sums of a round run in this many contiguous chunks of the points, each on one thread, and
// the chunks are added in chunk order: the same bits on any number of threads.
constexpr int kMeanChunks = 8;

// Checked in the build's own precision, before any conversion.
void validateKMeans(const MatrixCRef& points, const KMeansOptions& options)
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
    // Each point's distance on its own (in parallel for a large X); every sum over the points
    // below runs in index order, so the draws do not depend on the threads. (The pragma is the
    // flag's only reader: unused when OpenMP is off, as in the tsan preset.)
    [[maybe_unused]] const bool parallel = double(X.rows()) * double(N) >= double(1 << 20);
#pragma omp parallel for schedule(static) if (parallel)
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
#pragma omp parallel for schedule(static) if (parallel)
            for (Eigen::Index i = 0; i < N; ++i)
                nearest[std::size_t(i)]
                    = std::min(nearest[std::size_t(i)], squaredDistance(X, i, C, c));
        }
    }
    return C;
}

int sumChunks(const KRef& X)
{
    return double(X.rows()) * double(X.cols()) >= double(1 << 20) ? kMeanChunks : 1;
}

// s += x_p1 + x_p2 + ... + x_pr (the points' columns of X in increasing order), entry by entry one
// point after the other: the order, and so the bits, of adding the points into s one at a time,
// but each packet of s is loaded and stored once for the r points instead of once per point.
void addPoints(double* s, const double* X, Eigen::Index ldx, const Eigen::Index* points,
    Eigen::Index r, Eigen::Index d)
{
    using Packet = Eigen::internal::packet_traits<double>::type;
    constexpr Eigen::Index kLanes = Eigen::internal::packet_traits<double>::size;
    Eigen::Index e = 0;
    for (; e + kLanes <= d; e += kLanes) {
        Packet acc = Eigen::internal::ploadu<Packet>(s + e);
        for (Eigen::Index q = 0; q < r; ++q)
            acc = Eigen::internal::padd(
                acc, Eigen::internal::ploadu<Packet>(X + points[q] * ldx + e));
        Eigen::internal::pstoreu(s + e, acc);
    }
    for (; e < d; ++e) {
        double acc = s[e];
        for (Eigen::Index q = 0; q < r; ++q)
            acc += X[points[q] * ldx + e];
        s[e] = acc;
    }
}
// Adds the points start..start+count-1 into sum.col(label) for their labels, grouped by label
// (counting sort) so that each column of the sum is read and written once per block.
struct LabelGroups {
    explicit LabelGroups(Eigen::Index k, Eigen::Index block)
        : first(std::size_t(k) + 1)
        , next(std::size_t(k))
        , members(std::size_t(block))
    {
    }
    std::vector<Eigen::Index> first; // label j's points are members[first[j] .. first[j + 1])
    std::vector<Eigen::Index> next;
    std::vector<Eigen::Index> members; // point indices, increasing within each label
};

void addBlockByLabel(const KRef& X, const std::vector<int>& labels, Eigen::Index start,
    Eigen::Index count, KMatrix& sum, LabelGroups& g)
{
    const Eigen::Index k = sum.cols();
    std::fill(g.first.begin(), g.first.end(), 0);
    for (Eigen::Index i = start; i < start + count; ++i)
        ++g.first[std::size_t(labels[std::size_t(i)]) + 1];
    for (Eigen::Index j = 0; j < k; ++j)
        g.first[std::size_t(j) + 1] += g.first[std::size_t(j)];
    std::copy(g.first.begin(), g.first.end() - 1, g.next.begin());
    for (Eigen::Index i = start; i < start + count; ++i)
        g.members[std::size_t(g.next[std::size_t(labels[std::size_t(i)])]++)] = i;
    for (Eigen::Index j = 0; j < k; ++j) {
        const Eigen::Index from = g.first[std::size_t(j)];
        const Eigen::Index r = g.first[std::size_t(j) + 1] - from;
        if (r > 0)
            addPoints(
                sum.col(j).data(), X.data(), X.outerStride(), g.members.data() + from, r, X.rows());
    }
}

// One pass over X for the assignment step, which also brings the chunks' sums up to date for the
// next means. Each point's ||c||^2 - 2 x^T c is compared over the centroids (||x||^2 is the same
// for every c), with x^T c from the register-tiled dot kernel (core/skinny_product.h), each
// summed in one fixed order. A point only moves when another centroid is strictly closer, so
// ties cannot make labels oscillate; a new point (label -1) takes the lowest-index closest
// centroid.
//
// The sums (one d x k matrix per chunk of points) while each block is in cache:
// - `fresh`: zeroed, then every point added for its label (addBlockByLabel: the same bits as one
//   point after the other, 3-5 % faster on the large sets). The first round is always fresh.
// - otherwise updated: a point that moved is subtracted from its old cluster's sum and added to
//   its new one's, in point order within its chunk, and the rest are not read again. The sum of
//   a cluster is the same in exact arithmetic; in floating point an update rounds each of its
//   two sums once, as one addition of a fresh sum does, and lloyd() makes the sums fresh again
//   once the updates since the last fresh round reach N, so the sums carry at most twice a
//   fresh sum's roundings on top of it. (Labels are -1 only before the first round, which is
//   fresh.)
//   On the large sets the fresh sums had been a third of a round once the labels settle (the
//   adds read the block from L2 again); the updates cost 2d per moved point.
// Returns the number of moved points.
Eigen::Index assignAndSum(const KRef& X, const KMatrix& C, std::vector<int>& labels,
    std::vector<KMatrix>& partial, bool fresh)
{
    const Eigen::Index d = X.rows(), N = X.cols(), k = C.cols();
    const KVector centroidNorms = C.colwise().squaredNorm().transpose();
    const int chunks = sumChunks(X);
    if (fresh)
        partial.assign(std::size_t(chunks), KMatrix::Zero(d, k));
    std::vector<Eigen::Index> moved(std::size_t(chunks), 0);
    const Eigen::Index block = roundBlock(d);
    const bool prefetch = pastTheCaches(double(d) * double(N) * sizeof(double));
#pragma omp parallel for schedule(static) if (chunks > 1)
    for (int chunk = 0; chunk < chunks; ++chunk) {
        KMatrix G(block, k); // x^T c for the block's points
        LabelGroups groups(k, block);
        KMatrix& sum = partial[std::size_t(chunk)];
        const Eigen::Index end = N * (chunk + 1) / chunks;
        for (Eigen::Index start = N * chunk / chunks; start < end; start += block) {
            const Eigen::Index count = std::min(block, end - start);
            dotProductBlock<double>(X.data() + start * X.outerStride(), X.outerStride(), d,
                C.data(), C.outerStride(), k, count, G.data(), block, prefetch);
            for (Eigen::Index i = 0; i < count; ++i) {
                int& label = labels[std::size_t(start + i)];
                int best = label;
                double bestScore = best >= 0 ? centroidNorms(best) - 2 * G(i, best)
                                             : std::numeric_limits<double>::infinity();
                for (Eigen::Index j = 0; j < k; ++j) {
                    const double score = centroidNorms(j) - 2 * G(i, j);
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
                    if (!fresh) {
                        sum.col(label) -= X.col(start + i);
                        sum.col(best) += X.col(start + i);
                    }
                    label = best;
                    ++moved[std::size_t(chunk)];
                }
            }
            if (fresh)
                addBlockByLabel(X, labels, start, count, sum, groups);
        }
    }
    Eigen::Index total = 0;
    for (const Eigen::Index m : moved)
        total += m;
    return total;
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

// The means from the chunks' sums, added in chunk order.
void meansFromSums(const std::vector<KMatrix>& partial, const std::vector<int>& labels, KMatrix& C)
{
    std::vector<Eigen::Index> sizes = clusterSizes(labels, int(C.cols()));
    C = partial[0];
    for (std::size_t c = 1; c < partial.size(); ++c)
        C += partial[c];
    for (Eigen::Index j = 0; j < C.cols(); ++j)
        C.col(j) /= double(sizes[std::size_t(j)]);
}

// The means of the labels as they are (after fillEmptyClusters moved points), from sums made
// fresh in the same chunks and order as a fresh assignAndSum: another pass over X, only in a
// round that re-seeded a cluster. `partial` keeps the fresh sums for the next round's updates.
void computeMeans(
    const KRef& X, const std::vector<int>& labels, std::vector<KMatrix>& partial, KMatrix& C)
{
    const int chunks = sumChunks(X);
    partial.assign(std::size_t(chunks), KMatrix::Zero(C.rows(), C.cols()));
    const Eigen::Index N = X.cols();
#pragma omp parallel for schedule(static) if (chunks > 1)
    for (int c = 0; c < chunks; ++c) {
        KMatrix& sum = partial[std::size_t(c)];
        for (Eigen::Index i = N * c / chunks; i < N * (c + 1) / chunks; ++i)
            sum.col(labels[std::size_t(i)]) += X.col(i);
    }
    meansFromSums(partial, labels, C);
}

// sum_i ||x_i - c_{label(i)}||^2, summed directly (no norm expansion, so no cancellation).
// The distances in parallel for a large X, added in index order (the same bits on any number of
// threads).
double objectiveOf(const KRef& X, const std::vector<int>& labels, const KMatrix& C)
{
    const Eigen::Index N = X.cols();
    std::vector<double> distance(static_cast<std::size_t>(N));
#pragma omp parallel for schedule(static) if (double(X.rows()) * double(N) >= double(1 << 20))
    for (Eigen::Index i = 0; i < N; ++i)
        distance[std::size_t(i)] = squaredDistance(X, i, C, labels[std::size_t(i)]);
    double total = 0;
    for (const double d : distance)
        total += d;
    return total;
}

// One Lloyd run: assign, fill empty clusters, move centroids to the means; stop when no label
// changes (the means then equal the previous ones exactly) or after maxIter rounds. The kept
// state has no empty cluster and centroids equal to the means of their points: where the last
// sums were updated rather than fresh, they are made fresh once more at the end. An updated sum
// is the same in exact arithmetic but not in floating point: a coordinate whose points are all
// 0 (COIL-20's black background) kept a residue of the points that had moved through the
// cluster, and 1-2 % of COIL-20's centroid entries (10, 20 or 40 clusters) came out between
// -1e-16 and 0, so the k-means baseline's "basis" of non-negative images had negative entries
// (the explorer drew it on the signed colour map). One more pass over X per start, after rounds
// that each read X once; like the seeding and the objective, outside lloydSeconds.
DoubleResult lloyd(const KRef& X, int clusters, int maxIter, Rng& rng, const std::stop_token& stop,
    const std::function<void(int rounds)>& onRound)
{
    DoubleResult result;
    result.centroids = seedPlusPlus(X, clusters, rng);
    result.labels.assign(std::size_t(X.cols()), -1);
    const auto start = std::chrono::steady_clock::now();
    std::vector<KMatrix> sums;
    // Points moved by updates of the sums since they were last summed fresh.
    Eigen::Index updates = 0;
    bool sumsFresh = false; // the sums behind the centroids were made fresh in the last round
    for (result.iterations = 1;; ++result.iterations) {
        const bool fresh = result.iterations == 1 || updates >= X.cols();
        sumsFresh = fresh;
        Eigen::Index moved = assignAndSum(X, result.centroids, result.labels, sums, fresh);
        updates = fresh ? 0 : updates + moved;
        if (fresh)
            ++result.freshSumRounds;
        else
            result.sumUpdates += moved;
        const Eigen::Index filled = fillEmptyClusters(X, result.centroids, result.labels);
        if (filled > 0) {
            computeMeans(X, result.labels, sums, result.centroids);
            updates = 0;
            sumsFresh = true;
        } else {
            meansFromSums(sums, result.labels, result.centroids);
        }
        moved += filled;
        result.converged = moved == 0;
        if (moved == 0 || result.iterations >= maxIter)
            break;
        onRound(result.iterations);
        if (stop.stop_requested()) {
            result.cancelled = true;
            break;
        }
    }
    result.lloydSeconds
        = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    // After the rounds' clock, as the seeding and the objective are (the bench times rounds).
    if (!sumsFresh)
        computeMeans(X, result.labels, sums, result.centroids);
    result.objective = objectiveOf(X, result.labels, result.centroids);
    return result;
}

} // namespace

KMeansResult kmeans(MatrixCRef points, const KMeansOptions& options)
{
    validateKMeans(points, options);
    const auto& input = asDouble(points);
    KMatrix normalized;
    if (options.cosine)
        normalized = normalizedColumns(input);
    const KRef X = options.cosine ? KRef(normalized) : KRef(input);

    DoubleResult best;
    for (int replicate = 0; replicate < options.replicates; ++replicate) {
        // Each replicate has its own stream, so replicate r can be re-run alone.
        Rng rng(deriveSeed(options.seed, std::uint64_t(replicate)));
        const auto onRound = [&](int rounds) {
            reportProgress(options.progress,
                (replicate + double(rounds) / options.maxIter) / options.replicates);
        };
        DoubleResult candidate
            = lloyd(X, options.clusters, options.maxIter, rng, options.stop, onRound);
        const bool cancelled = candidate.cancelled || options.stop.stop_requested();
        if (!cancelled)
            reportProgress(options.progress, double(replicate + 1) / options.replicates);
        if (replicate == 0 || candidate.objective < best.objective)
            best = std::move(candidate);
        if (cancelled) {
            best.cancelled = true;
            break;
        }
    }
    KMeansResult result;
    result.labels = std::move(best.labels);
    result.centroids = best.centroids.cast<Scalar>();
    result.objective = best.objective;
    result.iterations = best.iterations;
    result.lloydSeconds = best.lloydSeconds;
    result.freshSumRounds = best.freshSumRounds;
    result.sumUpdates = best.sumUpdates;
    result.cancelled = best.cancelled;
    result.converged = best.converged;
    return result;
}

} // namespace facet
