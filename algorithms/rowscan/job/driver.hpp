// SPDX-License-Identifier: Apache-2.0
// rowscan/job/driver.hpp: one chunked-job driver for every workload, compiled for each Thrust system
// (rowscan/system.hpp); what it is given and reports is rowscan/job/run_report.hpp, compiled once.
//
//   inputs, one after another --chunked_reader each--> blocks of whole lines (pinned host memory under CUDA)
//         --block_queue (compiled once: job/block_queue.hpp)--> one queue for the whole list, taken by
//   CUDA:  a GPU worker's lane: the ready blocks that fill a device slot, copied while the other slot is folded
//   host:  a host worker's lane: one block, folded where it lies
//          --block_worker.fold(text)--> the worker's partial answer + the text's tally
//   then:  merge(tally, tally) in input order--> each input's lines, skipped lines, the first error, located in it
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

/// Reads each input of `inputs` in turn to its end in blocks, one reader an input, into one queue whose
/// workers (one under CUDA for each GPU; on the host systems several, each folding on a thread of its
/// own) are started once for the whole list: an input is read while the blocks of those before it are
/// still being folded (the next input is opened, and its reader started, once the reader before it has
/// given its last block: inputs.next() is asked before the input before is done), and each input is
/// reported to inputs.done, in input order, once every block of it is folded (bytes, lines, blocks,
/// skipped lines). `report` gets them added up (job::add_report), its
/// skipped lines the last input's, and the run's worker shares (the chunk size must be set). With several
/// workers, report.times adds up the time of every worker. options.progress hears the bytes of the whole
/// sequence so far. The readers' rings are page-locked under CUDA, unless the run is shared
/// (options.shared: its ring's memory), and kept from one input for the next (io/recycled_blocks.hpp).
/// Returns the last input's label (for errors after the run). Throws, the first in input order:
/// rowscan::input_error at the first bad line (with skip_invalid: at a line too long to skip), located
/// in its input; rowscan::device_error when a block's halves run out of device memory too; what opening
/// or reading an input threw. The input that threw is the one after the last reported to inputs.done.
std::string run_blocks_each(input_sequence& inputs, job_options const& options, block_layout const& layout,
                            std::vector<worker_slot> const& workers, run_report& report);

ROWSCAN_SYSTEM_END
}  // namespace rowscan::job
