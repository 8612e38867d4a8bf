// SPDX-License-Identifier: GPL-3.0-or-later
// k-means in the single-precision solver (cluster/kmeans.cpp runs in double in both builds).
// The points imitate LCCF's V on ORL: rows nearly equal (0.024 everywhere), the clusters in
// deviations of 1e-5. The squared distances that separate the clusters (~4e-9) are then below
// float's rounding of the scores ||c||^2 - 2 x^T c (~1.4e-9 each, and their difference), while
// the points themselves, rounded to float, still carry the clusters: k-means must find them.
#include "cluster/kmeans.h"
#include "core/random.h"
#include "metrics/clustering_metrics.h"

#include <QtTest>

#include <type_traits>

using namespace facet;

class TestKmeansPrecision : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void findsClustersInTinyDeviations()
    {
        static_assert(std::is_same_v<Scalar, float>, "this file tests the float build");
        constexpr int d = 40, clusters = 8, perCluster = 25;
        Rng rng(3);
        // Cluster centres: the common value plus +-1e-5 in every coordinate.
        Eigen::MatrixXd centres(d, clusters);
        for (int j = 0; j < clusters; ++j)
            for (int r = 0; r < d; ++r)
                centres(r, j) = 0.024 + (rng.uniform() < 0.5 ? -1e-5 : 1e-5);
        Matrix points(d, clusters * perCluster);
        std::vector<int> truth;
        for (int j = 0; j < clusters; ++j)
            for (int i = 0; i < perCluster; ++i) {
                const int col = j * perCluster + i;
                for (int r = 0; r < d; ++r)
                    points(r, col) = Scalar(centres(r, j) + 1e-6 * (rng.uniform() - 0.5));
                truth.push_back(j);
            }
        KMeansOptions options;
        options.clusters = clusters;
        options.replicates = 10;
        options.seed = 7;
        const KMeansResult result = kmeans(points, options);
        QCOMPARE(clusteringAccuracy(truth, result.labels), 1.0);
        QCOMPARE(result.centroids.rows(), Eigen::Index(d));
        QCOMPARE(result.centroids.cols(), Eigen::Index(clusters));
    }
};

#include "facet_test.h"
FACET_TEST_MAIN(TestKmeansPrecision)
#include "test_kmeans_precision.moc"
