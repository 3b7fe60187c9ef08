// SPDX-License-Identifier: Apache-2.0
// rowscan/job/run_report.hpp: what a run of the job driver is given and what it reports, for every
// workload and every engine (no Thrust here: the CLI and the inputs use it as they are, compiled once).
#pragma once

#include "rowscan/job/stage_times.hpp"
#include "rowscan/skipped_lines.hpp"

#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <utility>
#include <vector>

namespace rowscan::job {

/// The largest chunk of any workload: positions inside a block are 32-bit.
constexpr std::size_t max_chunk_size = std::size_t{1} << 31;

/// How a run is carried out, whatever its workload.
struct job_options {
  std::size_t chunk_size = 0;   ///< bytes of text held on the device at once; 0: the workload's default
  /// Threads reading a regular file; 0: one per core, up to 16. A run of host workers alone reads with
  /// at most one per four of them (driver.cu, reader_threads_for).
  unsigned reader_threads = 0;
  /// Leave bad lines out of the answer and record them in run_report::skipped, instead of stopping at
  /// the first. A line longer than the workload's carried line still stops the run.
  bool skip_invalid = false;
  bool time_stages = false;     ///< --stats: every stage's time, exact (each stage waits for the device)
  /// Testing aid: block-sized device arrays of more than this many bytes fail as on a full device
  /// (context::fail_allocations_above); 0: never.
  std::size_t fail_allocations_above = 0;
  /// Called after each block with the input bytes done so far (for a progress display).
  std::function<void(std::uint64_t)> progress;
  /// Workers folding blocks at once on the host systems; 0: host_worker_count() (devices.hpp).
  unsigned workers = 0;
  /// Under CUDA, a worker for each GPU listed (a GPU listed twice gets two), all fed from one queue;
  /// empty: one worker, on the calling thread's current GPU.
  std::vector<int> gpus;
  /// Read at most this many bytes of a regular file, from the descriptor's position: one byte range
  /// of a file (scale-out: a rank's share, app/inputs.hpp). The default reads to the end.
  std::uint64_t max_input_bytes = UINT64_MAX;
  /// The run's queue also has another engine's lanes (a GPU joining host workers: run_blocks.hpp's
  /// joining_group); set by the driver for what it asks of a group (a session's copy kept on one GPU is
  /// then read, not folded where it lies).
  bool shares_queue = false;
};

/// A workload's chunk-size rules.
struct chunk_limits {
  std::size_t min_chunk;               ///< the smallest accepted: room for the longest valid line
  std::size_t (*default_chunk)();      ///< the size used when job_options::chunk_size is 0
};

/// How the driver cuts the input for a workload, once the chunk size is known.
struct block_layout {
  std::size_t block_size;    ///< bytes read per block (the device holds two: one copied, one folded)
  std::size_t carried_line;  ///< the longest line carried between blocks; a longer one stops the run
  std::size_t text_padding;  ///< readable bytes the worker needs after a block's text
  /// 0: blocks end at any '\n'. Else the quote byte of quoted fields: blocks end only at a record's end
  /// (io::reader_options::quote), and carried_line bounds a record.
  char record_quote = 0;
};

/// One worker's share of a run: the blocks it folded and how long it was busy folding them.
struct worker_share {
  std::size_t blocks = 0;
  std::uint64_t bytes = 0;
  double busy_seconds = 0;  ///< on a GPU: from the first block handed over to the last one folded
  double first_block_at = 0;  ///< seconds from the driver's start (reader setup) to this worker's first block
  bool on_gpu = false;        ///< the GPU, or a host worker (a thread of the host system)
};

/// What every run reports besides its answer.
struct run_report {
  std::uint64_t bytes = 0;
  std::uint64_t lines = 0;  ///< lines of the input, skipped ones included
  skipped_lines skipped;    ///< the bad lines left out (skip_invalid)
  std::size_t chunks = 0;   ///< blocks folded
  std::vector<worker_share> shares;  ///< one per worker (1 on a GPU), in worker order
  std::size_t chunk_size = 0;
  std::size_t device_bytes = 0;  ///< device memory held at the end beyond what was in use at the start
  std::size_t pool_peak_bytes = 0;  ///< the most large blocks (over 1 MiB) the context's pool held at once
  std::size_t threads_while_folding = 0;  ///< the process's threads as its last block was folded (process_threads)
  stage_times times;             ///< seconds per stage; exact with job_options::time_stages
};

/// The threads this process has now (Linux's /proc/self/status); 0 where it cannot tell.
std::size_t process_threads();

/// Several inputs read in turn by the same workers, whose partial answers pile up across them: the files
/// of a list, or the pieces of a share (rowscan/inputs/claimed_pieces.hpp). One run reads them into one
/// queue, so next() may be asked again before the inputs it gave are done.
class input_sequence {
 public:
  virtual ~input_sequence() = default;
  /// The next input: its descriptor at its first byte, its label, and the most bytes of it to read;
  /// false when there is none. The descriptor stays open until the input is done (or the run ends).
  virtual bool next(int& fd, std::string& label, std::uint64_t& max_bytes) = 0;
  /// The report of the earliest input that next() gave and that is not done yet (bytes, lines, blocks,
  /// skipped lines): inputs are done in the order they were given.
  virtual void done(run_report const& input) = 0;
};

/// One input as a sequence: fd, read as options.max_input_bytes says.
class single_input : public input_sequence {
 public:
  single_input(int fd, std::string label, std::uint64_t max_bytes) : fd_(fd), label_(std::move(label)), max_(max_bytes) {}
  bool next(int& fd, std::string& label, std::uint64_t& max_bytes) override {
    if (given_) return false;
    given_ = true;
    fd = fd_;
    label = label_;
    max_bytes = max_;
    return true;
  }
  void done(run_report const&) override {}

 private:
  int fd_;
  std::string label_;
  std::uint64_t max_;
  bool given_ = false;
};

}  // namespace rowscan::job
