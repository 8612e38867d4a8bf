// SPDX-License-Identifier: GPL-3.0-or-later
#include "cluster/kmeans.h"
#include "core/openmp.h"
#include "core/random.h"
#include "metrics/clustering_metrics.h"

#include <QtTest>

#include <algorithm>
#include <cmath>
#include <limits>
#include <numbers>
#include <set>
#include <stdexcept>
#include <type_traits>

using namespace facet;

namespace {

// Relative tolerance for quantities computed in Scalar, which may be float.
constexpr double kTolerance = std::is_same_v<Scalar, float> ? 1e-5 : 1e-10;

struct KmeansBlobs {
    Matrix points; // d x N
    std::vector<int> truth;
};

// Four blobs with centres c_j(r) = 10 * bit (r mod 2) of j, so centres are >= 10 sqrt(d / 2)
// apart while uniform noise in [-1, 1]^d keeps every point within sqrt(d) of its centre.
KmeansBlobs fourBlobs(int d, int perBlob, std::uint64_t seed)
{
    Rng rng(seed);
    KmeansBlobs blobs;
    for (int j = 0; j < 4; ++j)
        blobs.truth.insert(blobs.truth.end(), std::size_t(perBlob), j);
    for (std::size_t i = blobs.truth.size() - 1; i > 0; --i)
        std::swap(blobs.truth[i], blobs.truth[rng.below(i + 1)]);
    blobs.points
        = (rng.uniformMatrix(d, Eigen::Index(blobs.truth.size())).array() * 2 - 1).matrix();
    for (std::size_t i = 0; i < blobs.truth.size(); ++i) {
        for (int r = 0; r < d; ++r)
            blobs.points(r, Eigen::Index(i)) += Scalar(10 * ((blobs.truth[i] >> (r % 2)) & 1));
    }
    return blobs;
}

double sumOfSquares(const Matrix& X, const KMeansResult& result)
{
    double total = 0;
    for (Eigen::Index i = 0; i < X.cols(); ++i)
        total += double(
            (X.col(i) - result.centroids.col(result.labels[std::size_t(i)])).squaredNorm());
    return total;
}

// Lloyd's fixed point: each centroid is the mean of its points and each point is no farther
// from its own centroid than from any other (up to rounding).
void verifyFixedPoint(const Matrix& X, const KMeansResult& result)
{
    const Eigen::Index k = result.centroids.cols();
    Matrix sums = Matrix::Zero(X.rows(), k);
    std::vector<int> sizes(std::size_t(k), 0);
    for (Eigen::Index i = 0; i < X.cols(); ++i) {
        const int label = result.labels[std::size_t(i)];
        QVERIFY(label >= 0 && label < k);
        sums.col(label) += X.col(i);
        ++sizes[std::size_t(label)];
    }
    for (Eigen::Index j = 0; j < k; ++j) {
        QVERIFY2(sizes[std::size_t(j)] > 0, "empty cluster");
        const Vector mean = sums.col(j) / Scalar(sizes[std::size_t(j)]);
        QVERIFY((mean - result.centroids.col(j)).norm() <= kTolerance * (1 + mean.norm()));
    }
    for (Eigen::Index i = 0; i < X.cols(); ++i) {
        const double own = double(
            (X.col(i) - result.centroids.col(result.labels[std::size_t(i)])).squaredNorm());
        for (Eigen::Index j = 0; j < k; ++j) {
            const double other = double((X.col(i) - result.centroids.col(j)).squaredNorm());
            QVERIFY2(own <= other + kTolerance * (1 + other),
                qPrintable(QStringLiteral("point %1 is closer to cluster %2").arg(i).arg(j)));
        }
    }
    const double objective = sumOfSquares(X, result);
    QVERIFY(std::abs(result.objective - objective) <= kTolerance * (1 + objective));
}

} // namespace

