// SPDX-License-Identifier: GPL-3.0-or-later
// N ranks in one process, each used by a thread of its own, for testing the distributed sweep's
// protocol without MPI (and under the sanitizers, which build without it): a message is moved
// into the receiver's queue, in the order it was sent.
#pragma once

#include "distributed/communicator.h"

#include <deque>
#include <memory>
#include <mutex>
#include <stdexcept>
#include <vector>

namespace facet::testing {

class InProcessGroup {
public:
    explicit InProcessGroup(int size)
    {
        for (int r = 0; r < size; ++r)
            m_ranks.push_back(std::make_unique<Rank>(*this, r));
    }
    Communicator& rank(int r) { return *m_ranks.at(std::size_t(r)); }
    int size() const { return int(m_ranks.size()); }

private:
    class Rank final : public Communicator {
    public:
        Rank(InProcessGroup& group, int rank)
            : m_group(group)
            , m_rank(rank)
        {
        }
        int rank() const override { return m_rank; }
        int size() const override { return m_group.size(); }
        void send(int to, int tag, std::string payload) override
        {
            if (to < 0 || to >= size() || to == m_rank)
                throw std::invalid_argument("no rank to send to");
            Rank& receiver = *m_group.m_ranks[std::size_t(to)];
            const std::lock_guard lock(receiver.m_mutex);
            receiver.m_inbox.push_back({ m_rank, tag, std::move(payload) });
        }
        std::optional<Message> tryReceive() override
        {
            const std::lock_guard lock(m_mutex);
            if (m_inbox.empty())
                return std::nullopt;
            Message m = std::move(m_inbox.front());
            m_inbox.pop_front();
            return m;
        }

    private:
        InProcessGroup& m_group;
        const int m_rank;
        std::mutex m_mutex;
        std::deque<Message> m_inbox;
    };

    std::vector<std::unique_ptr<Rank>> m_ranks;
};

} // namespace facet::testing
