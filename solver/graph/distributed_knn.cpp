// SPDX-License-Identifier: GPL-3.0-or-later
#include "graph/distributed_knn.h"

#include "core/openmp.h"
#include "core/update.h"
#include "graph/halo_exchange.h"
#include "graph/neighbor_candidates.h"

#include <algorithm>
#include <cstring>
#include <limits>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace facet {
namespace {

using Index = Eigen::Index;

// A block of samples on the ring: its first global index, then its columns.
std::string blockToBytes(Index first, MatrixCRef B)
{
    const Index header[3] = { first, B.rows(), B.cols() };
    std::string bytes(sizeof header + std::size_t(B.size()) * sizeof(Scalar), '\0');
    std::memcpy(bytes.data(), header, sizeof header);
    for (Index j = 0; j < B.cols(); ++j)
        std::memcpy(bytes.data() + sizeof header + std::size_t(j * B.rows()) * sizeof(Scalar),
            B.col(j).data(), std::size_t(B.rows()) * sizeof(Scalar));
    return bytes;
}

Index blockFromBytes(const std::string& bytes, Matrix& B)
{
    Index header[3];
    if (bytes.size() < sizeof header)
        throw std::logic_error("a block on the ring is too short");
    std::memcpy(header, bytes.data(), sizeof header);
    if (bytes.size() != sizeof header + std::size_t(header[1] * header[2]) * sizeof(Scalar))
        throw std::logic_error("a block on the ring has another size than its header says");
    B.resize(header[1], header[2]);
    std::memcpy(B.data(), bytes.data() + sizeof header, std::size_t(B.size()) * sizeof(Scalar));
    return header[0];
}

// The default heat width: meanPairwiseDistance() over the columns one process samples, gathered
// on rank 0 in sample order (the ranks hold consecutive samples) and broadcast.
double distributedMeanDistance(MatrixCRef X, const KnnOptions& options, const SampleDistribution& d)
{
    Collectives& comm = *d.comm;
    std::vector<Index> mine;
    for (const Index j : pairwiseSampleIndices(d.totalSamples, options.seed))
        if (j >= d.firstSample && j < d.firstSample + X.cols())
            mine.push_back(j - d.firstSample);
    Matrix rows(Index(mine.size()), X.rows());
    for (std::size_t a = 0; a < mine.size(); ++a)
        rows.row(Index(a)) = X.col(mine[a]).transpose();
    const Matrix all = comm.gatherRows(rows, 0);
    std::string bytes;
    if (comm.rank() == 0) {
        const Matrix sampled = all.transpose();
        const double t = meanPairwiseDistance(sampled, options.seed);
        bytes.assign(reinterpret_cast<const char*>(&t), sizeof t);
    }
    comm.broadcast(bytes, 0);
    double t = 0;
    std::memcpy(&t, bytes.data(), sizeof t);
    return t;
}

} // namespace

NeighborTable distributedNeighborTable(
    MatrixCRef X, int count, const SampleDistribution& distribution, const StageProgress& progress)
{
    using namespace neighbor_search;
    Collectives& comm = *distribution.comm;
    const Index n = distribution.totalSamples, local = X.cols(), first = distribution.firstSample;
    NeighborTable table = startTable(X, count, n);
    const Vector norm2 = X.colwise().squaredNorm().transpose();
    // nearestNeighborTable()'s rounding bound, with the largest norm over every rank's samples.
    const std::vector<double> largest
        = valuePerRank(comm, local > 0 ? double(norm2.maxCoeff()) : 0.0);
    const Vector slack = screeningSlack(X.rows(), norm2, Scalar(std::ranges::max(largest)));

    std::vector<CandidateList> lists(static_cast<std::size_t>(local));
    Matrix block = X; // the block on the ring, this rank's own first
    Index blockFirst = first;
    const int ranks = comm.size(), me = comm.rank();
    const Index queryTiles = (local + kTile - 1) / kTile;
    for (int step = 0; step < ranks; ++step) {
        if (step > 0)
            blockFirst = blockFromBytes(comm.sendReceive(blockToBytes(blockFirst, block),
                                            (me + 1) % ranks, (me + ranks - 1) % ranks),
                block);
        const Search search { X, std::size_t(count), slack, block, blockFirst };
        const Vector blockNorm2 = block.colwise().squaredNorm().transpose();
        const Index blockTiles = (block.cols() + kTile - 1) / kTile;
        // Each thread owns whole tiles of queries (their lists), over every tile of the block.
#pragma omp parallel for schedule(dynamic, 1) num_threads(omp::maxThreads())
        for (Index I = 0; I < queryTiles; ++I) {
            const Index i0 = I * kTile, rowsI = std::min(kTile, local - i0);
            Matrix T;
            for (Index J = 0; J < blockTiles; ++J) {
                const Index j0 = J * kTile, colsJ = std::min(kTile, block.cols() - j0);
                T.noalias() = X.middleCols(i0, rowsI).transpose() * block.middleCols(j0, colsJ);
                for (Index b = 0; b < colsJ; ++b) {
                    const Index j = blockFirst + j0 + b;
                    for (Index a = 0; a < rowsI; ++a) {
                        const Index i = i0 + a;
                        if (first + i == j)
                            continue;
                        lists[std::size_t(i)].offer(
                            search, i, norm2(i) - 2 * T(a, b) + blockNorm2(j0 + b), j);
                    }
                }
            }
            // The block moves on: rank its candidates exactly now.
            for (Index a = 0; a < rowsI; ++a) {
                lists[std::size_t(i0 + a)].cut(search, i0 + a);
                lists[std::size_t(i0 + a)].rank(search, i0 + a);
            }
        }
        reportProgress(progress, double(step + 1) / double(ranks));
    }
    const Search done { X, std::size_t(count), slack, X, first };
#pragma omp parallel for schedule(static) num_threads(omp::maxThreads())
    for (Index i = 0; i < local; ++i)
        selectNeighbors(done, i, lists[std::size_t(i)], table);
    return table;
}

