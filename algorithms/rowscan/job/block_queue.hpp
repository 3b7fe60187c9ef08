// SPDX-License-Identifier: Apache-2.0
// rowscan/job/block_queue.hpp: one queue of blocks for a whole run (every input of its list, in order),
// and the workers that take them, each on a thread of its own. Compiled once: what a worker's system (a
// GPU, the host's cores) does with a block is behind its lane, so one queue feeds the workers of both engines.
//
//   readers, one an input, in input order --push--> ready blocks, in input order --take--> a lane:
//       a host worker takes one block, a GPU the ready blocks at the front that fill its slot, of one
//       input or of several (the end of one file and the start of the next, or many small files)
//   lane: start (its text to the lane's memory) --fold each input's blocks of it--> a tally an input
//         --merged in input order--> each input's tally
//
// Workers may join while the queue runs (a GPU whose context was still being made): they take the
// blocks from where the queue is. A taken batch is consecutive in the run's order; its blocks of one
// input are one text, folded on its own, so that lines and bytes count from that input's start and a
// file's last line ends with the file. The workers outlive the inputs: a run starts its threads once,
// whatever the number of files it reads, and an input's reader is read into the queue while the
// blocks of the inputs before it are still being folded.
#pragma once

#include "rowscan/io/chunked_reader.hpp"
#include "rowscan/job/run_report.hpp"
#include "rowscan/job/tally.hpp"

#include <chrono>
#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <deque>
#include <exception>
#include <functional>
#include <limits>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <utility>
#include <vector>

namespace rowscan::job {

/// A block of the queue: the reader's chunk, lent until the lane that took it gives it back.
struct queued_block {
  std::size_t index = 0;          ///< in the run's order (every input's blocks after the inputs' before it)
  std::size_t input = 0;          ///< the run's input it is a block of (0 for the first)
  char const* text = nullptr;     ///< the reader's chunk
  std::size_t size = 0;
  std::uint64_t file_offset = 0;  ///< where the block starts in its file
  std::uint64_t reader_block = 0;
  io::chunked_reader* reader = nullptr;  ///< the input's reader, which gets the block back
  std::string const* label = nullptr;    ///< the input's name in errors
};

/// Consecutive blocks that a lane took at once, of one input or of several.
struct block_batch {
  std::vector<queued_block> blocks;
  int slot = 0;           ///< the lane's memory it went to (a GPU's device slot)
  bool returned = false;  ///< the reader has its blocks back

  std::size_t bytes() const {
    std::size_t n = 0;
    for (queued_block const& b : blocks) n += b.size;
    return n;
  }
};

/// The blocks of one input in a batch: blocks [first, first + count) of batch.blocks, whose text is
/// `bytes` bytes from `offset` bytes into the batch's text (its blocks one after another).
struct batch_run {
  std::size_t first = 0;
  std::size_t count = 0;
  std::size_t offset = 0;
  std::size_t bytes = 0;
};

/// A batch's runs, one for each input it holds, in order.
std::vector<batch_run> runs_of(block_batch const& batch);

/// A worker's side of the queue: how its blocks reach the memory it folds in, and the fold. Made on the
/// worker's own thread (under CUDA with its GPU current) and used only there.
class block_lane {
 public:
  virtual ~block_lane() = default;
  /// Batches held at once: a GPU two (one is copied while the other is folded), a host worker one.
  virtual std::size_t depth() const = 0;
  /// The most bytes one batch takes: a GPU's device slot; a host worker's batch is one block whatever this says.
  virtual std::size_t batch_bytes() const = 0;
  virtual bool on_gpu() const = 0;
  /// Starts moving the batch's text to the lane's memory (batch.slot says where).
  virtual void start(block_batch& batch) = 0;
  /// Waits for the batch's copy; true: its reader blocks may go back before the fold (a GPU's copy);
  /// false: the fold reads them where they are.
  virtual bool land(block_batch const& batch) = 0;
  /// Folds the text of one run of the batch (one input's blocks of it), in halves if memory runs out
  /// (throws rowscan::device_error if the halves run out too); its tally, positions relative to the run's
  /// first byte. Throws what the fold throws.
  virtual tally fold(block_batch const& batch, batch_run const& run) = 0;
};

/// Makes a worker's lane, on the worker's thread.
using lane_maker = std::function<std::unique_ptr<block_lane>()>;

/// An input whose blocks were all folded and merged: its tally (positions from its first byte) and blocks.
struct input_tally {
  tally folded;
  std::size_t blocks = 0;
};

/// How a run's queue ended (block_queue::finish).
struct queue_end {
  std::vector<input_tally> done;  ///< the inputs done since done_inputs() was last asked, in input order
  /// What the earliest failing block threw (a fold, a lane that could not start, no worker at all); null: nothing.
  std::exception_ptr failure;
  /// The input that block is a block of (the input being read, or the next, for a worker's own failure).
  std::size_t failure_input = 0;
};

class block_queue {
 public:
  /// An empty queue; at most max_lent blocks are lent at once (each reader lends that many more than the
  /// one in the driver's hand). Workers' first blocks are timed from run_start.
  block_queue(std::size_t max_lent, std::chrono::steady_clock::time_point run_start);
  ~block_queue();
  block_queue(block_queue const&) = delete;
  block_queue& operator=(block_queue const&) = delete;

