// SPDX-License-Identifier: Apache-2.0
// rowscan/job/block_queue.hpp: one queue of blocks in input order, and the workers that take them, each
// on a thread of its own. Compiled once: what a worker's system (a GPU, the host's cores) does with a
// block is behind its lane, so one queue feeds the workers of both engines.
//
//   reader --push--> ready blocks, in input order --take--> a lane: a host worker takes one block,
//                                                          a GPU the ready blocks at the front that fill its slot
//   lane: start (its text to the lane's memory) --fold--> a tally --merged in input order--> the run's tally
//
// Workers may join while the queue runs (a GPU whose context was still being made): they take the
// blocks from where the queue is. A taken run of blocks is consecutive in the input, so its text is
// one text and its tally that of all of them.
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
  std::size_t index = 0;          ///< in input order
  char const* text = nullptr;     ///< the reader's chunk
  std::size_t size = 0;
  std::uint64_t file_offset = 0;  ///< where the block starts in its file
  std::uint64_t reader_block = 0;
};

/// Consecutive blocks a lane took at once, folded as one text.
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
  /// Folds the batch's text, in halves if memory runs out (throws rowscan::device_error if the halves
  /// run out too); its tally, positions relative to the batch's first byte. Throws what the fold throws.
  virtual tally fold(block_batch const& batch) = 0;
};

/// Makes a worker's lane, on the worker's thread.
using lane_maker = std::function<std::unique_ptr<block_lane>()>;

class block_queue {
 public:
  /// A queue over reader's blocks (file_base: where the reader started in its file); at most max_lent
  /// blocks are lent at once (the reader lends that many more than the one in the driver's hand).
  /// Workers' first blocks are timed from run_start.
  block_queue(io::chunked_reader& reader, std::size_t max_lent, std::uint64_t file_base,
              std::chrono::steady_clock::time_point run_start);
  ~block_queue();
  block_queue(block_queue const&) = delete;
  block_queue& operator=(block_queue const&) = delete;

  /// Starts a worker for each lane (each on a thread of its own, the lane made there), also while
  /// blocks are pushed. If the system refuses a thread, the run stops and finish() throws rowscan::error.
  void join(std::vector<lane_maker> const& lanes);

  /// Adds the reader's next block, in input order, once fewer than max_lent are lent.
  void push(io::text_chunk const& block);

  /// Whether a block so far stopped the run (a bad line, or a fold that threw): push no more.
  bool stopped();

  /// The input has ended: waits for every block pushed to be folded; rethrows what the earliest failing
  /// block threw, else returns the tally of all of them, merged in input order, and how many blocks it holds.
  std::pair<tally, std::size_t> finish();

  /// Each worker's share, in the order they joined (once finished).
  std::vector<worker_share> shares() const;

 private:
  struct worker;

  void stop();
  void run(worker& w);
  bool take(std::size_t batch_bytes, bool one_block, block_batch& batch);
  void give_back(block_batch& batch);
  void fold_first(worker& w, block_lane& lane, std::deque<block_batch>& held);
  void done(worker& w, block_batch const& batch, tally t, std::exception_ptr const& failure,
            std::chrono::steady_clock::time_point start);
  void merge_in_order(std::size_t index, tally t);
  void fail_worker(std::deque<block_batch>& held);

  io::chunked_reader& reader_;
  std::size_t max_lent_;
  std::uint64_t file_base_;
  std::chrono::steady_clock::time_point run_start_;
  std::vector<std::unique_ptr<worker>> workers_;
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
  tally merged_;                           // blocks [0, next_to_merge_), in input order
  std::size_t next_to_merge_ = 0;
  std::map<std::size_t, tally> waiting_;   // blocks folded before an earlier one, by block number
  std::exception_ptr failure_;
  std::size_t failure_block_ = std::numeric_limits<std::size_t>::max();
};

}  // namespace rowscan::job
