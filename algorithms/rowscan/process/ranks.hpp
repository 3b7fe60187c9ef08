// SPDX-License-Identifier: Apache-2.0
// rowscan/process/ranks.hpp: the processes of one run. Under `mpirun -np N` (a build with ROWSCAN_WITH_MPI) they
// are MPI ranks; otherwise there is one. The commands use these calls and nothing of MPI itself.
//
// Rank 0 alone writes stdout and stderr: the other ranks' std::cerr is silenced, and whatever they
// find is sent to rank 0 with their partial answers. Every rank exits with the largest exit code of
// all (finish), so a failure anywhere is the failure of the run.
#pragma once

#include <functional>
#include <string>
#include <vector>

namespace rowscan::ranks {

/// Joins the MPI job when the process was started by mpirun (MPI_Init), otherwise does nothing; picks
/// this rank's GPU from its node-local rank under CUDA. Call first thing in main.
void start(int& argc, char**& argv);

/// The exit code every rank agrees on (the largest of their codes); leaves the MPI job (MPI_Finalize).
int finish(int code);

/// What this build can run as ranks: "MPI ranks (mpirun -np N)", or "" in a build without MPI.
char const* built_with();

/// Whether this process joined an MPI job (start found a launcher): false without MPI.
bool in_mpi_job();

int rank();   ///< this process's rank, 0 without MPI
int count();  ///< the number of ranks, 1 without MPI
inline bool is_root() { return rank() == 0; }

/// Rank 0's bytes, on every rank.
std::string broadcast(std::string const& bytes);

/// Merges every rank's bytes in a binomial tree, in rank order (merge(earlier, later)); the result on
/// rank 0, an empty string elsewhere. merge must be associative.
std::string merge_to_root(std::string mine, std::function<std::string(std::string const&, std::string const&)> const& merge);

/// Every rank's bytes, in rank order, on rank 0 (empty elsewhere).
std::vector<std::string> gather_to_root(std::string const& mine);

/// Waits for every rank (before timing a collective step).
void barrier();

}  // namespace rowscan::ranks
