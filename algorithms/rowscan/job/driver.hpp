// SPDX-License-Identifier: Apache-2.0
// rowscan/job/driver.hpp: the job driver's side on one Thrust system (rowscan/system.hpp): the devices and
// contexts a run's workers use, and the lanes a block reaches them through; the driver itself is compiled
// once (rowscan/job/run_blocks.hpp), and what it is given and reports is rowscan/job/run_report.hpp.
//
//   run_blocks (compiled once) --block_queue--> a lane of this system's group (system_lanes):
//   CUDA:  a GPU worker's lane: the ready blocks that fill a device slot, copied while the other slot is folded
//   host:  a host worker's lane: one block, folded where it lies (a copy of it where a GPU may join)
//          --block_worker.fold(text)--> the worker's partial answer + the text's tally (in halves if memory runs out)
//
// A workload supplies its block composition (a block_worker), its partial answer with its merge,
// and its formatting (rowscan/job/lent_workers.hpp lends its workers to a run); the driver owns how the
// input is cut and moved, this side how a block is folded on the system and retried in halves.
#pragma once

#include "rowscan/gpu_runtime/gpus.hpp"
#include "rowscan/io/chunked_reader.hpp"
#include "rowscan/job/block_queue.hpp"
#include "rowscan/job/block_worker.hpp"
#include "rowscan/job/one_thread_scope.hpp"
#include "rowscan/job/run_blocks.hpp"
#include "rowscan/job/run_report.hpp"
#include "rowscan/system.hpp"

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace rowscan {
ROWSCAN_SYSTEM_BEGIN
class context;
ROWSCAN_SYSTEM_END
}  // namespace rowscan

namespace rowscan::job {
ROWSCAN_SYSTEM_BEGIN

/// The device of each worker of a run: under CUDA the GPUs of job_options::gpus, or {no_device} (one
/// worker, on the current GPU); on the host systems job_options::workers times no_device.
constexpr int no_device = gpu_runtime::no_device;
std::vector<int> worker_devices(job_options const& options);

/// This system's side of rowscan/gpu_runtime/gpus.hpp's use_device, current_device and start_devices: under
/// CUDA those; on the host systems nothing (current_device: no_device), without loading the CUDA driver.
void use_device(int device);
int current_device();
void start_devices(std::vector<int> const& devices);

/// A worker and the context it runs on: each worker has its own (stream, pool, observer), on its own
/// GPU under CUDA (the thread that runs the worker makes `device` current).
struct worker_slot {
  context const* ctx;
  block_worker* worker;
  int device = no_device;
};

/// A workload's default chunk size: on_gpu under CUDA, on_host on the host systems, within an eighth
/// of the device system's free memory and at least 1 MiB.
std::size_t preferred_chunk_size(std::size_t on_gpu, std::size_t on_host);

/// options.chunk_size, or the workload's default when it is 0; throws rowscan::error (a usage error)
/// outside [limits.min_chunk, max_chunk_size].
std::size_t chosen_chunk_size(job_options const& options, chunk_limits const& limits);

/// A context for a run: created and timed ("device setup": the first device call creates the
/// device's context), with the options' allocation limit, observed by report.times under --stats.
context start_context(job_options const& options, run_report& report);

/// This system's workers as a lane group of a run (rowscan/job/run_blocks.hpp): a GPU worker's lane copies
/// the ready blocks that fill a device slot, a host worker's folds one block where it lies; the readers'
/// memory is page-locked under CUDA; a session's copy kept in device memory is folded where it lies
/// (resident_device.hpp).
class system_lanes final : public lane_group {
 public:
  /// The workers (which outlive this), how the workload cuts the input for them, and the run's chunk size.
  system_lanes(std::vector<worker_slot> const& workers, block_layout const& layout, std::size_t chunk_size)
      : workers_(workers), layout_(layout), chunk_size_(chunk_size) {}

  bool on_gpu() const override;
  block_layout const& layout() const override { return layout_; }
  std::size_t chunk_size() const override { return chunk_size_; }
  std::size_t workers() const override { return workers_.size(); }
  std::vector<lane_maker> lanes(fold_place const& place) const override;
  block_worker const& first_worker() const override { return *workers_.front().worker; }
  io::block_memory ring_memory() const override;
  std::size_t memory_in_use() const override;
  std::size_t pool_peak_bytes() const override;
  char const* hand_over_stage() const override;
  bool holds_copy(int fd) const override;
  bool fold_copy(int fd, std::string const& label, job_options const& options, block_layout const& layout,
                 run_report& report) const override;

 private:
  std::vector<worker_slot> const& workers_;
  block_layout layout_;
  std::size_t chunk_size_;
};

ROWSCAN_SYSTEM_END
}  // namespace rowscan::job
