// SPDX-License-Identifier: Apache-2.0
// The job driver (rowscan/job/driver.hpp): blocks from the reader, through the uploader, to a worker.
#include "rowscan/job/driver.hpp"

#include "rowscan/context.hpp"
#include "rowscan/cuda_check.hpp"
#include "rowscan/error.hpp"
#include "rowscan/io/chunked_reader.hpp"
#include "rowscan/io/pinned_memory.hpp"
#include "rowscan/io/text_uploader.hpp"
#include "rowscan/job/merge_reports.hpp"
#include "rowscan/job/out_of_memory.hpp"
#include "rowscan/job/stage_names.hpp"
#include "rowscan/job/timeline.hpp"
#include "rowscan/records.hpp"
#include "rowscan/stage.hpp"

#include <thrust/device_vector.h>

#include <algorithm>
#include <array>
#include <chrono>
#include <condition_variable>
#include <deque>
#include <cstring>
#include <exception>
#include <limits>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <system_error>
#include <thread>
#include <vector>

#if !ROWSCAN_HAS_CUB
#  include <omp.h>
#endif

namespace rowscan::job {
ROWSCAN_SYSTEM_BEGIN
namespace {

double seconds_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

/// Device memory in use now (all processes): the difference at the end is what this run holds.
std::size_t device_bytes_in_use() {
  memory_info const m = device_memory_info();
  return m.total_bytes - m.free_bytes;
}

/// Folds a block's text (device-system memory) with a worker, in halves if the device runs out of
/// memory for the whole; its tally, positions relative to the block. file_offset (where the block
/// starts in its file) is for the out-of-memory error.
// [docs:fold-in-halves]
tally fold_block(worker_slot const& slot, char const* text, std::size_t size, std::uint64_t file_offset,
                 std::string const& label, std::size_t chunk_size) {
  auto split_after = [&](std::size_t middle) { return line_start_after(text, middle, size, *slot.ctx); };
  auto fold = [&](std::size_t begin, std::size_t end) {
    tally t = slot.worker->fold(text + begin, end - begin);
    t.bytes = end - begin;
    return t;
  };
  try {
    return in_halves_if_out_of_memory(size, split_after, fold);
  } catch (out_of_memory_twice const& e) {
    // The memory of the system that folds: the GPU's, or the host's on the host systems.
    constexpr char const* memory = ROWSCAN_HAS_CUB ? "device" : "host";
    throw device_error(label + ": out of " + memory + " memory for the " + std::to_string(e.size) + "-byte chunk at byte " +
                       std::to_string(file_offset + e.offset) +
                       ", and again for half of it; " + slot.worker->out_of_memory_advice(chunk_size));
  }
}
// [docs:end]

/// The error of a line longer than the carry, right after a block whose tally is `here`.
void add_overlong_line(tally& here, block_worker const& worker, std::string const& prefix, std::size_t block_size) {
  if (here.stop) return;  // the block's lines hold an earlier error
  bad_line overlong = worker.overlong_line(prefix);
  overlong.line += here.lines;
  overlong.byte += block_size;
  here.stop = overlong;
}

/// A stage of the driver's own thread (reading, handing out): host time only, so it waits for no
/// worker's device, whose stages are timed on the worker's thread.
class driver_stage {
 public:
  driver_stage(stage_times* times, char const* name) : times_(times), name_(name), start_(std::chrono::steady_clock::now()) {}
  ~driver_stage() {
    if (times_ != nullptr) times_->add(name_, seconds_since(start_));
  }
  driver_stage(driver_stage const&) = delete;
  driver_stage& operator=(driver_stage const&) = delete;

