// SPDX-License-Identifier: Apache-2.0
// One queue of blocks for every worker (rowscan/job/block_queue.hpp).
#include "rowscan/job/block_queue.hpp"

#include "rowscan/error.hpp"
#include "rowscan/job/timeline.hpp"

#include <system_error>

namespace rowscan::job {

struct block_queue::worker {
  worker(lane_maker m, std::size_t g) : make(std::move(m)), group(g) {}
  lane_maker make;
  std::size_t group;  ///< the number of the join() that started it (1 for the first)
  worker_share share;
  std::chrono::steady_clock::time_point first_fold;
  std::thread thread;
};

block_queue::block_queue(std::size_t max_lent, std::chrono::steady_clock::time_point run_start)
    : max_lent_(std::max<std::size_t>(max_lent, 1)), run_start_(run_start) {}

block_queue::~block_queue() { stop(); }

void block_queue::join(std::vector<lane_maker> const& lanes, bool relieve) {
  std::lock_guard<std::mutex> lock(mutex_);
  ++joins_;
  if (relieve) relieving_group_ = joins_;
  for (lane_maker const& make : lanes) {
    workers_.push_back(std::make_unique<worker>(make, joins_));
    worker& w = *workers_.back();
    try {
      w.thread = std::thread([this, &w] { run(w); });
    } catch (std::system_error const& e) {
      // The system refused a thread (a low `ulimit -v` or -u): the run stops, and finish() says so.
      if (!failure_) {
        failure_ = std::make_exception_ptr(
            error("cannot start " + std::to_string(lanes.size()) + " worker threads (" + e.what() +
                  "); give a smaller --threads, or raise the process's limits (ulimit -v, ulimit -u)"));
      }
      stopped_ = true;
      lent_changed_.notify_all();
      ready_changed_.notify_all();
      return;
    }
  }
}

void block_queue::begin_input(io::chunked_reader& reader, std::uint64_t file_base, std::string const& label) {
  std::lock_guard<std::mutex> lock(mutex_);
  ROWSCAN_EXPECTS(inputs_.empty() || inputs_.back().ended, "an input begins after the one before it ended");
  inputs_.push_back({&reader, file_base, &label, pushed_, pushed_, false, 0, tally{}});
}

void block_queue::push(io::text_chunk const& block) {
  std::unique_lock<std::mutex> lock(mutex_);
  ROWSCAN_EXPECTS(!inputs_.empty() && !inputs_.back().ended, "a block is pushed into a begun input");
  lent_changed_.wait(lock, [&] { return lent_ < max_lent_ || stopped_; });
  input_state const& input = inputs_.back();
  if (stopped_) {
    input.reader->give_back(block.block);  // nobody folds it: the run already stopped
    return;
  }
  std::size_t const number = first_input_ + inputs_.size() - 1;
  ready_.push_back({pushed_++, number, block.data, block.size, input.file_base + block.input_offset, block.block,
                    input.reader, input.label});
  lent_ += 1;
  ready_changed_.notify_all();
}

void block_queue::end_input() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    ROWSCAN_EXPECTS(!inputs_.empty() && !inputs_.back().ended, "an input ends once");
    inputs_.back().ended = true;
    inputs_.back().end_block = pushed_;
  }
  ready_changed_.notify_all();  // a GPU waiting to fill its slot takes what the input left
}

/// The inputs at the front that are done (block_queue::done_inputs), taken off the queue (under mutex_).
std::vector<input_tally> block_queue::pop_done() {
  std::vector<input_tally> out;
  while (!inputs_.empty()) {
    input_state& front = inputs_.front();
    std::size_t const blocks = front.end_block - front.first_block;
    if (!front.ended || front.merged_blocks < blocks || failure_block_ < front.end_block) break;
    out.push_back({std::move(front.merged), blocks});
    inputs_.pop_front();
    ++first_input_;
  }
  return out;
}

std::vector<input_tally> block_queue::done_inputs() {
  std::lock_guard<std::mutex> lock(mutex_);
  return pop_done();
}

bool block_queue::stopped() {
  std::lock_guard<std::mutex> lock(mutex_);
  return stopped_;
}

void block_queue::stop() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    ended_ = true;
  }
  ready_changed_.notify_all();
  for (auto& w : workers_) {
    if (w->thread.joinable()) w->thread.join();
  }
}

queue_end block_queue::finish() {
  stop();
  // Blocks no worker took (none joined, or every one failed) go back; the run cannot be whole.
  std::lock_guard<std::mutex> lock(mutex_);
  for (queued_block const& b : ready_) b.reader->give_back(b.reader_block);
  if (!ready_.empty() && ready_.front().index < failure_block_) {
    failure_ = std::make_exception_ptr(error("no worker took the input's blocks"));
    failure_block_ = ready_.front().index;
  }
  ready_.clear();
  queue_end out{pop_done(), failure_, first_input_ + inputs_.size()};
  // The failing block's input: the first left that it is not after (each left has a block at or after it).
  for (std::size_t i = 0; i < inputs_.size(); ++i) {
    if (!inputs_[i].ended || failure_block_ < inputs_[i].end_block) {
      out.failure_input = first_input_ + i;
      break;
    }
  }
  return out;
}

