// SPDX-License-Identifier: GPL-3.0-or-later
#include "mpi/mpi_session.h"

#include <mpi.h>

#include <climits>
#include <list>
#include <stdexcept>
#include <string>

namespace facet {

namespace {

// Messages go out with MPI_Isend and stay here until MPI says their buffer is free: a large
// message waits for its receiver (rendezvous), and a blocking send there could wait on a rank
// that is itself sending.
class MpiCommunicator final : public Communicator {
public:
    MpiCommunicator()
    {
        MPI_Comm_dup(MPI_COMM_WORLD, &m_comm);
        MPI_Comm_rank(m_comm, &m_rank);
        MPI_Comm_size(m_comm, &m_size);
    }
    ~MpiCommunicator() override
    {
        for (Outgoing& o : m_outgoing)
            MPI_Wait(&o.request, MPI_STATUS_IGNORE);
        MPI_Comm_free(&m_comm);
    }

    int rank() const override { return m_rank; }
    int size() const override { return m_size; }

    void send(int to, int tag, std::string payload) override
    {
        if (to < 0 || to >= m_size || to == m_rank)
            throw std::invalid_argument("no rank " + std::to_string(to) + " to send to");
        if (payload.size() > std::size_t(INT_MAX))
            throw std::invalid_argument("a message of " + std::to_string(payload.size())
                + " bytes is larger than MPI's count allows");
        Outgoing& o = m_outgoing.emplace_back();
        o.payload = std::move(payload);
        MPI_Isend(o.payload.data(), int(o.payload.size()), MPI_BYTE, to, tag, m_comm, &o.request);
        completeSends();
    }

    std::optional<Message> tryReceive() override
    {
        completeSends();
        int arrived = 0;
        MPI_Status status;
        MPI_Iprobe(MPI_ANY_SOURCE, MPI_ANY_TAG, m_comm, &arrived, &status);
        if (!arrived)
            return std::nullopt;
        int count = 0;
        MPI_Get_count(&status, MPI_BYTE, &count);
        Message m { status.MPI_SOURCE, status.MPI_TAG, std::string(std::size_t(count), '\0') };
        MPI_Recv(m.payload.data(), count, MPI_BYTE, status.MPI_SOURCE, status.MPI_TAG, m_comm,
            MPI_STATUS_IGNORE);
        return m;
    }

private:
    struct Outgoing {
        std::string payload;
        MPI_Request request = MPI_REQUEST_NULL;
    };

    void completeSends()
    {
        m_outgoing.remove_if([](Outgoing& o) {
            int done = 0;
            MPI_Test(&o.request, &done, MPI_STATUS_IGNORE);
            return done != 0;
        });
    }

    MPI_Comm m_comm = MPI_COMM_NULL;
    int m_rank = 0;
    int m_size = 1;
    std::list<Outgoing> m_outgoing; // stable addresses: MPI holds the buffers until done
};

} // namespace

MpiSession::MpiSession()
{
    int provided = 0;
    if (MPI_Init_thread(nullptr, nullptr, MPI_THREAD_FUNNELED, &provided) != MPI_SUCCESS)
        throw std::runtime_error("MPI could not be initialised");
    m_communicator = std::make_unique<MpiCommunicator>();
}

MpiSession::~MpiSession()
{
    m_communicator.reset();
    MPI_Finalize();
}

Communicator& MpiSession::communicator()
{
    return *m_communicator;
}

} // namespace facet