 private:
  stage_times* times_;
  char const* name_;
  std::chrono::steady_clock::time_point start_;
};

/// A block handed to a worker: the reader's block, lent until the worker gives it back.
struct block_task {
  std::size_t index = 0;          // in input order
  char const* text = nullptr;     // the reader's block
  std::size_t size = 0;
  std::uint64_t file_offset = 0;  // where the block starts in its file
  std::uint64_t reader_block = 0;
  int slot = 0;                   // the device slot its copy went to (a GPU's feed)
  bool returned = false;          // the reader has its block back
};

#if ROWSCAN_HAS_CUB
/// How a GPU worker's blocks reach its memory: each is copied into one of two device slots on a stream
/// of its own (io::text_uploader) while the worker folds the other, so it holds two blocks at once.
class block_feed {
 public:
  static constexpr std::size_t depth = io::text_uploader::slots;  ///< blocks a worker holds at once

  block_feed(context const& ctx, std::size_t padding) : ctx_(ctx), uploader_(ctx), padding_(padding) {}

  /// Starts copying the block's text to the device.
  void start(block_task& block) {
    block.slot = next_slot_;
    next_slot_ ^= 1;
    thrust::device_vector<char>& slot = slots_[block.slot];
    if (slot.size() < block.size + padding_) slot.resize(block.size + padding_);  // grows to the largest block
    uploader_.upload(block.slot, thrust::raw_pointer_cast(slot.data()), block.text, block.size);
  }
  /// Waits until the block's copy has landed; true: the reader's block may go back.
  bool land(block_task const& block) {
    stage_scope s(ctx_, hand_over_stage);
    uploader_.host_waits_for(block.slot);
    return true;
  }
  /// The block's device text, which the device work enqueued from now on may read.
  char const* arrive(block_task const& block) {
    uploader_.device_waits_for(block.slot);
    return thrust::raw_pointer_cast(slots_[block.slot].data());
  }
  /// The device work enqueued so far is the last to read the block's slot.
  void folded(block_task const& block) { uploader_.consumed(block.slot); }

 private:
  context const& ctx_;
  io::text_uploader uploader_;
  std::array<thrust::device_vector<char>, io::text_uploader::slots> slots_;
  std::size_t padding_;
  int next_slot_ = 0;
};
#else
/// How a host worker's blocks reach its memory: they are there already. It folds the reader's block
/// where it lies (the reader pads it as the workload asks), one at a time.
class block_feed {
 public:
  static constexpr std::size_t depth = 1;  ///< blocks a worker holds at once

  block_feed(context const&, std::size_t) {}
  void start(block_task&) {}
  bool land(block_task const&) { return false; }  // the reader's block is the text: it goes back once folded
  char const* arrive(block_task const& block) { return block.text; }
  void folded(block_task const&) {}
};
#endif

/// The run's workers, each on a thread of its own, fed from one queue in input order. The driver's
/// thread reads the blocks and hands each to a worker with room for it (hand_out); a worker folds its
/// blocks in the order it got them (a GPU worker takes the next one while it folds, so that its copy
/// overlaps the fold: block_feed::depth), gives each back to the reader, and its tally comes back by
/// block number, to be merged in input order. Host workers hold OpenMP to one thread inside them (the
/// parallelism is across blocks).
class block_workers {
 public:
  block_workers(std::vector<worker_slot> const& slots, io::chunked_reader& reader, std::string const& label,
                std::size_t chunk_size, std::size_t padding, std::chrono::steady_clock::time_point run_start,
                std::uint64_t first_byte)
      : reader_(reader), label_(label), chunk_size_(chunk_size), padding_(padding), run_start_(run_start),
        first_byte_(first_byte) {
    device_ = current_device();  // the device of a worker without one of its own
    for (worker_slot const& slot : slots) workers_.push_back(std::make_unique<state>(slot));
    try {
      for (auto& w : workers_) w->thread = std::thread([this, &w = *w] { run(w); });
    } catch (std::system_error const& e) {
      // The system refused a thread (a low `ulimit -v` or -u): stop those that started, then say so.
      stop();
      throw error("cannot start " + std::to_string(workers_.size()) + " worker threads (" + e.what() +
                  "); give a smaller --threads, or raise the process's limits (ulimit -v, ulimit -u)");
    }
  }
  ~block_workers() { stop(); }
  block_workers(block_workers const&) = delete;
  block_workers& operator=(block_workers const&) = delete;