std::vector<worker_share> block_queue::shares() const {
  std::lock_guard<std::mutex> lock(mutex_);
  std::vector<worker_share> out;
  for (auto const& w : workers_) out.push_back(w->share);
  return out;
}

std::vector<batch_run> runs_of(block_batch const& batch) {
  std::vector<batch_run> runs;
  std::size_t offset = 0;
  for (std::size_t i = 0; i < batch.blocks.size(); ++i) {
    if (i == 0 || batch.blocks[i].input != batch.blocks[i - 1].input) runs.push_back({i, 0, offset, 0});
    runs.back().count += 1;
    runs.back().bytes += batch.blocks[i].size;
    offset += batch.blocks[i].size;
  }
  return runs;
}

/// The next batch for a worker: the ready blocks at the front of the queue, as many as fit batch_bytes
/// (one at least; one at most when one_block), of one input or several, waiting for one while the
/// input goes on; false once it has ended and nothing is left.
/// - A batching worker (a GPU) waits until the ready blocks fill half its batch, or no more can come
///   soon (the last input begun has ended, the run stopped, or every block the reader may lend is out):
///   a GPU's batch has a fixed cost of its own (its copy's start, the land, the wait), which small
///   batches pay too often, so the end of one file waits for the start of the next.
/// - A one-block worker (a host worker) takes a block only while no GPU is waiting for blocks: a core
///   folds a block 50-100 times slower than a GPU, so it takes only what the GPUs leave (all of it
///   before they join, and whatever the reader gets ahead of them after).
/// - A worker whose group a later group relieves (join's `relieve`) takes nothing once that group has
///   taken its first batch.
/// The bytes of the ready blocks (under mutex_).
std::size_t block_queue::ready_bytes() const {
  std::size_t n = 0;
  for (queued_block const& b : ready_) n += b.size;
  return n;
}

/// Whether no block is pushed until the driver begins another input: the last input begun has ended
/// (under mutex_). The driver may then wait for the inputs in the queue to be done (a session's input
/// kept on the device), so what is ready must be taken.
bool block_queue::no_block_coming() const { return !inputs_.empty() && inputs_.back().ended; }

/// Whether w's group was relieved by a later one (under mutex_).
bool block_queue::relieved(worker const& w) const { return w.group < relieved_below_; }

bool block_queue::take(worker const& w, std::size_t batch_bytes, bool one_block, block_batch& batch) {
  std::unique_lock<std::mutex> lock(mutex_);
  if (one_block) {
    ready_changed_.wait(lock, [&] {
      return ended_ || stopped_ || relieved(w) || (!ready_.empty() && gpus_waiting_ == 0);
    });
  } else {
    ++gpus_waiting_;
    ready_changed_.wait(lock, [&] {
      if (ended_ || stopped_ || relieved(w)) return true;
      return !ready_.empty() && (lent_ >= max_lent_ || ready_bytes() >= batch_bytes / 2 || no_block_coming());
    });
    --gpus_waiting_;
    if (gpus_waiting_ == 0) ready_changed_.notify_all();  // host workers may take again
  }
  if (ready_.empty() || relieved(w)) return false;
  batch = block_batch{};
  std::size_t bytes = 0;
  do {
    bytes += ready_.front().size;
    batch.blocks.push_back(ready_.front());
    ready_.pop_front();
  } while (!one_block && !ready_.empty() && bytes + ready_.front().size <= batch_bytes);
  if (w.group == relieving_group_ && relieved_below_ < w.group) {
    relieved_below_ = w.group;  // its lane works: the groups before it finish what they hold
    ready_changed_.notify_all();
  }
  return true;
}

void block_queue::give_back(block_batch& batch) {
  if (batch.returned) return;
  for (queued_block const& b : batch.blocks) b.reader->give_back(b.reader_block);
  batch.returned = true;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    lent_ -= batch.blocks.size();
  }
  lent_changed_.notify_all();
}

/// Merges block `index`'s tally, and every tally waiting behind it, into their inputs' tallies in input
/// order (under mutex_): a run holds the tallies of the few blocks folded out of order, not one per block.
void block_queue::merge_in_order(std::size_t index, std::size_t input, tally t) {
  waiting_.emplace(index, std::make_pair(input, std::move(t)));
  for (auto next = waiting_.begin(); next != waiting_.end() && next->first == next_to_merge_; next = waiting_.begin()) {
    input_state& into = inputs_.at(next->second.first - first_input_);  // not done: this block was not merged
    into.merged = merge(std::move(into.merged), next->second.second);
    into.merged_blocks += 1;
    waiting_.erase(next);
    ++next_to_merge_;
  }
}