class TestKMeans : public QObject {
    Q_OBJECT

private slots:
    void recoversSeparatedBlobs_data()
    {
        QTest::addColumn<int>("d");
        QTest::addColumn<quint64>("seed");
        QTest::newRow("2-D") << 2 << quint64(1);
        QTest::newRow("50-D") << 50 << quint64(2);
        QTest::newRow("130-D, three depth slices") << 130 << quint64(3);
    }

    void recoversSeparatedBlobs()
    {
        QFETCH(int, d);
        QFETCH(quint64, seed);
        const KmeansBlobs blobs = fourBlobs(d, 60, seed);
        KMeansOptions options;
        options.clusters = 4;
        options.seed = seed;
        const KMeansResult result = kmeans(blobs.points, options);
        QCOMPARE(result.labels.size(), blobs.truth.size());
        QCOMPARE(clusteringAccuracy(blobs.truth, result.labels), 1.0);
        QVERIFY(result.iterations >= 1 && result.iterations < options.maxIter);
        verifyFixedPoint(blobs.points, result);
    }

    void sameSeedSameResult()
    {
        Rng rng(77);
        const Matrix X = rng.uniformMatrix(6, 400); // no structure: many local optima
        KMeansOptions options;
        options.clusters = 7;
        options.replicates = 3;
        options.seed = 123;
        const KMeansResult a = kmeans(X, options);
        const KMeansResult b = kmeans(X, options);
        QCOMPARE(a.labels, b.labels);
        QVERIFY(a.centroids == b.centroids);
        QCOMPARE(a.objective, b.objective);
        QCOMPARE(a.iterations, b.iterations);
        verifyFixedPoint(X, a);

        options.seed = 124;
        const KMeansResult c = kmeans(X, options);
        verifyFixedPoint(X, c);
    }

    void moreReplicatesNeverWorse()
    {
        Rng rng(8);
        const Matrix X = rng.uniformMatrix(3, 300);
        KMeansOptions options;
        options.clusters = 9;
        options.seed = 4;
        options.replicates = 1;
        const double single = kmeans(X, options).objective;
        options.replicates = 10;
        // Replicate 0 has the same stream in both runs, so the best of ten cannot be worse.
        QVERIFY(kmeans(X, options).objective <= single);
    }

    void independentOfThreadCount()
    {
        Rng rng(21);
        // The large common offset makes ||c||^2 - 2 x^T c cancel, so any change in the rounding
        // of x^T c, of the means' sums or of the seeding's distances flips labels. The rounds
        // split the points into chunks over the threads, and the seeding and objective run their
        // points in parallel: only fixed summation orders pass. (It once checked Eigen's GEMM
        // blocking, which also changed with the thread count.)
        const Matrix X = (rng.uniformMatrix(784, 9000).array() + Scalar(1e6)).matrix();
        KMeansOptions options;
        options.clusters = 6;
        options.replicates = 1;
        options.maxIter = 8;
        options.seed = 9;
        const int previous = omp::maxThreads();
        omp::setThreads(1);
        const KMeansResult serial = kmeans(X, options);
        omp::setThreads(2);
        const KMeansResult threaded = kmeans(X, options);
        omp::setThreads(3); // a count that does not divide the 8 chunks
        const KMeansResult three = kmeans(X, options);
        omp::setThreads(previous);
        // Points moved after the first round, so the updated sums ran on every thread count.
        QVERIFY(serial.sumUpdates > 0);
        QVERIFY(serial.labels == three.labels);
        QVERIFY(serial.centroids == three.centroids);
        QVERIFY(serial.labels == threaded.labels);
        QVERIFY(serial.centroids == threaded.centroids);
        QCOMPARE(serial.objective, threaded.objective);
    }

    void largeInputFixedPoint()
    {
        const KmeansBlobs blobs = fourBlobs(20, 1500, 31); // 6000 points: the last block is partial
        KMeansOptions options;
        options.clusters = 4;
        options.replicates = 2;
        options.seed = 5;
        const KMeansResult result = kmeans(blobs.points, options);
        QCOMPARE(clusteringAccuracy(blobs.truth, result.labels), 1.0);
        verifyFixedPoint(blobs.points, result);
    }