  /// Blocks the reader must lend at once: one a worker (the one a host worker folds, or the one whose
  /// copy a GPU worker awaits: it gives each back as soon as the copy has landed), and the one in the
  /// driver's hand.
  static unsigned lent_blocks(std::size_t workers) { return static_cast<unsigned>(workers + 1); }

  /// Tells every started worker to quit once it has folded what it holds, and waits for it.
  void stop() {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      ended_ = true;
    }
    work_.notify_all();
    for (auto& w : workers_) {
      if (w->thread.joinable()) w->thread.join();
    }
  }

  /// Waits for a worker with room for a block and hands it block number `index`.
  void hand_out(std::size_t index, io::text_chunk const& block) {
    std::unique_lock<std::mutex> lock(mutex_);
    idle_.wait(lock, [&] { return worker_with_room() != nullptr || failed_thread_; });
    if (failed_thread_) return;  // finish() reports it
    state& w = *worker_with_room();
    w.inbox.push_back({index, block.data, block.size, first_byte_ + block.input_offset, block.block});
    w.held += 1;
    work_.notify_all();
  }

  /// Whether a block so far stopped the run (a bad line, or a fold that threw): hand out no more.
  bool stopped() {
    std::lock_guard<std::mutex> lock(mutex_);
    return stopped_;
  }

  /// Waits for every block handed out to be folded; rethrows what the earliest failing block threw,
  /// else returns the tally of all of them, merged in input order, and how many blocks it holds.
  std::pair<tally, std::size_t> finish() {
    stop();
    if (failure_) std::rethrow_exception(failure_);
    ROWSCAN_EXPECTS(waiting_.empty(), "every block handed out was merged");
    return {std::move(merged_), next_to_merge_};
  }

  /// Each worker's share, in worker order (once finished).
  std::vector<worker_share> shares() const {
    std::vector<worker_share> out;
    for (auto const& w : workers_) out.push_back(w->share);
    return out;
  }

 private:
  struct state {
    explicit state(worker_slot s) : slot(s) {}
    worker_slot slot;
    std::deque<block_task> inbox;  // handed out, not yet taken
    std::size_t held = 0;          // blocks handed out to it and not yet folded
    worker_share share;
    std::chrono::steady_clock::time_point first_fold;
    std::thread thread;
  };

  state* worker_with_room() {
    for (auto& w : workers_) {
      if (w->held < block_feed::depth) return w.get();
    }
    return nullptr;
  }

  /// The next block handed to w, waiting for one while the input goes on; false once it has ended.
  bool take(state& w, block_task& block) {
    std::unique_lock<std::mutex> lock(mutex_);
    work_.wait(lock, [&] { return !w.inbox.empty() || ended_; });
    if (w.inbox.empty()) return false;
    block = w.inbox.front();
    w.inbox.pop_front();
    return true;
  }

  /// Merges block `index`'s tally, and every tally waiting behind it, into merged_ in input order (under
  /// mutex_): a run holds the tallies of the few blocks folded out of order, not one per block.
  void merge_in_order(std::size_t index, tally t) {
    waiting_.emplace(index, std::move(t));
    for (auto next = waiting_.begin(); next != waiting_.end() && next->first == next_to_merge_; next = waiting_.begin()) {
      merged_ = merge(std::move(merged_), next->second);
      waiting_.erase(next);
      ++next_to_merge_;
    }
  }

  /// Folds the first block w holds: its text in w's memory, in halves if that runs out; the reader gets
  /// its block back, and the tally goes to the merge.
  void fold_first(state& w, block_feed& feed, std::deque<block_task>& held) {
    block_task const block = held.front();
    held.pop_front();
    auto const start = std::chrono::steady_clock::now();
    // [docs:fold-block]
    tally t;
    std::exception_ptr failure;
    try {
      char const* const text = feed.arrive(block);  // on a GPU: its copy, landed in a device slot
      t = fold_block(w.slot, text, block.size, block.file_offset, label_, chunk_size_);
      feed.folded(block);
    } catch (...) {
      failure = std::current_exception();  // the block's: the earliest failing block's is the run's
    }
    if (!block.returned) reader_.give_back(block.reader_block);
    done(w, block, std::move(t), failure, start);
    // [docs:end]
  }

