// SPDX-License-Identifier: Apache-2.0
// The job driver (rowscan/job/driver.hpp): blocks from the reader, through the uploader, to a worker.
#include "rowscan/job/driver.hpp"

#include "rowscan/context.hpp"
#include "rowscan/error.hpp"
#include "rowscan/io/chunked_reader.hpp"
#include "rowscan/io/pinned_memory.hpp"
#include "rowscan/io/text_uploader.hpp"
#include "rowscan/job/merge_reports.hpp"
#include "rowscan/job/out_of_memory.hpp"
#include "rowscan/job/stage_names.hpp"
#include "rowscan/records.hpp"
#include "rowscan/stage.hpp"

#include <thrust/device_vector.h>

#include <algorithm>
#include <array>
#include <chrono>
#include <condition_variable>
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

#if !ROWSCAN_HAS_CUB
/// The host systems' workers: each folds on a thread of its own, one whole block at a time, with
/// OpenMP held to one thread inside it (the parallelism is across blocks). hand_out() lends an idle
/// worker the reader's block itself (no copy: the reader lends every worker a block, followed by the
/// padding the workload reads), and the worker gives it back when it is folded; the tallies come back
/// by block number, to be merged in input order.
class host_workers {
 public:
  host_workers(std::vector<worker_slot> const& slots, io::chunked_reader& reader, std::string const& label,
               std::size_t chunk_size, std::chrono::steady_clock::time_point run_start, std::uint64_t first_byte)
      : reader_(reader), label_(label), chunk_size_(chunk_size), run_start_(run_start), first_byte_(first_byte) {
    for (worker_slot const& slot : slots) workers_.push_back(std::make_unique<state>(slot));
    try {
      for (auto& w : workers_) w->thread = std::thread([this, &w = *w] { run(w); });
    } catch (std::system_error const& e) {
      // The system refused a thread (a low `ulimit -v` or -u): stop those that started, then say so.
      stop();
      throw error("cannot start " + std::to_string(workers_.size()) + " host workers (" + e.what() +
                  "); give a smaller --threads, or raise the process's limits (ulimit -v, ulimit -u)");
    }
  }
  ~host_workers() { stop(); }
  host_workers(host_workers const&) = delete;
  host_workers& operator=(host_workers const&) = delete;

  /// Tells every started worker to quit and waits for it.
  void stop() {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      quit_ = true;
    }
    work_.notify_all();
    for (auto& w : workers_) {
      if (w->thread.joinable()) w->thread.join();
    }
  }

  /// Waits for an idle worker and lends it block number `index`.
  void hand_out(std::size_t index, io::text_chunk const& block) {
    std::unique_lock<std::mutex> lock(mutex_);
    idle_.wait(lock, [&] { return idle_worker() != nullptr; });
    state& w = *idle_worker();
    w.block = {index, block.data, block.size, first_byte_ + block.input_offset, block.block};
    w.busy = true;
    work_.notify_all();
  }

  /// Whether a block so far stopped the run (a bad line, or a fold that threw): hand out no more.
  bool stopped() {
    std::lock_guard<std::mutex> lock(mutex_);
    return stopped_;
  }

  /// Waits for every block handed out; rethrows what the earliest failing block threw, else returns
  /// the tally of all of them, merged in input order, and how many blocks it holds.
  std::pair<tally, std::size_t> finish() {
    std::unique_lock<std::mutex> lock(mutex_);
    idle_.wait(lock, [&] {
      return std::none_of(workers_.begin(), workers_.end(), [](auto const& w) { return w->busy; });
    });
    if (failure_) std::rethrow_exception(failure_);
    ROWSCAN_EXPECTS(waiting_.empty(), "every block handed out was merged");
    return {std::move(merged_), next_to_merge_};
  }

  /// Each worker's share so far, in worker order.
  std::vector<worker_share> shares() {
    std::lock_guard<std::mutex> lock(mutex_);
    std::vector<worker_share> out;
    for (auto const& w : workers_) out.push_back(w->share);
    return out;
  }

 private:
  struct block_task {
    std::size_t index = 0;
    char const* text = nullptr;     // the reader's block, lent until the worker gives it back
    std::size_t size = 0;
    std::uint64_t file_offset = 0;  // where the block starts in its file
    std::uint64_t reader_block = 0;
  };
  struct state {
    explicit state(worker_slot s) : slot(s) {}
    worker_slot slot;
    block_task block;
    worker_share share;
    bool busy = false;
    std::thread thread;
  };

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

  state* idle_worker() {
    for (auto& w : workers_) {
      if (!w->busy) return w.get();
    }
    return nullptr;
  }

  void run(state& w) {
    one_thread_scope const one_thread;
    for (;;) {
      {
        std::unique_lock<std::mutex> lock(mutex_);
        work_.wait(lock, [&] { return w.busy || quit_; });
        if (!w.busy) return;
      }
      tally t;
      std::exception_ptr failure;
      auto const start = std::chrono::steady_clock::now();
      try {
        t = fold_block(w.slot, w.block.text, w.block.size, w.block.file_offset, label_, chunk_size_);
      } catch (...) {
        failure = std::current_exception();
      }
      reader_.give_back(w.block.reader_block);
      {
        std::lock_guard<std::mutex> lock(mutex_);
        if (w.share.blocks == 0) w.share.first_block_at = std::chrono::duration<double>(start - run_start_).count();
        w.share.blocks += 1;
        w.share.bytes += w.block.size;
        w.share.busy_seconds += seconds_since(start);
        if (failure && w.block.index < failure_block_) {
          failure_ = failure;
          failure_block_ = w.block.index;
        }
        stopped_ = stopped_ || failure || t.stop;
        merge_in_order(w.block.index, std::move(t));
        w.busy = false;
      }
      idle_.notify_all();
    }
  }

  io::chunked_reader& reader_;
  std::string const& label_;
  std::size_t chunk_size_;
  std::chrono::steady_clock::time_point run_start_;  // the driver's start: workers' first blocks are timed from it
  std::uint64_t first_byte_;                         // where the reader started in the file
  std::vector<std::unique_ptr<state>> workers_;
  std::mutex mutex_;
  std::condition_variable work_;  // a worker has a block, or it is time to quit
  std::condition_variable idle_;  // a worker finished its block
  bool quit_ = false;
  bool stopped_ = false;
  tally merged_;                          // blocks [0, next_to_merge_), in input order
  std::size_t next_to_merge_ = 0;
  std::map<std::size_t, tally> waiting_;  // blocks folded before an earlier one, by block number
  std::exception_ptr failure_;
  std::size_t failure_block_ = std::numeric_limits<std::size_t>::max();
};
#endif

}  // namespace

