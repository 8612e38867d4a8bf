// SPDX-License-Identifier: GPL-3.0-or-later
#include "mpi/mpi_collectives.h"

#include <mpi.h>

#include <algorithm>
#include <climits>
#include <cstdint>
#include <cstdlib>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

namespace facet {

namespace {

MPI_Datatype scalarType()
{
    return std::is_same_v<Scalar, float> ? MPI_FLOAT : MPI_DOUBLE;
}

int checkedCount(std::size_t count, const char* what)
{
    if (count > std::size_t(INT_MAX))
        throw std::invalid_argument(std::string(what) + " of " + std::to_string(count)
            + " elements is more than one MPI call carries (2^31 - 1); use more ranks");
    return int(count);
}

class MpiCollectives final : public Collectives {
public:
    MpiCollectives()
    {
        MPI_Comm_dup(MPI_COMM_WORLD, &m_comm);
        MPI_Comm_rank(m_comm, &m_rank);
        MPI_Comm_size(m_comm, &m_size);
    }
    ~MpiCollectives() override { MPI_Comm_free(&m_comm); }

    int rank() const override { return m_rank; }
    int size() const override { return m_size; }

    // MPI_Reduce to rank 0, then MPI_Bcast of its sum: MPI_Allreduce may combine the parts in
    // another order on each rank (the standard allows it), and the stopping rules must see the
    // same objective everywhere. In pieces of at most 2^27 elements (1 GiB of doubles).
    void sumReduce(Scalar* data, std::size_t count) override
    {
        m_traffic.reducedBytes += count * sizeof(Scalar);
        ++m_traffic.reductions;
        constexpr std::size_t kPiece = std::size_t(1) << 27;
        for (std::size_t done = 0; done < count; done += kPiece) {
            const int n = int(std::min(kPiece, count - done));
            if (m_rank == 0)
                MPI_Reduce(MPI_IN_PLACE, data + done, n, scalarType(), MPI_SUM, 0, m_comm);
            else
                MPI_Reduce(data + done, nullptr, n, scalarType(), MPI_SUM, 0, m_comm);
            MPI_Bcast(data + done, n, scalarType(), 0, m_comm);
        }
    }

    Matrix gatherRows(const Matrix& local, int root) override
    {
        const long long mine = local.rows();
        std::vector<long long> rows(std::size_t(m_size), 0);
        MPI_Gather(&mine, 1, MPI_LONG_LONG, rows.data(), 1, MPI_LONG_LONG, root, m_comm);
        std::vector<int> counts(std::size_t(m_size), 0), offsets(std::size_t(m_size), 0);
        long long total = 0;
        if (m_rank == root)
            for (int r = 0; r < m_size; ++r) {
                counts[std::size_t(r)]
                    = checkedCount(std::size_t(rows[std::size_t(r)] * local.cols()), "a block");
                offsets[std::size_t(r)] = checkedCount(std::size_t(total * local.cols()), "rows");
                total += rows[std::size_t(r)];
            }
        std::vector<Scalar> buffer(std::size_t(m_rank == root ? total * local.cols() : 0));
        m_traffic.otherBytes += std::size_t(local.size()) * sizeof(Scalar);
        MPI_Gatherv(local.data(), checkedCount(std::size_t(local.size()), "a block"), scalarType(),
            buffer.data(), counts.data(), offsets.data(), scalarType(), root, m_comm);
        if (m_rank != root)
            return {};
        // Each block arrived column-major with its own row count: place it at its rows.
        Matrix out(Eigen::Index(total), local.cols());
        long long first = 0;
        for (int r = 0; r < m_size; ++r) {
            const Eigen::Index n = Eigen::Index(rows[std::size_t(r)]);
            out.middleRows(Eigen::Index(first), n) = Eigen::Map<const Matrix>(
                buffer.data() + offsets[std::size_t(r)], n, local.cols());
            first += n;
        }
        return out;
    }

    void broadcast(std::string& bytes, int root) override
    {
        unsigned long long size = bytes.size();
        MPI_Bcast(&size, 1, MPI_UNSIGNED_LONG_LONG, root, m_comm);
        bytes.resize(std::size_t(size));
        m_traffic.otherBytes += size;
        MPI_Bcast(
            bytes.data(), checkedCount(std::size_t(size), "a message"), MPI_BYTE, root, m_comm);
    }

    std::string scatter(const std::vector<std::string>& parts, int root) override
    {
        std::vector<int> counts(std::size_t(m_size), 0), offsets(std::size_t(m_size), 0);
        std::string all;
        if (m_rank == root) {
            for (int r = 0; r < m_size; ++r) {
                offsets[std::size_t(r)] = checkedCount(all.size(), "the scattered data");
                counts[std::size_t(r)] = checkedCount(parts.at(std::size_t(r)).size(), "a part");
                all += parts[std::size_t(r)];
            }
        }
        int mine = 0;
        MPI_Scatter(counts.data(), 1, MPI_INT, &mine, 1, MPI_INT, root, m_comm);
        std::string part(std::size_t(mine), '\0');
        m_traffic.otherBytes += std::size_t(mine);
        MPI_Scatterv(all.data(), counts.data(), offsets.data(), MPI_BYTE, part.data(), mine,
            MPI_BYTE, root, m_comm);
        return part;
    }