  /// A block's tally merged in input order, its failure kept if it is the earliest, w's share counted.
  void done(state& w, block_task const& block, tally t, std::exception_ptr const& failure,
            std::chrono::steady_clock::time_point start) {
    auto const end = std::chrono::steady_clock::now();
    {
      std::lock_guard<std::mutex> lock(mutex_);
      if (w.share.blocks == 0) {
        if (!any_folded_) timeline_mark("first block folded");
        any_folded_ = true;
        w.share.first_block_at = std::chrono::duration<double>(start - run_start_).count();
        w.first_fold = start;
      }
      w.share.blocks += 1;
      w.share.bytes += block.size;
      // A GPU is busy from its first block to its last (its copies and folds overlap); a host worker
      // while it folds.
      w.share.busy_seconds = ROWSCAN_HAS_CUB ? std::chrono::duration<double>(end - w.first_fold).count()
                                             : w.share.busy_seconds + std::chrono::duration<double>(end - start).count();
      w.share.on_gpu = ROWSCAN_HAS_CUB;
      if (failure && block.index < failure_block_) {
        failure_ = failure;
        failure_block_ = block.index;
      }
      stopped_ = stopped_ || failure || t.stop;
      merge_in_order(block.index, std::move(t));
      w.held -= 1;
    }
    idle_.notify_all();
  }

  void run(state& w) {
    one_thread_scope const one_thread;
    std::deque<block_task> held;  // taken, its text on its way to w's memory
    try {
      use_device(w.slot.device != no_device ? w.slot.device : device_);
      block_feed feed(*w.slot.ctx, padding_);
      timeline_mark("a worker's feed ready");
      for (;;) {
        // Before waiting for another block, the reader gets back every block whose copy has landed:
        // it may need them to finish the next chunk (a line longer than a block spans several).
        for (block_task& b : held) {
          if (!b.returned && feed.land(b)) {
            reader_.give_back(b.reader_block);
            b.returned = true;
          }
        }
        block_task next;
        bool const more = take(w, next);
        if (more) {
          feed.start(next);
          held.push_back(next);
          if (held.size() < block_feed::depth) continue;  // take the next one before folding
        }
        if (held.empty()) return;
        fold_first(w, feed, held);
      }
    } catch (...) {
      // Only the feed can get here (a fold's errors are the block's): this worker cannot go on. The
      // reader gets back what it holds, so that the driver's thread is not left waiting for it.
      std::lock_guard<std::mutex> lock(mutex_);
      for (block_task const& b : held) {
        if (!b.returned) reader_.give_back(b.reader_block);
      }
      for (block_task const& b : w.inbox) reader_.give_back(b.reader_block);
      w.inbox.clear();
      if (!failure_) failure_ = std::current_exception();
      stopped_ = true;
      failed_thread_ = true;
      idle_.notify_all();
    }
  }

  io::chunked_reader& reader_;
  std::string const& label_;
  std::size_t chunk_size_;
  std::size_t padding_;
  std::chrono::steady_clock::time_point run_start_;  // the driver's start: workers' first blocks are timed from it
  std::uint64_t first_byte_;                         // where the reader started in the file
  int device_ = no_device;  // the GPU current when the run began: a worker without a device of its own uses it
  std::vector<std::unique_ptr<state>> workers_;
  std::mutex mutex_;
  std::condition_variable work_;  // a worker has a block, or the input has ended
  std::condition_variable idle_;  // a worker folded a block
  bool ended_ = false;
  bool stopped_ = false;
  bool failed_thread_ = false;
  bool any_folded_ = false;  // a worker has folded a block
  tally merged_;                          // blocks [0, next_to_merge_), in input order
  std::size_t next_to_merge_ = 0;
  std::map<std::size_t, tally> waiting_;  // blocks folded before an earlier one, by block number
  std::exception_ptr failure_;
  std::size_t failure_block_ = std::numeric_limits<std::size_t>::max();
};

}  // namespace

