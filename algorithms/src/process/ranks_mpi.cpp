// SPDX-License-Identifier: Apache-2.0
// rowscan/process/ranks.hpp over MPI (ROWSCAN_WITH_MPI): joined only when mpirun started the process, so the plain
// CLI never needs an MPI runtime to be running.
#include "rowscan/process/ranks.hpp"

#include "rowscan/inputs/partial_wire.hpp"

#include "rowscan/job/devices.hpp"

#include <mpi.h>

#include <climits>
#include <cstdint>
#include <cstdlib>
#include <iostream>
#include <streambuf>

namespace rowscan::ranks {
namespace {

/// Whether this process is in an MPI job. Asked of MPI rather than kept: the CUDA build links this file
/// twice (in the tool's copy for each system), and only the first copy's start runs.
bool joined() {
  int initialized = 0, finalized = 0;
  MPI_Initialized(&initialized);
  MPI_Finalized(&finalized);
  return initialized != 0 && finalized == 0;
}

/// Whether a launcher of MPI jobs started this process: Open MPI, MPICH/Hydra and Slurm's PMI say so
/// in the environment. Only then is MPI_Init called (a singleton MPI_Init may start a daemon).
bool launched_by_mpirun() {
  for (char const* name : {"OMPI_COMM_WORLD_SIZE", "PMIX_RANK", "PMI_RANK", "PMI_SIZE"}) {
    if (std::getenv(name) != nullptr) return true;
  }
  return false;
}

/// Discards what the other ranks would print: rank 0 speaks for the run.
class null_buffer : public std::streambuf {
 protected:
  int overflow(int c) override { return traits_type::not_eof(c); }
};

void send_bytes(std::string const& bytes, int to) {
  std::uint64_t const size = bytes.size();
  MPI_Send(&size, 1, MPI_UINT64_T, to, 0, MPI_COMM_WORLD);
  // Partial answers are kilobytes to megabytes; cut anything larger into INT_MAX pieces all the same.
  for (std::uint64_t at = 0; at < size; at += INT_MAX) {
    int const n = static_cast<int>(std::min<std::uint64_t>(INT_MAX, size - at));
    MPI_Send(bytes.data() + at, n, MPI_CHAR, to, 1, MPI_COMM_WORLD);
  }
}

std::string receive_bytes(int from) {
  std::uint64_t size = 0;
  MPI_Recv(&size, 1, MPI_UINT64_T, from, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  std::string bytes(size, '\0');
  for (std::uint64_t at = 0; at < size; at += INT_MAX) {
    int const n = static_cast<int>(std::min<std::uint64_t>(INT_MAX, size - at));
    MPI_Recv(bytes.data() + at, n, MPI_CHAR, from, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  }
  return bytes;
}

}  // namespace

void start(int& argc, char**& argv) {
  if (!launched_by_mpirun()) return;
  int threads = 0;  // the job driver's threads never call MPI: only the main thread does
  MPI_Init_thread(&argc, &argv, MPI_THREAD_FUNNELED, &threads);
  int const my_rank = rank();
  inputs::keep_freed_buffers_mapped();  // the merge tree's steps reuse their buffers (rowscan/inputs/partial_wire.hpp)
  // One GPU per rank: the node-local rank picks it among the node's GPUs (gpu_runtime::use_gpu).
  MPI_Comm node;
  MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, my_rank, MPI_INFO_NULL, &node);
  int local_rank = 0;
  MPI_Comm_rank(node, &local_rank);
  MPI_Comm_free(&node);
  job::set_node_local_rank(local_rank);  // the GPU is chosen with the job (--devices; devices.hpp)
  if (my_rank != 0) {
    static null_buffer silent;
    std::cerr.rdbuf(&silent);
  }
}

int finish(int code) {
  if (!joined()) return code;
  int agreed = code;
  MPI_Allreduce(&code, &agreed, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
  MPI_Finalize();
  return agreed;
}

char const* built_with() { return "MPI ranks (mpirun -np N)"; }
bool in_mpi_job() { return joined(); }

int rank() {
  int my_rank = 0;
  if (joined()) MPI_Comm_rank(MPI_COMM_WORLD, &my_rank);
  return my_rank;
}

int count() {
  int ranks = 1;
  if (joined()) MPI_Comm_size(MPI_COMM_WORLD, &ranks);
  return ranks;
}

std::string broadcast(std::string const& bytes) {
  if (count() == 1) return bytes;
  std::uint64_t size = bytes.size();
  MPI_Bcast(&size, 1, MPI_UINT64_T, 0, MPI_COMM_WORLD);
  std::string out = rank() == 0 ? bytes : std::string(size, '\0');
  for (std::uint64_t at = 0; at < size; at += INT_MAX) {
    int const n = static_cast<int>(std::min<std::uint64_t>(INT_MAX, size - at));
    MPI_Bcast(out.data() + at, n, MPI_CHAR, 0, MPI_COMM_WORLD);
  }
  return out;
}

std::string merge_to_root(std::string mine, std::function<std::string(std::string const&, std::string const&)> const& merge) {
  // Step s: ranks that are odd multiples of s send to the rank s below them and are done; the others
  // merge in what the rank s above them holds (later in input order, so it goes second).
  for (int step = 1; step < count(); step *= 2) {
    if (rank() % (2 * step) == step) {
      send_bytes(mine, rank() - step);
      return {};
    }
    if (rank() + step < count()) mine = merge(mine, receive_bytes(rank() + step));
  }
  return mine;
}

std::vector<std::string> gather_to_root(std::string const& mine) {
  if (count() == 1) return {mine};
  if (rank() != 0) {
    send_bytes(mine, 0);
    return {};
  }
  std::vector<std::string> all{mine};
  for (int from = 1; from < count(); ++from) all.push_back(receive_bytes(from));
  return all;
}

void barrier() {
  if (count() > 1) MPI_Barrier(MPI_COMM_WORLD);
}

}  // namespace rowscan::ranks