  /// Starts a worker for each lane (each on a thread of its own, the lane made there), also while
  /// blocks are pushed. If the system refuses a thread, the run stops and finish() throws rowscan::error.
  /// With `relieve`, the workers that joined before these take no block after the first that one of these
  /// takes: they finish what they hold and end, and these fold the rest (a GPU relieving the host's cores,
  /// which its reader needs: docs/performance.md, "Every processor on one queue").
  void join(std::vector<lane_maker> const& lanes, bool relieve = false);

  /// The blocks pushed from now on are those of the run's next input, read by `reader` (which gets them
  /// back, and must live until that input is done or the queue finished); file_base: where the reader
  /// started in its file; label: the input's name in errors, which lives as long as the reader.
  void begin_input(io::chunked_reader& reader, std::uint64_t file_base, std::string const& label);

  /// Adds the current input's next block, in input order, once fewer than max_lent are lent.
  void push(io::text_chunk const& block);

  /// The current input has no more blocks.
  void end_input();

  /// Whether a block so far stopped the run (a bad line, or a fold that threw): push no more.
  bool stopped();

  /// The inputs done since the last call, in input order, without waiting: an input is done once it has
  /// ended and every block of it is merged (and back with its reader), unless a block at or before its
  /// end failed. The caller may then let its reader go.
  std::vector<input_tally> done_inputs();

  /// No more inputs: waits for every block pushed to be folded; the inputs done since done_inputs() was
  /// last asked, and the earliest failure. Every block is back with its reader afterwards.
  queue_end finish();

  /// Each worker's share, in the order they joined (once finished).
  std::vector<worker_share> shares() const;

 private:
  struct worker;

  void stop();
  void run(worker& w);
  bool take(worker const& w, std::size_t batch_bytes, bool one_block, block_batch& batch);
  bool relieved(worker const& w) const;
  std::size_t ready_bytes() const;
  bool no_block_coming() const;
  std::vector<input_tally> pop_done();
  void give_back(block_batch& batch);
  void fold_first(worker& w, block_lane& lane, std::deque<block_batch>& held);
  void done(worker& w, block_batch const& batch, std::vector<batch_run> const& runs, std::vector<tally> tallies,
            std::exception_ptr const& failure, std::size_t failed_run, std::chrono::steady_clock::time_point start);
  void merge_in_order(std::size_t index, std::size_t input, tally t);
  void fail_worker(std::deque<block_batch>& held);

  /// An input of the run, from its begin_input until it is done.
  struct input_state {
    io::chunked_reader* reader;
    std::uint64_t file_base;
    std::string const* label;
    std::size_t first_block;  ///< its first block's index
    std::size_t end_block;    ///< one past its last (once ended)
    bool ended = false;
    std::size_t merged_blocks = 0;
    tally merged;             ///< its blocks merged so far, in input order
  };

  std::size_t max_lent_;
  std::chrono::steady_clock::time_point run_start_;
  std::vector<std::unique_ptr<worker>> workers_;
  std::size_t joins_ = 0;                  // join() calls so far: a worker's group is its join's number
  std::size_t relieving_group_ = 0;        // a group that relieves those before it, once it takes a block (0: none)
  std::size_t relieved_below_ = 0;         // workers of groups before this one take no more blocks
  mutable std::mutex mutex_;
  std::condition_variable ready_changed_;  // a block was pushed, or the input ended
  std::condition_variable lent_changed_;   // blocks went back to the reader
  std::deque<queued_block> ready_;         // pushed, not yet taken, in input order
  std::size_t lent_ = 0;                   // pushed and not yet given back
  std::size_t pushed_ = 0;
  unsigned gpus_waiting_ = 0;              // batching workers waiting in take()
  bool ended_ = false;
  bool stopped_ = false;
  bool any_folded_ = false;
  std::deque<input_state> inputs_;         // begun and not yet done, in input order
  std::size_t first_input_ = 0;            // the number of inputs_.front(): inputs before it are done
  std::size_t next_to_merge_ = 0;          // blocks [0, next_to_merge_) are merged into their inputs
  // Blocks folded before an earlier one, by block number: their input and tally.
  std::map<std::size_t, std::pair<std::size_t, tally>> waiting_;
  std::exception_ptr failure_;
  std::size_t failure_block_ = std::numeric_limits<std::size_t>::max();
};

}  // namespace rowscan::job
