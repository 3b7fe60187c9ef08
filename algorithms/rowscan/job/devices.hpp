// SPDX-License-Identifier: Apache-2.0
// rowscan/job/devices.hpp: which processor runs a job (--devices), and the input size below which
// the host answers before a GPU could have started. No Thrust here: the CLI decides with it which
// engine runs the job (rowscan/engine.hpp). `--devices auto` gives small inputs and machines without
// a usable GPU to the host engine, so neither pays for, nor needs, a CUDA context; an input known to
// hold no bytes goes to the host engine whatever --devices names (app/devices.cpp).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace rowscan::job {

/// This process's GPU when none is named: under mpirun the node-local rank's (rank % GPUs), else the first.
constexpr int default_gpu = -1;

/// --devices: auto (the default), cpu, gpu (this process's GPU: default_gpu), gpu:N, gpu:N,M,... (a
/// worker for each GPU named; one named twice gets two), gpu:all (a worker for every GPU), or cpu+gpu
/// (host workers from the start and this process's GPU from when it is ready: inputs/hand_over.hpp).
struct device_choice {
  enum kind_t { automatic, cpu, gpu, cpu_and_gpu } kind = automatic;
  std::vector<int> gpus;  ///< the GPUs named (gpu:N,...); empty: this process's GPU, or all of them with all_gpus
  bool all_gpus = false;  ///< gpu:all

  /// The GPU a job without several workers runs on: the first named, or default_gpu.
  int first_gpu() const { return gpus.empty() ? default_gpu : gpus.front(); }
};

/// Parses "auto", "cpu", "gpu", "gpu:N", "gpu:N,M,...", "gpu:all" or "cpu+gpu"; nothing for anything else.
std::optional<device_choice> parse_device_choice(std::string_view text);

/// Bytes of text one host worker folds in the time a GPU takes to start and catch up: below it the host's
/// cores answer first, CUDA's start-up being a fixed cost before the GPU's first byte, and above it the
/// GPU does (docs/performance.md, "Which processor runs a job"; docs/data/devices-h100.csv).
constexpr std::uint64_t host_bytes_per_worker_while_a_gpu_starts = std::uint64_t{64} << 20;

/// From this many cores, host workers leave one core to the driver's thread when nothing names their
/// count. That thread maps each block's window and hands it to a worker (job::run_blocks); with a
/// worker on every core it waits for a core each time it wakes, and the workers wait for it. From 16
/// cores on a spared core measured faster; below, a worker is a larger share of the machine than the
/// driver's waits cost (docs/performance.md, "A core for the driver's thread";
/// docs/data/host_driver_core-h100x2.csv).
constexpr unsigned cores_that_spare_one_for_the_driver = 16;

/// Host workers on `cores` cores when nothing names their count: one per core, less one from
/// cores_that_spare_one_for_the_driver on.
constexpr unsigned default_host_workers(unsigned cores) {
  return cores >= cores_that_spare_one_for_the_driver ? cores - 1 : (cores == 0 ? 1 : cores);
}

/// Host workers this process would run: the limit of limit_host_threads if one was set, else
/// OMP_NUM_THREADS, else default_host_workers of the cores this process may run on.
unsigned host_worker_count();

/// --threads N and ROWSCAN_THREADS=N: n compute threads wherever this process would otherwise take
/// OMP_NUM_THREADS or one per core: the host workers, and the OpenMP teams of the calling thread
/// (omp_set_num_threads, so call it on the main thread before any work). 0 lifts the limit.
void limit_host_threads(unsigned n);
/// The limit set by limit_host_threads; 0 if none.
unsigned host_thread_limit();

/// Inputs up to this many bytes run on the host under --devices auto: host_workers workers finish
/// them before a GPU would have begun.
constexpr std::uint64_t small_input_bytes(unsigned host_workers) {
  return host_bytes_per_worker_while_a_gpu_starts * host_workers;
}

/// Whether the GPUs that join the host's workers on one queue (--devices cpu+gpu, inputs/hand_over.hpp)
/// relieve them: every host worker folds while the GPUs start, and takes no block once a GPU has taken
/// its first. A GPU is fed by reader threads that copy the file at the rate of the host's memory, and
/// needs every core for it: host workers beside it held 4 of the 16 cores and made the run 1.4x slower
/// than the GPU alone, while a core folds 0.4 GB/s against the GPU's 20 (docs/performance.md, "Every
/// processor on one queue"; docs/data/hand-over-h100.csv). ROWSCAN_HAND_OVER=keep keeps
/// max_host_workers_beside_gpus of them to the end instead, for comparisons.
bool gpus_relieve_host_workers();

/// Host workers beside the GPUs to the end of a run (ROWSCAN_HAND_OVER=keep): more took cores that the
/// GPUs' start-up and their reader threads need, and made the run slower (docs/data/hand-over-h100.csv).
constexpr unsigned max_host_workers_beside_gpus = 4;

/// Whether --devices auto, on a machine with a usable GPU and an input larger than small_input_bytes, runs
/// as cpu+gpu does (the host's workers from the start, the GPUs relieving them once ready) rather than on
/// the GPUs alone. Off: on an H100 machine the relief ran as fast as the GPU alone, not faster (the GPU,
/// starting on cores the host's workers keep busy, joins later by what they fold meanwhile), and host
/// workers kept to the end were slower (docs/performance.md, "Every processor on one queue").
constexpr bool auto_starts_on_the_host = false;

/// Records this process's rank among those of its node (MPI's node-local rank): default_gpu is then
/// GPU local_rank % (the node's GPUs). Touches no device.
void set_node_local_rank(int local_rank);

/// This process's rank among those of its node, as set_node_local_rank recorded it (0 without MPI).
int node_local_rank();

}  // namespace rowscan::job