    // After the first round the sums are updated by the moved points only, and made fresh again
    // once N points have moved since (cluster/kmeans.cpp, assignAndSum). Uniform points without
    // clusters keep moving for many rounds (here 20,000 x 8, 40 clusters: about 24,000 updates),
    // so both rules run, and the result must still be Lloyd's fixed point with centroids equal
    // to the means of their points.
    void updatedSumsStayMeans()
    {
        Rng rng(7);
        const Matrix X = rng.uniformMatrix(8, 20000);
        KMeansOptions options;
        options.clusters = 40;
        options.replicates = 1;
        options.maxIter = 1000;
        options.seed = 3;
        const KMeansResult result = kmeans(X, options);
        QVERIFY(result.iterations < options.maxIter); // converged: no label moved
        QVERIFY2(result.sumUpdates >= X.cols(), "too few updates to reach the fresh rule");
        QVERIFY(result.freshSumRounds >= 2);
        verifyFixedPoint(X, result);
    }

    // Non-negative points that are exactly 0 off their group's support (as COIL-20's black
    // backgrounds): points move between the 12 clusters of 8 groups for many rounds, and the
    // updated sums used to leave small negative residues (-3e-18 for seed 0) in centroid entries
    // whose points are all 0. The kept centroids are the fresh means of their points:
    // non-negative, and equal to the means summed here to within rounding.
    void centroidsOfNonNegativePointsAreNonNegative()
    {
        for (const std::uint64_t seed : { 0u, 1u, 3u }) {
            Rng rng(seed);
            const Eigen::Index d = 64, N = 3000;
            const Matrix values = rng.uniformMatrix(d, N);
            const Matrix coins = rng.uniformMatrix(d, N);
            Matrix X = Matrix::Zero(d, N);
            for (Eigen::Index i = 0; i < N; ++i) {
                const Eigen::Index group = i % 8;
                for (Eigen::Index r = 0; r < d; ++r)
                    if (r % 8 == group || (r % 8 == (group + 1) % 8 && coins(r, i) < 0.3))
                        X(r, i) = values(r, i);
            }
            KMeansOptions options;
            options.clusters = 12;
            options.replicates = 3;
            options.seed = seed;
            const KMeansResult result = kmeans(X, options);
            QVERIFY2(result.sumUpdates > 0, "no updated sums: the case does not test them");
            QVERIFY2(result.centroids.minCoeff() >= 0,
                qPrintable(QStringLiteral("seed %1: a centroid entry %2 < 0")
                               .arg(seed)
                               .arg(double(result.centroids.minCoeff()))));
            verifyFixedPoint(X, result);
        }
    }