#if ROWSCAN_HAS_CUB
one_thread_scope::one_thread_scope() = default;
one_thread_scope::~one_thread_scope() = default;
#else
one_thread_scope::one_thread_scope() : before_(omp_get_max_threads()) { omp_set_num_threads(1); }
one_thread_scope::~one_thread_scope() { omp_set_num_threads(before_); }
#endif

std::vector<int> worker_devices(job_options const& options) {
#if ROWSCAN_HAS_CUB
  return options.gpus.empty() ? std::vector<int>{no_device} : options.gpus;
#else
  std::size_t const n = options.workers != 0 ? options.workers : static_cast<std::size_t>(std::max(1, omp_get_max_threads()));
  return std::vector<int>(n, no_device);
#endif
}

void use_device(int device) {
#if ROWSCAN_HAS_CUB
  if (device != no_device) check_cuda(cudaSetDevice(device), ("cannot use GPU " + std::to_string(device)).c_str());
#else
  (void)device;
#endif
}

int current_device() {
#if ROWSCAN_HAS_CUB
  int device = 0;
  check_cuda(cudaGetDevice(&device), "cannot tell the current GPU");
  return device;
#else
  return no_device;
#endif
}

void start_devices(std::vector<int> const& devices) {
#if ROWSCAN_HAS_CUB
  std::vector<int> distinct;
  for (int const d : devices) {
    if (d != no_device && std::find(distinct.begin(), distinct.end(), d) == distinct.end()) distinct.push_back(d);
  }
  if (distinct.size() < 2) return;  // one GPU starts with its first call, as it always has
  std::vector<std::exception_ptr> failures(distinct.size());
  std::vector<std::thread> starting;
  for (std::size_t i = 0; i < distinct.size(); ++i) {
    starting.emplace_back([&, i] {
      try {
        use_device(distinct[i]);
        check_cuda(cudaFree(nullptr), ("cannot start GPU " + std::to_string(distinct[i])).c_str());
      } catch (...) {
        failures[i] = std::current_exception();
      }
    });
  }
  for (std::thread& t : starting) t.join();
  for (std::exception_ptr const& failure : failures) {
    if (failure) std::rethrow_exception(failure);
  }
#else
  (void)devices;
#endif
}

std::size_t preferred_chunk_size(std::size_t on_gpu, std::size_t on_host) {
  std::size_t const preferred = ROWSCAN_HAS_CUB ? on_gpu : on_host;
  std::size_t const share = device_memory_info().free_bytes / 8;
  return std::clamp(std::min(share, preferred), std::size_t{1} << 20, max_chunk_size);
}

std::size_t chosen_chunk_size(job_options const& options, chunk_limits const& limits) {
  std::size_t const size = options.chunk_size == 0 ? limits.default_chunk() : options.chunk_size;
  if (size < limits.min_chunk || size > max_chunk_size) {
    throw error("chunk size must be between " + std::to_string(limits.min_chunk) + " and " +
                std::to_string(max_chunk_size) + " bytes, not " + std::to_string(size));
  }
  return size;
}

context start_context(job_options const& options, run_report& report) {
  auto const start = std::chrono::steady_clock::now();
  context ctx;
  ctx.fail_allocations_above(options.fail_allocations_above);
  if (options.time_stages) ctx.observe_stages(&report.times);
  report.times.add(setup_stage, seconds_since(start));
  return ctx;
}

