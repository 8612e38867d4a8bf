// SPDX-License-Identifier: GPL-3.0-or-later
#include "graph/halo_exchange.h"

#include <algorithm>
#include <cstring>
#include <stdexcept>

namespace facet {

namespace {

using Index = Eigen::Index;

// The rows of M as bytes, row-major.
std::string rowsToBytes(const Matrix& M, const std::vector<Index>& rows)
{
    std::string bytes(rows.size() * std::size_t(M.cols()) * sizeof(Scalar), '\0');
    Scalar* out = reinterpret_cast<Scalar*>(bytes.data());
    for (const Index r : rows)
        for (Index c = 0; c < M.cols(); ++c)
            *out++ = M(r, c);
    return bytes;
}

} // namespace

int ownerOfSample(Index j, Index samples, int ranks)
{
    // Ranges are contiguous and in rank order: binary search over their first samples.
    int lo = 0, hi = ranks - 1;
    while (lo < hi) {
        const int mid = (lo + hi + 1) / 2;
        if (sampleRange(samples, ranks, mid).first <= j)
            lo = mid;
        else
            hi = mid - 1;
    }
    return lo;
}

std::string indicesToBytes(const std::vector<Index>& indices)
{
    return { reinterpret_cast<const char*>(indices.data()), indices.size() * sizeof(Index) };
}

std::vector<Index> bytesToIndices(const std::string& bytes)
{
    std::vector<Index> out(bytes.size() / sizeof(Index));
    if (!out.empty())
        std::memcpy(out.data(), bytes.data(), out.size() * sizeof(Index));
    return out;
}

HaloExchange::HaloExchange(
    const SampleDistribution& distribution, Index localSamples, const std::vector<Index>& halo)
    : m_comm(distribution.comm)
    , m_first(distribution.firstSample)
    , m_local(localSamples)
    , m_halo(halo)
{
    if (!m_comm)
        throw std::logic_error("a halo exchange needs the ranks' collectives");
    const int ranks = m_comm->size(), me = m_comm->rank();
    std::vector<std::vector<Index>> requests(static_cast<std::size_t>(ranks));
    m_receive.assign(std::size_t(ranks), 0);
    for (const Index j : m_halo) {
        const int owner = ownerOfSample(j, distribution.totalSamples, ranks);
        if (owner == me)
            throw std::logic_error("a halo sample belongs to this rank");
        requests[std::size_t(owner)].push_back(j);
        ++m_receive[std::size_t(owner)];
        (j < m_first ? m_before : m_after) += 1;
    }
    std::vector<std::string> asked;
    for (const std::vector<Index>& r : requests)
        asked.push_back(indicesToBytes(r));
    const std::vector<std::string> wanted = m_comm->allToAll(asked);
    for (const std::string& w : wanted) {
        std::vector<Index> rows = bytesToIndices(w);
        for (Index& r : rows) {
            r -= m_first;
            if (r < 0 || r >= m_local)
                throw std::logic_error("a rank asked for a sample this rank does not hold");
        }
        m_send.push_back(std::move(rows));
    }
}

Index HaloExchange::globalIndex(Index e) const
{
    if (e < m_before)
        return m_halo[std::size_t(e)];
    if (e < m_before + m_local)
        return m_first + e - m_before;
    return m_halo[std::size_t(e - m_local)];
}

Index HaloExchange::extendedIndex(Index j) const
{
    if (j >= m_first && j < m_first + m_local)
        return m_before + (j - m_first);
    const Index h = Index(std::lower_bound(m_halo.begin(), m_halo.end(), j) - m_halo.begin());
    if (h == Index(m_halo.size()) || m_halo[std::size_t(h)] != j)
        throw std::logic_error("a sample outside this rank's halo");
    return h < m_before ? h : h + m_local;
}

Matrix HaloExchange::extend(const Matrix& local) const
{
    std::vector<std::string> parts;
    for (const std::vector<Index>& rows : m_send)
        parts.push_back(rowsToBytes(local, rows));
    const std::vector<std::string> received = m_comm->allToAll(parts);
    const Index cols = local.cols();
    Matrix out(extendedRows(), cols);
    out.middleRows(m_before, m_local) = local;
    // The ranks before this one hold the samples before its own, so the rows arrive, in rank
    // order, in the halo's global order: before this rank's rows, then after them.
    Index row = 0;
    for (std::size_t q = 0; q < received.size(); ++q) {
        if (int(q) == m_comm->rank()) {
            row = m_before + m_local;
            continue;
        }
        const Index count = m_receive[q];
        if (received[q].size() != std::size_t(count * cols) * sizeof(Scalar))
            throw std::logic_error("the halo exchange received other rows than it planned");
        const Scalar* in = reinterpret_cast<const Scalar*>(received[q].data());
        for (Index r = 0; r < count; ++r, ++row)
            for (Index c = 0; c < cols; ++c)
                out(row, c) = *in++;
    }
    return out;
}

} // namespace facet
