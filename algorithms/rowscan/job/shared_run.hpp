// SPDX-License-Identifier: Apache-2.0
// rowscan/job/shared_run.hpp: one run of the job driver whose blocks the workers of several engines take
// from one queue (block_queue.hpp): every processor on one queue, from the first block to the last.
//
//   engine A's run (first to start) --drives--> reads every input into one queue, its workers in it
//   engine B's run (a GPU, once its context is made) --joins--> its workers take from the same queue, from
//                                                               where it is, to the end
//
// Each engine runs its own workload code on a thread of its own (job_options::shared names the run);
// only the driver reads and reports the input (bytes, lines, errors, skipped lines, every worker's
// share); a joiner's run returns its workers' partial answers once the input has ended, and the caller
// merges the engines' answers (commutative merges: any split of blocks gives the same answer).
// Compiled once.
#pragma once

#include "rowscan/job/block_queue.hpp"
#include "rowscan/job/lockable_memory.hpp"

#include <condition_variable>
#include <cstddef>
#include <mutex>
#include <string>
#include <vector>

namespace rowscan::job {

class shared_run {
 public:
  /// joiner_blocks: the blocks the driver's reader lends (and reads ahead) beyond its own workers', for
  /// the workers that join (a GPU holds the ready blocks that fill its slot; host workers need none).
  explicit shared_run(std::size_t joiner_blocks = 0) : joiner_blocks_(joiner_blocks) {}
  shared_run(shared_run const&) = delete;
  shared_run& operator=(shared_run const&) = delete;

  /// True for the first run to ask (it drives: it reads the inputs); false for every later one (it joins).
  bool claim_driver();

  // The driver:
  /// The run's queue is open: the workers that joined so far take from it too.
  void open(block_queue& queue);
  /// The driver reads the input called label (a joiner's errors name it).
  void reading(std::string const& label);
  /// The queue takes no more workers (before it is finished).
  void close();
  /// The run is over (the input has ended, or stopped): the joiners return. Called however the driver ends.
  void end();

  // A joiner:
  /// Adds workers to the open queue (or to the queue once it opens), and waits until the run is over.
  void join_and_wait(std::vector<lane_maker> const& lanes);

  /// Testing (--gpu-joins-after K): the driver waits after its K-th block until a joiner has joined or
  /// none will (no_more_joiners), so that the joiner takes part in the run whatever the timing.
  void hold_at(std::size_t blocks);
  /// A joiner will not come (its start failed): the driver goes on alone.
  void no_more_joiners();
  /// Waits until `blocks` blocks were pushed or the run is over.
  void wait_for_blocks(std::size_t blocks);
  /// Counts a pushed block (the driver), and holds at hold_at's block.
  void pushed_one();

  std::size_t joiner_blocks() const { return joiner_blocks_; }

  /// The label of the input being read (a joiner's errors name it).
  std::string const& label() const { return label_; }
  /// The ring's memory, which joining GPUs lock.
  lockable_memory& ring_memory() { return ring_; }

 private:
  std::size_t const joiner_blocks_;
  mutable std::mutex mutex_;
  std::condition_variable changed_;
  bool driver_claimed_ = false;
  bool ended_ = false;
  block_queue* open_ = nullptr;
  std::vector<lane_maker> joined_;  // every joiner's lanes, for a queue that opens after they joined
  std::size_t pushed_ = 0;
  std::size_t hold_at_ = 0;         // 0: no hold
  bool joined_any_ = false;
  bool no_joiners_ = false;
  std::string label_;               // the input being read
  lockable_memory ring_;
};

}  // namespace rowscan::job
