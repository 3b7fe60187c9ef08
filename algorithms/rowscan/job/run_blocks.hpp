// SPDX-License-Identifier: Apache-2.0
// rowscan/job/run_blocks.hpp: the job driver, compiled once. It reads a run's inputs into one queue
// (block_queue.hpp) and merges what the lanes fold in input order; which processor folds a block, and
// how its text gets there, is the lane group's, lent by an engine (its per-system side: job/driver.hpp).
//
//   inputs, one after another --chunked_reader each--> blocks of whole lines (in the group's ring memory:
//         page-locked for a GPU)
//         --block_queue--> the group's lanes: a GPU's takes the ready blocks that fill a device slot, a host
//                          worker's one block, folded where it lies
//   then: merge(tally, tally) in input order --> each input's lines, skipped lines, the first error, located
//
// The driver owns how the input is cut and moved: the block size and the carried line (the workload's
// block_layout), the error for a longer line, error positions (file, line, byte), --skip-invalid's record,
// the reader's stages and progress. The group owns what needs a Thrust system: its workers, their memory,
// the fold (and its retry in halves when memory runs out), a session's copy kept on its GPU.
#pragma once

#include "rowscan/io/chunked_reader.hpp"
#include "rowscan/job/block_queue.hpp"
#include "rowscan/job/block_worker.hpp"
#include "rowscan/job/lockable_memory.hpp"
#include "rowscan/job/run_report.hpp"

#include <cstddef>
#include <functional>
#include <string>
#include <vector>

namespace rowscan::job {

/// What every lane of a run folds with: where errors point, and the run's sizes.
struct fold_place {
  std::size_t chunk_size;    ///< the run's, for the out-of-memory advice
  std::size_t padding;       ///< readable bytes a worker needs after a text
  std::size_t batch_bytes;   ///< the most a GPU's batch takes: its device slot
  lockable_memory* ring;     ///< the reader's ring, when a GPU must lock it (a run a GPU joins); null: it is pinned
};

/// The workers an engine lends a run, as lanes of its queue, and what the driver must ask of their system.
/// Implemented per system (job/driver.hpp's system_lanes); the driver sees only this.
class lane_group {
 public:
  virtual ~lane_group() = default;

  /// Whether the lanes fold on a GPU (their text is copied to device memory), or on the host's cores.
  virtual bool on_gpu() const = 0;
  /// How the workload cuts the input for these workers (the run's, when this group drives it).
  virtual block_layout const& layout() const = 0;
  /// The run's chunk size, for the advice of an out-of-memory error.
  virtual std::size_t chunk_size() const = 0;
  /// The group's workers: one lane each.
  virtual std::size_t workers() const = 0;
  /// A maker for each worker's lane (run on the worker's thread); `place` outlives the lanes.
  virtual std::vector<lane_maker> lanes(fold_place const& place) const = 0;
  /// A worker, for the error of a line longer than the carried line (the same for every worker).
  virtual block_worker const& first_worker() const = 0;
  /// The memory the readers' blocks are allocated in: page-locked for a GPU, plain on the host.
  virtual io::block_memory ring_memory() const = 0;
  /// The group's system's memory in use now (device memory for a GPU): the difference over a run is
  /// what the run holds.
  virtual std::size_t memory_in_use() const = 0;
  /// The most large blocks the first worker's pool held at once.
  virtual std::size_t pool_peak_bytes() const = 0;
  /// The --stats stage of handing a block over ("copy to device" on a GPU, "waiting for a worker" on the host).
  virtual char const* hand_over_stage() const = 0;
  /// Whether a session keeps a copy of the memory file on fd in this group's device memory
  /// (job/resident_device.hpp), which the driver then folds where it lies rather than reading fd.
  virtual bool holds_copy(int fd) const = 0;
  /// The run of one input over that copy (resident_device.hpp's run_resident); false: read fd instead.
  virtual bool fold_copy(int fd, std::string const& label, job_options const& options, block_layout const& layout,
                         run_report& report) const = 0;
};

/// A lane group that joins a run once it is made: a GPU, whose context takes hundreds of milliseconds to
/// make, joins the host's workers, which fold from the run's first block (docs/performance.md, "Every
/// processor on one queue"). It takes the blocks from where the queue is when it joins, and its batches
/// span the first group's blocks.
struct joining_group {
  /// Makes the group, on a thread of the run's own; the caller owns it, and keeps it past the run. What it
  /// throws does not stop the run (the first group goes on alone): run_blocks throws it afterwards.
  std::function<lane_group const&()> make;
  /// Ring blocks it holds beyond the first group's workers (a GPU holds the ready blocks that fill its slot
  /// until their copy lands).
  std::size_t blocks = 0;
  /// Testing (--gpu-joins-after K): the group joins once the driver has handed out K blocks, and the driver
  /// holds after its K-th until the group has joined (or failed), so that the first group's lanes take the
  /// first blocks and this group takes part, whatever the timing; 0: no hold.
  std::size_t join_after_blocks = 0;
  /// Whether the first group's workers stop taking blocks once this group has taken its first: they
  /// then hold cores that this group's reader needs (block_queue::join's `relieve`).
  bool relieves_first = false;
  /// Set by the run: seconds from its start to the join; negative if the group did not join.
  double joined_at = -1;
};

/// Reads each input of `inputs` in turn to its end in blocks, one reader an input, into one queue whose
/// workers (the group's lanes, and `joining`'s once it is made) are started once for the whole list: an
/// input is read while the blocks of those before it are still being folded (the next input is opened,
/// and its reader started, once the reader before it has given its last block: inputs.next() is asked
/// before the input before is done), and each input is reported to inputs.done, in input order, once every
/// block of it is folded (bytes, lines, blocks, skipped lines). The blocks are cut as group.layout() says.
/// `report` gets them added up (job::add_report), its skipped lines the last input's, and the run's worker
/// shares, every group's (the chunk size must be set). With several workers, report.times adds up the
/// time of every worker. options.progress hears the bytes of the whole sequence so far. The readers'
/// rings are the group's ring memory (page-locked for a GPU), plain memory that a joining GPU locks block by
/// block (lockable_memory.hpp) when a group may join, and kept from one input for the next
/// (io/recycled_blocks.hpp). Returns the last input's label (for errors after the run). Throws, the first
/// in input order: rowscan::input_error at the first bad line (with skip_invalid: at a line too long to
/// skip), located in its input; rowscan::device_error when a block's halves run out of memory too; what
/// opening or reading an input threw; then what making the joining group threw. The input that threw is
/// the one after the last reported to inputs.done.
std::string run_blocks(input_sequence& inputs, job_options const& options, lane_group const& group, run_report& report,
                       joining_group* joining = nullptr);

}  // namespace rowscan::job