void run_blocks(int fd, std::string const& label, job_options const& options, block_layout const& layout,
                std::vector<worker_slot> const& workers, run_report& report) {
  ROWSCAN_EXPECTS(!workers.empty(), "a run needs a worker");
  context const& ctx = *workers.front().ctx;  // the one the driver's own stages are timed on
  std::size_t const bytes_at_start = device_bytes_in_use();
  auto const setup_start = std::chrono::steady_clock::now();
  io::reader_options reading;
  reading.block_size = layout.block_size;
  reading.max_line = layout.carried_line;
  reading.threads = options.reader_threads;
  reading.max_bytes = options.max_input_bytes;
  reading.memory = {io::allocate_pinned, io::free_pinned};  // page-locked under CUDA, plain on the host
  // The reader lends every worker a block, and the driver one more; a host worker reads the reader's
  // block in place, after its text the padding the workload asks for.
  reading.held = block_workers::lent_blocks(workers.size());
  reading.padding = ROWSCAN_HAS_CUB ? 0 : layout.text_padding;
  io::chunked_reader reader(fd, label, reading);
  timeline_mark("reader ready");
  stage_times* const driver_times = options.time_stages ? &report.times : nullptr;
  auto next_block = [&](io::text_chunk& block) {
    driver_stage s(driver_times, "read (waiting)");
    return reader.next(block);
  };
  // The staging block goes back to the reader with next(): keep what an overlong line's error needs.
  auto overlong_prefix = [&](io::text_chunk const& block) {
    return std::string(block.overlong_prefix, std::min(block.overlong_prefix_size, 2 * layout.carried_line));
  };

  block_workers folding(workers, reader, label, report.chunk_size, layout.text_padding, setup_start, reader.first_byte());
  report.times.add("reader setup", seconds_since(setup_start));
  std::optional<std::string> overlong;  // the prefix of a line too long to carry, after the last block
  io::text_chunk block{};
  std::size_t blocks = 0;
  while (!folding.stopped() && next_block(block)) {
    {
      // On a GPU this is the time the GPU's copies and folds keep it busy: those are its own stages.
      driver_stage s(ROWSCAN_HAS_CUB ? nullptr : driver_times, hand_over_stage);
      folding.hand_out(blocks, block);
    }
    if (block.overlong_line) overlong = overlong_prefix(block);
    ++blocks;
    if (options.progress) options.progress(block.input_offset + block.size);
  }
  auto [input, folded_blocks] = folding.finish();  // in input order: the first bad line wins
  timeline_mark("last block folded");
  if (overlong) {
    // The reader ends with the block an overlong line follows: its error comes after every block.
    tally after_last;
    add_overlong_line(after_last, *workers.front().worker, *overlong, 0);
    input = merge(std::move(input), after_last);
  }
  if (input.stop) throw located(*input.stop, label);
  report.chunks = folded_blocks;
  report.bytes = input.bytes;
  report.shares = folding.shares();
  report.lines = input.lines;
  report.skipped = located_skips(input, label);
  std::size_t const in_use = device_bytes_in_use();
  report.device_bytes = in_use - std::min(bytes_at_start, in_use);
  report.pool_peak_bytes = ctx.pool().peak_large_bytes_held();
}

std::string run_blocks_each(input_sequence& inputs, job_options const& options, block_layout const& layout,
                            std::vector<worker_slot> const& workers, run_report& report) {
  int fd = -1;
  std::string label;
  std::uint64_t max_bytes = 0;
  std::uint64_t before = 0;  // bytes of the inputs already read: progress counts the whole sequence
  while (inputs.next(fd, label, max_bytes)) {
    job_options one = options;
    one.max_input_bytes = max_bytes;
    if (options.progress) one.progress = [&options, before](std::uint64_t done) { options.progress(before + done); };
    run_report input;
    input.chunk_size = report.chunk_size;
    run_blocks(fd, label, one, layout, workers, input);
    inputs.done(input);
    before += input.bytes;
    add_report(report, input);
    report.skipped = std::move(input.skipped);
  }
  return label;
}

ROWSCAN_SYSTEM_END
}  // namespace rowscan::job
