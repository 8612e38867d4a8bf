// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

namespace facet::cli {

// How this facet-cli was started: alone, or as one of the processes of a parallel launcher
// (Open MPI's mpirun, or Slurm's srun), read from the variables the launcher sets. Reading them
// costs nothing and needs no MPI, so a facet-cli started alone never initialises MPI.
struct ProcessLaunch {
    bool parallel = false; // started by mpirun or srun (even as a single process)
    int processes = 0; // the processes started together; 0 when the launcher does not say
};

// OMPI_COMM_WORLD_SIZE (mpirun), PMIX_RANK (srun --mpi=pmix), PMI_RANK / PMI_SIZE (PMI-2);
// the count from OMPI_COMM_WORLD_SIZE, PMI_SIZE or Slurm's SLURM_STEP_NUM_TASKS.
ProcessLaunch processLaunch();

} // namespace facet::cli