/// Folds the first batch w holds, each input's blocks of it on their own, up to the first that stops the
/// run; the reader gets its blocks back, and the tallies go to the merge.
void block_queue::fold_first(worker& w, block_lane& lane, std::deque<block_batch>& held) {
  block_batch batch = std::move(held.front());
  held.pop_front();
  auto const start = std::chrono::steady_clock::now();
  // [docs:fold-block]
  std::vector<batch_run> const runs = runs_of(batch);
  std::vector<tally> tallies(runs.size());
  std::exception_ptr failure;
  std::size_t failed_run = runs.size();
  for (std::size_t r = 0; r < runs.size(); ++r) {
    try {
      tallies[r] = lane.fold(batch, runs[r]);  // on a GPU: its copy, landed in a device slot
    } catch (...) {
      failure = std::current_exception();  // the run's: the earliest failing block's is the run's
      failed_run = r;
      break;
    }
    if (tallies[r].stop) break;  // nothing after a line that stops the run counts
  }
  give_back(batch);
  done(w, batch, runs, std::move(tallies), failure, failed_run, start);
  // [docs:end]
}

/// A batch's tallies merged in input order (a run's first block carries the tally of the run, its other
/// blocks the empty tally), its failure kept if it is the earliest, w's share counted.
void block_queue::done(worker& w, block_batch const& batch, std::vector<batch_run> const& runs,
                       std::vector<tally> tallies, std::exception_ptr const& failure, std::size_t failed_run,
                       std::chrono::steady_clock::time_point start) {
  auto const end = std::chrono::steady_clock::now();
  std::lock_guard<std::mutex> lock(mutex_);
  if (w.share.blocks == 0) {
    if (!any_folded_) timeline_mark("first block folded");
    any_folded_ = true;
    w.share.first_block_at = std::chrono::duration<double>(start - run_start_).count();
    w.first_fold = start;
  }
  w.share.blocks += batch.blocks.size();
  w.share.bytes += batch.bytes();
  // A GPU is busy from its first block to its last (its copies and folds overlap); a host worker while it folds.
  w.share.busy_seconds = w.share.on_gpu ? std::chrono::duration<double>(end - w.first_fold).count()
                                        : w.share.busy_seconds + std::chrono::duration<double>(end - start).count();
  if (failure) {
    std::size_t const failed = batch.blocks[runs[failed_run].first].index;
    if (failed < failure_block_) {
      failure_ = failure;
      failure_block_ = failed;
    }
  }
  stopped_ = stopped_ || failure;
  for (std::size_t r = 0; r < runs.size(); ++r) {
    stopped_ = stopped_ || tallies[r].stop;
    queued_block const& first = batch.blocks[runs[r].first];
    merge_in_order(first.index, first.input, std::move(tallies[r]));
    for (std::size_t i = 1; i < runs[r].count; ++i) {
      queued_block const& b = batch.blocks[runs[r].first + i];
      merge_in_order(b.index, b.input, tally{});
    }
  }
  if (stopped_) {
    lent_changed_.notify_all();
    ready_changed_.notify_all();
  }
}

/// This worker cannot go on (its lane could not be made, or its feed failed): the reader gets back what
/// it holds, so that the driver's thread is not left waiting for it, and the run stops.
void block_queue::fail_worker(std::deque<block_batch>& held) {
  for (block_batch& b : held) give_back(b);
  std::lock_guard<std::mutex> lock(mutex_);
  if (!failure_) {
    failure_ = std::current_exception();  // before any block of the run that is not merged yet
    failure_block_ = next_to_merge_;
  }
  stopped_ = true;
  ended_ = true;
  ready_changed_.notify_all();
  lent_changed_.notify_all();
}

void block_queue::run(worker& w) {
  std::deque<block_batch> held;  // taken, its text on its way to the lane's memory
  try {
    std::unique_ptr<block_lane> const lane = w.make();
    {
      std::lock_guard<std::mutex> lock(mutex_);
      w.share.on_gpu = lane->on_gpu();
    }
    timeline_mark("a worker's feed ready");
    bool const one_block = !lane->on_gpu();
    int next_slot = 0;
    for (;;) {
      // Before waiting for more, the reader gets back every block whose copy has landed: it may need
      // them to finish the next chunk (a line longer than a block spans several).
      for (block_batch& b : held) {
        if (!b.returned && lane->land(b)) give_back(b);
      }
      block_batch next;
      if (take(w, lane->batch_bytes(), one_block, next)) {
        next.slot = next_slot;
        next_slot = (next_slot + 1) % static_cast<int>(lane->depth());
        lane->start(next);
        held.push_back(std::move(next));
        if (held.size() < lane->depth()) continue;  // take the next one before folding
      }
      if (held.empty()) return;
      fold_first(w, *lane, held);
    }
  } catch (...) {
    fail_worker(held);
  }
}

}  // namespace rowscan::job
