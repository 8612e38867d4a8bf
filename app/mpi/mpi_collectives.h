// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/collectives.h"

#include <memory>

namespace facet {

// The solver's collectives (core/collectives.h) over the ranks of MPI_COMM_WORLD (a duplicate of
// it, apart from the sweep's messages). MPI must be initialised (mpi/mpi_session.h) and stay so
// while the result lives.
std::unique_ptr<Collectives> makeMpiCollectives();

// Ends every rank of the job (MPI_Abort): for a rank that fails inside a distributed solve, where
// the others wait for it in a collective it will never join.
[[noreturn]] void abortMpiJob(int exitCode);

} // namespace facet