#if ROWSCAN_HAS_CUB
one_thread_scope::one_thread_scope() = default;
one_thread_scope::~one_thread_scope() = default;
#else
one_thread_scope::one_thread_scope() : before_(omp_get_max_threads()) { omp_set_num_threads(1); }
one_thread_scope::~one_thread_scope() { omp_set_num_threads(before_); }
#endif

std::size_t worker_count(job_options const& options) {
#if ROWSCAN_HAS_CUB
  (void)options;
  return 1;
#else
  return options.workers != 0 ? options.workers : static_cast<std::size_t>(std::max(1, omp_get_max_threads()));
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
#if !ROWSCAN_HAS_CUB
  // Host workers fold the reader's blocks where they lie: one lent to each worker, one in the driver's hand.
  reading.held = static_cast<unsigned>(workers.size() + 1);
  reading.padding = layout.text_padding;
#endif
  io::chunked_reader reader(fd, label, reading);
  tally input;  // every block so far, in input order
  auto next_block = [&](io::text_chunk& block) {
    stage_scope s(ctx, "read (waiting)");
    return reader.next(block);
  };
  // The staging block goes back to the reader with next(): keep what an overlong line's error needs.
  auto overlong_prefix = [&](io::text_chunk const& block) {
    return std::string(block.overlong_prefix, std::min(block.overlong_prefix_size, 2 * layout.carried_line));
  };
#if ROWSCAN_HAS_CUB
  ROWSCAN_EXPECTS(workers.size() == 1, "the CUDA build runs one worker");
  worker_slot const& gpu = workers.front();
  // Two device slots: the next block is copied into one while the worker folds the other. Each grows
  // to its largest block, plus the padding the worker may read.
  io::text_uploader uploader(ctx);
  std::array<thrust::device_vector<char>, io::text_uploader::slots> slot_text;
  auto upload = [&](int slot, io::text_chunk const& c) {
    if (slot_text[slot].size() < c.size + layout.text_padding) slot_text[slot].resize(c.size + layout.text_padding);
    uploader.upload(slot, thrust::raw_pointer_cast(slot_text[slot].data()), c.data, c.size);
  };
  report.times.add("reader setup", seconds_since(setup_start));

  auto const folding_start = std::chrono::steady_clock::now();
  io::text_chunk next{};
  bool more = next_block(next);
  if (more) upload(0, next);
  for (int slot = 0; more; slot ^= 1) {
    io::text_chunk const block = next;
    std::string const prefix = block.overlong_line ? overlong_prefix(block) : std::string();
    {
      stage_scope s(ctx, hand_over_stage);
      uploader.host_waits_for(slot);
    }
    more = next_block(next);
    if (more) upload(slot ^ 1, next);

    // [docs:fold-block]
    uploader.device_waits_for(slot);
    char const* const text = thrust::raw_pointer_cast(slot_text[slot].data());
    tally here = fold_block(gpu, text, block.size, reader.first_byte() + block.input_offset, label, report.chunk_size);
    uploader.consumed(slot);
    if (block.overlong_line) add_overlong_line(here, *gpu.worker, prefix, block.size);
    input = merge(std::move(input), here);
    if (input.stop) throw located(*input.stop, label);
    // [docs:end]
    ++report.chunks;
    if (options.progress) options.progress(block.input_offset + block.size);
  }
#else
  host_workers hosts(workers, reader, label, report.chunk_size, setup_start, reader.first_byte());
  report.times.add("reader setup", seconds_since(setup_start));
  std::optional<std::string> overlong;  // the prefix of a line too long to carry, after the last block
  io::text_chunk block{};
  std::size_t blocks = 0;
  while (!hosts.stopped() && next_block(block)) {
    {
      stage_scope s(ctx, hand_over_stage);
      hosts.hand_out(blocks, block);
    }
    if (block.overlong_line) overlong = overlong_prefix(block);
    ++blocks;
    if (options.progress) options.progress(block.input_offset + block.size);
  }
  auto [folded, folded_blocks] = hosts.finish();
  input = std::move(folded);  // in input order: the first bad line wins
  if (overlong) {
    // The reader ends with the block an overlong line follows: its error comes after every block.
    tally after_last;
    add_overlong_line(after_last, *workers.front().worker, *overlong, 0);
    input = merge(std::move(input), after_last);
  }
  if (input.stop) throw located(*input.stop, label);
  report.chunks = folded_blocks;
#endif
  report.bytes = input.bytes;
#if !ROWSCAN_HAS_CUB
  report.shares = hosts.shares();
#else
  ctx.synchronize();  // the last block's fold is part of the GPU's share
  report.shares = {worker_share{report.chunks, input.bytes, seconds_since(folding_start),
                                std::chrono::duration<double>(folding_start - setup_start).count(), true}};
#endif
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