Graph buildDistributedKnnGraph(MatrixCRef X, const KnnOptions& options, const SampleDistribution& d)
{
    if (!d.comm)
        throw std::logic_error("buildDistributedKnnGraph needs the ranks' collectives");
    Collectives& comm = *d.comm;
    const Index n = d.totalSamples, local = X.cols(), first = d.firstSample;
    requireKnnOptions(options, n);
    if (options.search == KnnSearch::Approximate)
        throw std::invalid_argument("the approximate neighbour search does not run distributed: "
                                    "use the exact search (exact or auto)");
    requireFinite(X);
    const double t = heatWidth(options, [&] { return distributedMeanDistance(X, options, d); });
    const NeighborTable table = distributedNeighborTable(X, options.p, d, options.progress);

    // The directed pairs (this rank's sample, its neighbour), global indices: i's own list, and
    // every pair (j, i) another rank's sample i sent because j is among its neighbours.
    const int ranks = comm.size();
    std::vector<std::pair<Index, Index>> pairs;
    std::vector<std::vector<Index>> outgoing(static_cast<std::size_t>(ranks));
    for (Index a = 0; a < local; ++a)
        for (Index h = 0; h < options.p; ++h) {
            const Index i = first + a, j = table.index(h, a);
            pairs.emplace_back(i, j);
            if (j >= first && j < first + local)
                pairs.emplace_back(j, i);
            else {
                std::vector<Index>& to = outgoing[std::size_t(ownerOfSample(j, n, ranks))];
                to.push_back(j);
                to.push_back(i);
            }
        }
    std::vector<std::string> parts;
    for (const std::vector<Index>& o : outgoing)
        parts.push_back(indicesToBytes(o));
    for (const std::string& bytes : comm.allToAll(parts)) {
        const std::vector<Index> received = bytesToIndices(bytes);
        for (std::size_t e = 0; e + 1 < received.size(); e += 2)
            pairs.emplace_back(received[e], received[e + 1]);
    }
    // By (sample, neighbour): each column's neighbours in global order, each edge once.
    std::sort(pairs.begin(), pairs.end());
    pairs.erase(std::unique(pairs.begin(), pairs.end()), pairs.end());

    std::vector<Index> halo;
    for (const auto& [i, j] : pairs)
        if (j < first || j >= first + local)
            halo.push_back(j);
    std::sort(halo.begin(), halo.end());
    halo.erase(std::unique(halo.begin(), halo.end()), halo.end());
    auto exchange = std::make_shared<const HaloExchange>(d, local, halo);

    // Non-binary weights need the halo's columns of X: fetched once, as rows of X^T.
    Matrix columns; // m x extended rows
    Vector norms;
    if (options.weight != GraphWeight::Binary) {
        columns = exchange->extend(Matrix(X.transpose())).transpose();
        norms = columns.colwise().norm().transpose();
    }
    std::vector<Eigen::Triplet<Scalar, Index>> triplets;
    triplets.reserve(pairs.size());
    for (const auto& [i, j] : pairs) {
        const Index ei = exchange->extendedIndex(i), ej = exchange->extendedIndex(j);
        Scalar w = 1;
        if (options.weight != GraphWeight::Binary) {
            const Index lo = i < j ? ei : ej, hi = i < j ? ej : ei;
            w = knnEdgeWeight(
                options.weight, t, columns.col(lo), columns.col(hi), norms(lo), norms(hi));
        }
        triplets.emplace_back(ej, i - first, w);
    }
    Graph graph;
    graph.S.resize(exchange->extendedRows(), local);
    graph.S.setFromTriplets(triplets.begin(), triplets.end());
    graph.S.makeCompressed();
    // degree_i = sum_j s_ij over i's neighbours in global order, as one process's S 1 adds it.
    graph.degree = Vector::Zero(local);
    for (Index a = 0; a < local; ++a)
        for (SparseMatrix::InnerIterator it(graph.S, a); it; ++it)
            graph.degree(a) += it.value();
    graph.halo = std::move(exchange);
    return graph;
}

} // namespace facet
