// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/cancellation.h"
#include "core/types.h"

#include <cstdint>
#include <stop_token>
#include <vector>

namespace facet {

// METHODS.md section 4: Lloyd's k-means with k-means++ seeding; the replicate with the lowest
// objective (sum of squared distances to the assigned centroid) is kept.
struct KMeansOptions {
    int clusters = 2;
    int replicates = 20;
    int maxIter = 100;
    bool cosine = false; // L2-normalize every point first (zero points stay zero)
    std::uint64_t seed = 0;
    // Checked between Lloyd rounds: once requested, the start that is running stops after its
    // round (its labels and centroids are still a consistent assignment and its means), no
    // further start begins, and the best of the starts so far is returned, `cancelled` set.
    std::stop_token stop;
    // Hears the fraction of the starts done after every Lloyd round (on the calling thread):
    // start r at round t reports (r + t / maxIter) / replicates, and (r + 1) / replicates when it
    // ends (unless stopped), so a start that converges early jumps to its end.
    StageProgress progress;
};

struct KMeansResult {
    std::vector<int> labels; // N entries in [0, clusters)
    Matrix centroids; // d x clusters
    double objective = 0; // sum of squared distances to the assigned centroids
    int iterations = 0; // of the kept replicate
    // The kept replicate's Lloyd rounds (assignment, empty clusters, means), without the seeding
    // and the final objective: what the benchmark divides by `iterations`.
    double lloydSeconds = 0;
    // How the kept replicate's rounds kept the clusters' sums (cluster/kmeans.cpp, assignAndSum):
    // the rounds that summed every point afresh, and the points whose move updated the sums in
    // the other rounds (each a subtraction and an addition of d entries). For the benchmark's
    // flop count.
    int freshSumRounds = 0;
    std::int64_t sumUpdates = 0;
    bool cancelled = false; // options.stop was requested before the last start ended
    // The kept replicate's last round moved no point (else it stopped at maxIter, or cancelled).
    bool converged = false;
};

// points: d x N, one point per column. Throws std::invalid_argument when clusters < 1,
// clusters > N, or a point is not finite (and when replicates < 1 or maxIter < 1).
// Deterministic for a given seed, also across Eigen thread counts; replicate r draws from
// Rng(deriveSeed(seed, r)). An empty cluster is re-seeded with the point farthest from its
// centroid, so every cluster of the result has at least one point. With cosine, centroids are
// means of the normalized points.
KMeansResult kmeans(MatrixCRef points, const KMeansOptions& options);

} // namespace facet
