// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/types.h"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace facet {

// The operations a factorization spread over several processes needs (issue 40): the samples
// (the columns of X) are split over the ranks, each keeps its samples' rows of V (and of W in the
// CF family), and the basis side is replicated. Wherever a product sums over the samples (X V,
// V^T V, W^T K W, the objective's traces) each rank forms its part and sumReduce() adds the parts.
//
// solver/ never names MPI: the MPI implementation lives beside the CLI (app/mpi/), and a single
// process has no Collectives at all (SampleDistribution::comm is null: every sum is local).
//
// Every call is collective: every rank makes the same calls in the same order, with the same
// sizes, from the thread that created the implementation.
class Collectives {
public:
    virtual ~Collectives() = default;

    virtual int rank() const = 0;
    virtual int size() const = 0;

    // Replaces data[0..count) on every rank by its sum over the ranks. Every rank receives the same
    // bits (the sum is formed once, in one order, and handed to all), so the decisions taken on a
    // reduced value (the stopping rules, a rejected extrapolation) agree on every rank. The order
    // differs from a single process's sum over all samples: results agree with a single-process
    // run to rounding, not bit for bit.
    virtual void sumReduce(Scalar* data, std::size_t count) = 0;
    // Rank `root` receives every rank's rows stacked in rank order (the others an empty matrix).
    // Every rank's block has `local.cols()` columns.
    virtual Matrix gatherRows(const Matrix& local, int root) = 0;
    // `bytes` of rank `root` on every rank.
    virtual void broadcast(std::string& bytes, int root) = 0;
    // Rank `root` gives parts[r] to rank r (parts has size() entries there and is ignored
    // elsewhere); each rank returns its own part.
    virtual std::string scatter(const std::vector<std::string>& parts, int root) = 0;
    // Point to point, every rank at once: sends `bytes` to rank `to` and returns what rank `from`
    // sent to this one. A ring shift passes to = rank + 1 and from = rank - 1 (mod size()): the
    // distributed kNN search passes the blocks of X around that ring (graph/distributed_knn.h).
    virtual std::string sendReceive(const std::string& bytes, int to, int from) = 0;
    // parts[q] to rank q, for every q (parts has size() entries; parts[rank()] comes back
    // unsent); returns what each rank sent to this one, by sender. The graph's halo exchange
    // (graph/halo_exchange.h) and the symmetrization of the kNN edges across ranks.
    virtual std::vector<std::string> allToAll(const std::vector<std::string>& parts) = 0;

    // What this rank has handed to the collectives since it began: bytes reduced (the length of
    // every sumReduce() times sizeof(Scalar)), and the calls. The network carries a multiple of
    // the bytes that depends on the algorithm (docs/cluster.md gives the model).
    struct Traffic {
        std::uint64_t reducedBytes = 0;
        std::uint64_t reductions = 0;
        std::uint64_t otherBytes = 0; // gathered, broadcast and scattered payloads
        // Sent to other ranks by sendReceive() and allToAll(), and those calls.
        std::uint64_t exchangedBytes = 0;
        std::uint64_t exchanges = 0;
    };
    const Traffic& traffic() const { return m_traffic; }

protected:
    Traffic m_traffic;
};

// How the samples of a distributed factorization are split: this rank holds the columns
// [firstSample, firstSample + X.cols()) of the whole X, which has totalSamples columns. comm null:
// one process, the whole X (every helper below then does nothing).
struct SampleDistribution {
    Collectives* comm = nullptr;
    Eigen::Index totalSamples = 0;
    Eigen::Index firstSample = 0;

    bool active() const { return comm != nullptr; }
};

// The first column and count of rank r's samples. When every rank gets at least kSampleBlock
// samples, n is split in whole blocks of kSampleBlock (the first ranks taking one block more, the
// last the remainder): HALS cuts V's rows in blocks of that size and stops each block by its own
// change (methods/hals.h), so a block split over two ranks would stop otherwise than in one
// process. Below that, n is split as evenly as it goes, the first n mod N ranks taking one more.
inline constexpr Eigen::Index kSampleBlock = 64;
struct SampleRange {
    Eigen::Index first = 0;
    Eigen::Index count = 0;
};
// Inline: the MAT loader cuts its parts with it (MatLoadOptions::part), in programs that link
// no solver library too (the fuzz targets).
inline SampleRange sampleRange(Eigen::Index samples, int ranks, int rank)
{
    const Eigen::Index r = rank;
    if (samples >= kSampleBlock * ranks) {
        const Eigen::Index blocks = (samples + kSampleBlock - 1) / kSampleBlock;
        const Eigen::Index base = blocks / ranks, extra = blocks % ranks;
        const Eigen::Index first = (r * base + std::min(r, extra)) * kSampleBlock;
        const Eigen::Index last
            = std::min(samples, first + (base + (r < extra ? 1 : 0)) * kSampleBlock);
        return { first, last - first };
    }
    const Eigen::Index base = samples / ranks, extra = samples % ranks;
    return { r * base + std::min(r, extra), base + (r < extra ? 1 : 0) };
}

// The distribution that methods constructed on this thread take (their constructors read it): a
// solve runs distributed inside a DistributedScope, and as one process outside any. The scope is
// per thread, so the cells of a sweep running beside it are untouched.
SampleDistribution currentDistribution();

class DistributedScope {
public:
    explicit DistributedScope(const SampleDistribution& distribution);
    ~DistributedScope();
    DistributedScope(const DistributedScope&) = delete;
    DistributedScope& operator=(const DistributedScope&) = delete;

private:
    SampleDistribution m_previous;
};

// Each rank's `mine`, on every rank, in rank order (one sumReduce of a vector that is zero but
// at this rank's place).
std::vector<double> valuePerRank(Collectives& comm, double mine);

// Sums over the samples of every rank, in place (nothing in one process).
void sumOverSamples(const SampleDistribution& d, Matrix& M);
double sumOverSamples(const SampleDistribution& d, double value);
// The number of samples of the whole X: X.cols() in one process.
Eigen::Index totalSamples(const SampleDistribution& d, Eigen::Index localSamples);

} // namespace facet