    void cosineSplitsByDirection()
    {
        // Ray A at 10 degrees with lengths in [0.1, 1], ray B at 80 degrees with lengths in
        // [10, 100]. Euclidean 2-means splits the long ray B and puts A with its near half;
        // on the unit circle the two directions are the clusters. The last point is zero.
        Rng rng(2);
        const int perRay = 50;
        Matrix X(2, 2 * perRay + 1);
        std::vector<int> truth;
        for (int i = 0; i < 2 * perRay; ++i) {
            const int ray = i % 2;
            const double degrees = (ray == 0 ? 10 : 80) + 6 * (rng.uniform() - 0.5);
            const double length = ray == 0 ? 0.1 + 0.9 * rng.uniform() : 10 + 90 * rng.uniform();
            const double angle = degrees * std::numbers::pi / 180;
            X(0, i) = Scalar(length * std::cos(angle));
            X(1, i) = Scalar(length * std::sin(angle));
            truth.push_back(ray);
        }
        X.col(2 * perRay).setZero();

        KMeansOptions options;
        options.clusters = 2;
        options.seed = 17;
        options.cosine = true;
        const KMeansResult cosine = kmeans(X, options);
        std::vector<int> withoutZero(cosine.labels.begin(), cosine.labels.end() - 1);
        QCOMPARE(clusteringAccuracy(truth, withoutZero), 1.0);
        QVERIFY(std::isfinite(cosine.objective));
        for (Eigen::Index j = 0; j < cosine.centroids.cols(); ++j)
            QVERIFY(
                cosine.centroids.col(j).norm() <= 1 + kTolerance); // means of unit or zero points

        // The same as Euclidean k-means on points normalized beforehand.
        Matrix normalized = X;
        for (Eigen::Index i = 0; i < normalized.cols() - 1; ++i)
            normalized.col(i) /= normalized.col(i).norm();
        options.cosine = false;
        const KMeansResult manual = kmeans(normalized, options);
        QCOMPARE(manual.labels, cosine.labels);
        QVERIFY(manual.centroids == cosine.centroids);
        verifyFixedPoint(normalized, cosine);

        const KMeansResult euclidean = kmeans(X, options);
        std::vector<int> euclideanWithoutZero(euclidean.labels.begin(), euclidean.labels.end() - 1);
        QVERIFY(clusteringAccuracy(truth, euclideanWithoutZero) < 0.9);
    }

    void emptyClusterIsReseeded()
    {
        // Three copies of a and one b: k-means++ must pick a duplicate third centre, which
        // leaves a cluster empty; re-seeding moves one copy of a into it.
        Matrix X(2, 4);
        X << 1, 1, 1, 5, //
            2, 2, 2, 5;
        for (std::uint64_t seed = 0; seed < 10; ++seed) {
            KMeansOptions options;
            options.clusters = 3;
            options.replicates = 1;
            options.seed = seed;
            const KMeansResult result = kmeans(X, options);
            const std::set<int> used(result.labels.begin(), result.labels.end());
            QCOMPARE(used.size(), std::size_t(3));
            QCOMPARE(result.objective, 0.0);
        }
    }

    void extremeClusterCounts()
    {
        Rng rng(6);
        const Matrix X = rng.uniformMatrix(3, 12);
        KMeansOptions options;
        options.clusters = 1;
        const KMeansResult one = kmeans(X, options);
        QVERIFY((one.centroids.col(0) - X.rowwise().mean()).norm() < kTolerance);
        QCOMPARE(std::count(one.labels.begin(), one.labels.end(), 0), std::ptrdiff_t(12));

        options.clusters = 12;
        const KMeansResult all = kmeans(X, options);
        QCOMPARE(std::set<int>(all.labels.begin(), all.labels.end()).size(), std::size_t(12));
        QCOMPARE(all.objective, 0.0);
    }

    void invalidInputThrows()
    {
        Matrix X = Matrix::Ones(2, 5);
        KMeansOptions options;
        options.clusters = 0;
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, kmeans(X, options));
        options.clusters = -2;
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, kmeans(X, options));
        options.clusters = 6;
        try {
            kmeans(X, options);
            QFAIL("clusters > N accepted");
        } catch (const std::invalid_argument& error) {
            QVERIFY2(QByteArray(error.what()).contains("N = 5"), error.what());
        }
        options.clusters = 2;
        options.replicates = 0;
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, kmeans(X, options));
        options.replicates = 1;
        options.maxIter = 0;
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, kmeans(X, options));
        options.maxIter = 10;
        X(1, 3) = std::numeric_limits<Scalar>::quiet_NaN();
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, kmeans(X, options));
        X(1, 3) = std::numeric_limits<Scalar>::infinity();
        try {
            kmeans(X, options);
            QFAIL("infinite point accepted");
        } catch (const std::invalid_argument& error) {
            QVERIFY2(QByteArray(error.what()).contains("point 3"), error.what());
        }
    }
};

#include "facet_test.h"
FACET_TEST_APPLESS_MAIN(TestKMeans)
#include "test_kmeans.moc"
