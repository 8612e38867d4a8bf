// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "distributed/communicator.h"

#include <memory>

namespace facet {

// MPI for a facet-cli that mpirun or srun started (cli/process_launch.h), for the commands that
// run distributed (`sweep`). A facet-cli started alone never creates one, so it never loads
// Open MPI's components or starts its singleton daemon (about a second) and prints nothing of
// MPI's. Only this file's implementation includes <mpi.h>.
class MpiSession {
public:
    // MPI_Init_thread with MPI_THREAD_FUNNELED: only the thread that creates the session talks
    // to MPI, through communicator(); worker threads hand their messages to it.
    MpiSession();
    // Completes the sends still in flight, then MPI_Finalize.
    ~MpiSession();
    MpiSession(const MpiSession&) = delete;
    MpiSession& operator=(const MpiSession&) = delete;

    // The ranks of MPI_COMM_WORLD (a duplicate, so no library's messages mix with these).
    Communicator& communicator();

private:
    std::unique_ptr<Communicator> m_communicator;
};

} // namespace facet
