// SPDX-License-Identifier: Apache-2.0
// rowscan/job/driver.hpp: one chunked-job driver for every workload, compiled for each Thrust system
// (rowscan/system.hpp); what it is given and reports is rowscan/job/run_report.hpp, compiled once.
//
//   input --chunked_reader--> blocks of whole lines (pinned host memory under CUDA)
//         --block_queue (compiled once: job/block_queue.hpp)--> one queue in input order, taken by
//   CUDA:  a GPU worker's lane: the ready blocks that fill a device slot, copied while the other slot is folded
//   host:  a host worker's lane: one block, folded where it lies
//          --block_worker.fold(text)--> the worker's partial answer + the text's tally
//   then:  merge(tally, tally) in input order--> lines, skipped lines, the first error, located in the input
//
// A workload supplies its block composition (a block_worker), its partial answer with its merge,
// and its formatting; the driver owns everything about how the input is cut, moved and retried: the
// chunk-size limits, the carried line and the error for a longer one, out-of-memory retry in halves,
// error positions (file, line, byte), --skip-invalid's record, stage times and progress.
#pragma once

#include "rowscan/io/chunked_reader.hpp"
#include "rowscan/job/block_worker.hpp"
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
constexpr int no_device = -1;
std::vector<int> worker_devices(job_options const& options);

/// Makes `device` the calling thread's current GPU (under CUDA; nothing for no_device or on the host).
void use_device(int device);

/// The calling thread's current GPU under CUDA; no_device on the host systems.
int current_device();

/// Creates the contexts of `devices` at once, each on a thread of its own: CUDA's start-up (hundreds of
/// milliseconds a GPU: docs/performance.md, "The floors") runs side by side instead of one GPU after another. Nothing
/// on the host systems, or for one device.
void start_devices(std::vector<int> const& devices);

/// While it lives, the OpenMP regions that this thread starts run on one thread (the host systems;
/// nothing under CUDA). Host workers fold under it, the parallelism being across blocks, and a
/// workload merges its workers' partial answers under it: they are small, and a team's barriers cost
/// more than the team saves on a busy machine (docs/stations.md, "6. Output"; docs/data/output_stage-cpu.csv).
class one_thread_scope {
 public:
  one_thread_scope();
  ~one_thread_scope();
  one_thread_scope(one_thread_scope const&) = delete;
  one_thread_scope& operator=(one_thread_scope const&) = delete;

 private:
  int before_ = 0;
};

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

/// Reads the input on fd to its end in blocks and hands them, in input order, to the workers (one
/// under CUDA; on the host systems several, each folding on a thread of its own). label names the
/// input in errors. Fills report (the chunk size must be set). Throws rowscan::input_error at the first
/// bad line in input order (with skip_invalid: at a line too long to skip), located in the input;
/// rowscan::device_error when a block's halves run out of device memory too. With several workers,
/// report.times adds up the time of every worker. The reader's ring comes from `ring` (page-locked
/// under CUDA), unless the run is shared (options.shared: its ring's memory).
void run_blocks(int fd, std::string const& label, job_options const& options, block_layout const& layout,
                std::vector<worker_slot> const& workers, io::block_memory const& ring, run_report& report);

/// run_blocks over each input of `inputs` in turn with the same workers and the same ring's blocks
/// (io/recycled_blocks.hpp); each input's report goes to
/// inputs.done, and `report` gets them added up (job::add_report), its skipped lines the last input's.
/// options.progress hears the bytes of the whole sequence so far. Returns the last input's label (for
/// errors after the run). Throws what run_blocks throws.
std::string run_blocks_each(input_sequence& inputs, job_options const& options, block_layout const& layout,
                            std::vector<worker_slot> const& workers, run_report& report);

ROWSCAN_SYSTEM_END
}  // namespace rowscan::job
