// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <Eigen/Core>

#include <cstdint>
#include <string>
#include <vector>

namespace facet {

// Consensus clustering for choosing the rank (Brunet et al. 2004; Kim & Park 2007).
//
// The consensus matrix of R clusterings of n samples: C_ij = the fraction of the clusterings
// that put i and j in one cluster (C_ii = 1). Its rows and columns are ordered by average-linkage
// clustering of the distances 1 - C, and scored by
// - the cophenetic correlation: Pearson's correlation, over the pairs i < j, between 1 - C_ij
//   and the height at which i and j join in that average-linkage tree (1 for a consensus of
//   identical clusterings; lower as the clusterings disagree);
// - the dispersion: (1/n^2) sum_ij 4 (C_ij - 1/2)^2, 1 when every C_ij is 0 or 1.

// The merges of average linkage (UPGMA) on a symmetric n x n distance matrix, and what they
// give: the leaf order (each subtree's leaves contiguous) and the cophenetic correlation.
struct AverageLinkage {
    // One per merge, by increasing height: the two joined clusters' smallest sample indices
    // and the height (their average distance).
    struct Merge {
        int a = 0;
        int b = 0;
        double height = 0;
    };
    std::vector<Merge> merges;
    std::vector<int> order; // a permutation of 0..n-1
    // NaN when undefined: fewer than 3 samples, or the distances (or the heights) all equal.
    double copheneticCorrelation = 0;
};

// The nearest-neighbour-chain algorithm: O(n^2) time, and it overwrites `distances` (n x n,
// symmetric, zero diagonal) with working values. Ties go to the chain's previous cluster, so
// equal distances never loop.
AverageLinkage averageLinkage(Eigen::MatrixXd distances);

struct Consensus {
    Eigen::MatrixXd matrix; // n x n, in sample order
    std::vector<int> order; // average-linkage leaf order of 1 - matrix
    double cophenetic = 0; // NaN when undefined (see AverageLinkage)
    double dispersion = 0;
    int runs = 0;
};

// Bytes the consensus of n samples needs: the matrix, the distances and their working copy,
// n x n doubles each.
std::int64_t consensusBytes(std::int64_t n);

// The default bound on consensusBytes: 2 GiB, n up to about 9,450.
inline constexpr std::int64_t kConsensusMaxBytes = std::int64_t(2) << 30;

// Empty when consensusBytes(n) fits maxBytes; otherwise the refusal: both sizes and the advice
// to subsample.
std::string consensusSizeProblem(std::int64_t n, std::int64_t maxBytes);

// clusterings: R >= 1 labelings of the same n samples (any integer labels). Throws
// std::invalid_argument when they are empty or of different lengths, and when consensusBytes(n)
// exceeds maxBytes (the message gives both sizes and says to subsample).
Consensus consensusOf(
    const std::vector<std::vector<int>>& clusterings, std::int64_t maxBytes = kConsensusMaxBytes);

} // namespace facet
