// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/collectives.h"
#include "core/types.h"

#include <string>
#include <vector>

namespace facet {

// The rows of a per-sample matrix (V, or X^T once for the edge weights) that this rank's graph
// edges reach on other ranks: its halo (issue 40). A kNN graph split over the ranks keeps, on
// each, the columns of S of its own samples; their rows are the extended index space
//   [halo samples before this rank's | this rank's samples | halo samples after],
// each part in global sample order, so the extended order is the global order and a sum over a
// column's stored neighbours runs in the order one process runs it. extend() fetches the halo
// rows of every rank's current matrix: one allToAll, each rank sending each other rank the rows
// it asked for when the exchange was planned.
class HaloExchange {
public:
    // Collective. `halo`: the global indices, sorted and unique, of the other ranks' samples
    // this rank needs; `distribution`: this rank's samples (firstSample, and totalSamples to
    // find each sample's rank by sampleRange()); `localSamples`: how many it holds.
    HaloExchange(const SampleDistribution& distribution, Eigen::Index localSamples,
        const std::vector<Eigen::Index>& halo);

    Eigen::Index before() const { return m_before; } // halo rows ahead of this rank's
    Eigen::Index after() const { return m_after; }
    Eigen::Index extendedRows() const { return m_before + m_local + m_after; }
    // The global sample of extended row e, and the extended row of global sample j (this rank's
    // or the halo's).
    Eigen::Index globalIndex(Eigen::Index e) const;
    Eigen::Index extendedIndex(Eigen::Index j) const;

    // Collective: [the halo rows before; local; the halo rows after] of every rank's `local`
    // (localSamples() x cols, the same cols on every rank).
    Matrix extend(const Matrix& local) const;

private:
    Collectives* m_comm;
    Eigen::Index m_first;
    Eigen::Index m_local;
    Eigen::Index m_before = 0;
    Eigen::Index m_after = 0;
    std::vector<Eigen::Index> m_halo; // global, sorted
    std::vector<std::vector<Eigen::Index>> m_send; // per rank: local rows it asked for, in order
    std::vector<Eigen::Index> m_receive; // per rank: how many of its rows this rank asked for
};

// The rank that holds global sample j when `samples` are split over `ranks` (sampleRange()).
int ownerOfSample(Eigen::Index j, Eigen::Index samples, int ranks);

// Sample indices as bytes and back, for the collectives' string payloads.
std::string indicesToBytes(const std::vector<Eigen::Index>& indices);
std::vector<Eigen::Index> bytesToIndices(const std::string& bytes);

} // namespace facet