    std::string sendReceive(const std::string& bytes, int to, int from) override
    {
        unsigned long long outgoing = bytes.size(), incoming = 0;
        MPI_Sendrecv(&outgoing, 1, MPI_UNSIGNED_LONG_LONG, to, kSizeTag, &incoming, 1,
            MPI_UNSIGNED_LONG_LONG, from, kSizeTag, m_comm, MPI_STATUS_IGNORE);
        if (to != m_rank)
            m_traffic.exchangedBytes += outgoing;
        ++m_traffic.exchanges;
        std::string received(std::size_t(incoming), '\0');
        // In pieces of at most kBytePiece, posted apart: this rank sends ceil(outgoing / piece)
        // messages to `to`, which expects as many (it learnt the length), and receives
        // ceil(incoming / piece) from `from`. A loop pairing each send with a receive took as many
        // steps as the longer side, so where the two directions differ in pieces (a rank that
        // sends nothing but receives, as the data's digest passing down the ring) the ranks
        // waited for messages that were never sent.
        std::vector<MPI_Request> requests;
        for (std::size_t sent = 0; sent < outgoing; sent += kBytePiece) {
            requests.emplace_back();
            MPI_Isend(bytes.data() + sent, int(std::min<std::size_t>(kBytePiece, outgoing - sent)),
                MPI_BYTE, to, kDataTag, m_comm, &requests.back());
        }
        for (std::size_t got = 0; got < incoming; got += kBytePiece) {
            requests.emplace_back();
            MPI_Irecv(received.data() + got, int(std::min<std::size_t>(kBytePiece, incoming - got)),
                MPI_BYTE, from, kDataTag, m_comm, &requests.back());
        }
        MPI_Waitall(int(requests.size()), requests.data(), MPI_STATUSES_IGNORE);
        return received;
    }

    std::vector<std::string> allToAll(const std::vector<std::string>& parts) override
    {
        const std::size_t ranks = std::size_t(m_size);
        if (parts.size() != ranks)
            throw std::invalid_argument("allToAll needs one part per rank");
        std::vector<unsigned long long> outgoing(ranks), incoming(ranks);
        for (std::size_t q = 0; q < ranks; ++q)
            outgoing[q] = parts[q].size();
        MPI_Alltoall(outgoing.data(), 1, MPI_UNSIGNED_LONG_LONG, incoming.data(), 1,
            MPI_UNSIGNED_LONG_LONG, m_comm);
        std::vector<int> sendCounts(ranks), sendOffsets(ranks), receiveCounts(ranks),
            receiveOffsets(ranks);
        std::string all;
        std::size_t receiveTotal = 0;
        for (std::size_t q = 0; q < ranks; ++q) {
            sendOffsets[q] = checkedCount(all.size(), "the exchanged data");
            sendCounts[q] = checkedCount(parts[q].size(), "a part");
            all += parts[q];
            receiveOffsets[q] = checkedCount(receiveTotal, "the exchanged data");
            receiveCounts[q] = checkedCount(std::size_t(incoming[q]), "a part");
            receiveTotal += std::size_t(incoming[q]);
            if (int(q) != m_rank)
                m_traffic.exchangedBytes += outgoing[q];
        }
        ++m_traffic.exchanges;
        std::string received(receiveTotal, '\0');
        MPI_Alltoallv(all.data(), sendCounts.data(), sendOffsets.data(), MPI_BYTE, received.data(),
            receiveCounts.data(), receiveOffsets.data(), MPI_BYTE, m_comm);
        std::vector<std::string> out(ranks);
        for (std::size_t q = 0; q < ranks; ++q)
            out[q] = received.substr(std::size_t(receiveOffsets[q]), std::size_t(receiveCounts[q]));
        return out;
    }

private:
    static constexpr int kSizeTag = 40;
    static constexpr int kDataTag = 41;
    static constexpr std::size_t kBytePiece = std::size_t(1) << 30;

    MPI_Comm m_comm = MPI_COMM_NULL;
    int m_rank = 0;
    int m_size = 1;
};

} // namespace

std::unique_ptr<Collectives> makeMpiCollectives()
{
    return std::make_unique<MpiCollectives>();
}

void abortMpiJob(int exitCode)
{
    MPI_Abort(MPI_COMM_WORLD, exitCode);
    std::_Exit(exitCode); // MPI_Abort does not return; this keeps [[noreturn]] honest
}

} // namespace facet
