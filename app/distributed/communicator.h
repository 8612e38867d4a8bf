// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <optional>
#include <stdexcept>
#include <string>

namespace facet {

// A message between the processes of a distributed run: bytes, with the rank that sent them and
// a tag saying what they are.
struct Message {
    int source = 0;
    int tag = 0;
    std::string payload;
};

// The processes that share a job (`mpirun -np N facet-cli sweep ...`), numbered 0 .. size() - 1,
// and the messages between them. Code above this interface never names MPI: facet_app and
// facet_cli_lib see only this, the MPI implementation lives beside the CLI (app/mpi/), and a
// process started alone talks to no one (SingleProcessCommunicator).
//
// The sweep needs point-to-point messages only: rank 0 hands cells out and collects results
// (distributed/distributed_sweep.h). The distributed factorization (issue 40, item 3) will add
// the collectives it needs here: the sum of a matrix over the ranks, gathering and exchanging
// row blocks.
//
// Every call is made from one thread, the one that created the communicator (MPI's
// MPI_THREAD_FUNNELED); other threads hand their messages to it.
class Communicator {
public:
    virtual ~Communicator() = default;

    virtual int rank() const = 0;
    virtual int size() const = 0;

    // Queues `payload` for rank `to` (not this one) and returns without waiting for it to be
    // received. Messages from one rank to another arrive in the order they were sent.
    virtual void send(int to, int tag, std::string payload) = 0;
    // The next message that has arrived for this rank from any rank with any tag; nullopt when
    // none has. Never blocks.
    virtual std::optional<Message> tryReceive() = 0;
};

// One process alone: rank 0 of 1. There is no one to send to.
class SingleProcessCommunicator final : public Communicator {
public:
    int rank() const override { return 0; }
    int size() const override { return 1; }
    void send(int to, int, std::string) override
    {
        throw std::invalid_argument(
            "rank " + std::to_string(to) + " does not exist: this process runs alone");
    }
    std::optional<Message> tryReceive() override { return std::nullopt; }
};

} // namespace facet
