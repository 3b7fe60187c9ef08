// SPDX-License-Identifier: Apache-2.0
// The job driver, compiled once (rowscan/job/run_blocks.hpp): the inputs read into one queue, the lanes of
// an engine's group folding its blocks, the tallies merged and reported in input order.
#include "rowscan/job/run_blocks.hpp"

#include "rowscan/error.hpp"
#include "rowscan/io/chunked_reader.hpp"
#include "rowscan/io/reader_threads.hpp"
#include "rowscan/io/recycled_blocks.hpp"
#include "rowscan/job/block_queue.hpp"
#include "rowscan/job/block_size.hpp"
#include "rowscan/job/merge_reports.hpp"
#include "rowscan/job/lockable_memory.hpp"
#include "rowscan/job/timeline.hpp"

#include <algorithm>
#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <exception>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

namespace rowscan::job {
namespace {

double seconds_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}
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

/// The reader threads of a run (0: up to 16, io::reader_options::threads). A GPU takes a block faster
/// than one thread copies it from the page cache, so a run a GPU may join gets the readers asked for.
/// A host worker folds a few hundred MB/s and a reader copies several GB/s: one reader per four host
/// workers keeps them fed, and more readers only take the workers' cores (docs/data/host_readers-h100.csv).
unsigned reader_threads_for(job_options const& options, bool gpu, bool shared, std::size_t workers) {
  if (gpu || shared) return options.reader_threads;
  auto const enough = static_cast<unsigned>(std::max<std::size_t>(1, (workers + 3) / 4));
  return options.reader_threads == 0 ? enough : std::min(options.reader_threads, enough);
}

/// Whether host workers read a regular file through mapped windows (io/mapped_windows.hpp) rather than
/// copies in the reader's ring: yes, unless ROWSCAN_READS=copy asks for the ring (for comparisons).
bool maps_files() {
  char const* const reads = std::getenv("ROWSCAN_READS");
  return reads == nullptr || std::strcmp(reads, "copy") != 0;
}

/// A run's joining group (run_blocks.hpp): made on a thread of its own while the first group's lanes fold,
/// its lanes joined to the queue if it is still open. Its fold place is the caller's, declared before the
/// queue, so that it outlives the lanes.
class joiner {
 public:
  joiner(joining_group& joining, block_queue& queue, lockable_memory& ring, std::optional<fold_place>& place,
         std::chrono::steady_clock::time_point run_start)
      : joining_(joining), queue_(queue), ring_(ring), place_(place), run_start_(run_start),
        thread_([this] { make_and_join(); }) {}
  ~joiner() {
    close();
    wait();
  }
  joiner(joiner const&) = delete;
  joiner& operator=(joiner const&) = delete;

  /// The queue takes no more lanes (it is finishing).
  void close() {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      open_ = false;
    }
    changed_.notify_all();  // a group held for the testing hold's block joins no more
  }
  /// Counts a pushed block; at the testing hold's block, lets the group join and waits until it has (or failed):
  /// the first group's lanes had the blocks before it to themselves.
  void pushed_one() {
    if (joining_.join_after_blocks == 0) return;
    std::unique_lock<std::mutex> lock(mutex_);
    if (++pushed_ != joining_.join_after_blocks) return;
    changed_.notify_all();
    changed_.wait(lock, [&] { return settled_; });
  }
  /// Waits until the group is made (or failed); what making it threw, if anything.
  std::exception_ptr wait() {
    if (thread_.joinable()) thread_.join();
    return failure_;
  }

 private:
  void make_and_join() {
    try {
      lane_group const& group = joining_.make();
      std::unique_lock<std::mutex> lock(mutex_);
      changed_.wait(lock, [&] { return pushed_ >= joining_.join_after_blocks || !open_; });  // the testing hold
      if (open_) {
        place_.emplace(fold_place{group.chunk_size(), group.layout().text_padding, group.layout().block_size, &ring_});
        queue_.join(group.lanes(*place_), joining_.relieves_first);
        joining_.joined_at = seconds_since(run_start_);
        timeline_mark("workers joined the queue");
      }
    } catch (...) {
      failure_ = std::current_exception();
    }
    {
      std::lock_guard<std::mutex> lock(mutex_);
      settled_ = true;
    }
    changed_.notify_all();
  }

  joining_group& joining_;
  block_queue& queue_;
  lockable_memory& ring_;
  std::optional<fold_place>& place_;
  std::chrono::steady_clock::time_point const run_start_;
  std::mutex mutex_;
  std::condition_variable changed_;
  bool open_ = true;
  bool settled_ = false;  // made and joined, or failed
  std::size_t pushed_ = 0;
  std::exception_ptr failure_;
  std::thread thread_;  // last: it starts once every member above is made
};

/// An input of a run that the queue has begun: its reader lives until every block of it is back.
struct open_input {
  std::string label;
  std::unique_ptr<io::chunked_reader> reader;
  std::optional<std::string> overlong;  ///< the prefix of a line too long to carry, after its last block
};

/// The reader's settings for one input of a run (fd at its first byte, at most max_bytes of it).
io::reader_options reading_for(int fd, std::uint64_t max_bytes, job_options const& options, block_layout const& layout,
                               bool gpu, bool shared, std::size_t workers, unsigned for_joiners,
                               io::block_memory const& ring) {
  io::reader_options reading;
  // An input of fewer blocks than workers is cut into one block a worker (job/block_size.hpp); a run's
  // blocks are also for the workers that may join, whom this run does not count.
  reading.block_size = block_size_for(io::bytes_ahead(fd, max_bytes), layout.block_size, shared ? 1 : workers);
  reading.max_line = layout.carried_line;
  reading.quote = layout.record_quote;
  reading.threads = reader_threads_for(options, gpu, shared, workers);
  reading.max_bytes = max_bytes;
  // Page-locked under CUDA, plain on the host; a ring a GPU may join is plain until it locks it.
  reading.memory = ring;
  // The reader lends every worker a block (a GPU gives each back as soon as its copy has landed), and
  // the driver one more; a host worker reads the reader's block in place, after its text the padding
  // the workload asks for.
  // A run a group may join lends more, to its workers (a GPU takes the ready blocks that fill its slot).
  reading.held = static_cast<unsigned>(workers + 1 + for_joiners);
  // Blocks held for a long time make the reader read as far ahead again: a ring slot is read into again
  // only once every block before it is back. A joining GPU holds a slot's worth of blocks until
  // its copy lands, so with less the reader waits for the GPU and the GPU for the reader. Host workers
  // alone hold theirs for a whole fold and finish them at about the same time: with two blocks to spare
  // the reader waits for the oldest block in flight, then every worker waits for the reader, so they get
  // a second round of blocks (docs/data/host_ring-h100.csv). That round fits memory_bound.hpp's
  // per-worker term: a worker folding in place has no device slots.
  unsigned const read_ahead = shared ? for_joiners : gpu ? 0 : static_cast<unsigned>(workers);
  if (read_ahead != 0) reading.buffers = reading.held + 2 + read_ahead;
  reading.padding = gpu && !shared ? 0 : layout.text_padding;
  // Host workers alone fold a block where it lies: a file's own pages, then, and no copy of them.
  reading.map_file = !gpu && !shared && maps_files();
  // A ring block the input no longer needs goes back to the run's recycled blocks at once: the next
  // input's reader, started as this one gives its last block, takes it instead of page-locking a new one.
  reading.release_spare = true;
  // A window of as many blocks as there are workers: a mmap and a munmap per round of blocks rather than
  // per block, and no more resident pages than memory_bound.hpp's per-worker term holds.
  reading.blocks_per_window = workers;
  return reading;
}

/// Adds the shares of `more` to those of `into`, worker by worker (both in worker order).
void add_shares(std::vector<worker_share>& into, std::vector<worker_share> const& more) {
  if (into.size() < more.size()) into.resize(more.size());
  for (std::size_t w = 0; w < more.size(); ++w) {
    if (more[w].blocks != 0 && into[w].blocks == 0) into[w].first_block_at = more[w].first_block_at;
    into[w].blocks += more[w].blocks;
    into[w].bytes += more[w].bytes;
    into[w].busy_seconds += more[w].busy_seconds;
    into[w].on_gpu = into[w].on_gpu || more[w].on_gpu;
  }
}

}  // namespace

std::size_t process_threads() {
  std::FILE* status = std::fopen("/proc/self/status", "r");
  if (status == nullptr) return 0;
  std::size_t threads = 0;
  char line[256];
  while (std::fgets(line, sizeof line, status) != nullptr) {
    if (std::sscanf(line, "Threads: %zu", &threads) == 1) break;
  }
  std::fclose(status);
  return threads;
}

std::string run_blocks(input_sequence& inputs, job_options const& options, lane_group const& group, run_report& report,
                       joining_group* joining) {
  ROWSCAN_EXPECTS(group.workers() != 0, "a run needs a worker");
  auto const run_start = std::chrono::steady_clock::now();
  block_layout const& layout = group.layout();
  bool const gpu = group.on_gpu();
  bool const shared = joining != nullptr;  // another group's lanes may join the queue
  std::size_t const bytes_at_start = group.memory_in_use();
  stage_times* const driver_times = options.time_stages ? &report.times : nullptr;
  unsigned const for_joiners = shared ? static_cast<unsigned>(joining->blocks) : 0;
  std::size_t const max_lent = group.workers() + for_joiners;  // a reader lends one more, in the driver's hand
  // Every input's reader takes its ring's blocks from here and leaves them for the next one's: on a GPU
  // they are page-locked, which costs milliseconds a block (io/recycled_blocks.hpp). Where a GPU may join,
  // the ring is plain memory that it locks block by block once it has a context (lockable_memory.hpp);
  // kept from input to input, its blocks stay locked for the whole list.
  lockable_memory lockable;  // before the ring: the ring gives its blocks back to it
  io::recycled_blocks ring(shared ? lockable.memory() : group.ring_memory());
  io::block_memory const ring_memory = ring.memory();
  io::reader_threads reading_threads;  // every reader's, made once for the list (before the readers: it outlives them)
  // The run's inputs whose blocks may be in the queue (declared before it: their readers outlive its
  // workers), and the queue with its workers: made once for every input of the list.
  std::deque<open_input> open;
  fold_place const place{group.chunk_size(), layout.text_padding, layout.block_size, shared ? &lockable : nullptr};
  std::optional<fold_place> joining_place;  // the joining group's, once it joins
  block_queue folding(max_lent, run_start);
  folding.join(group.lanes(place));
  std::optional<joiner> joins;  // goes before the queue: it stops joining, and waits for the group's making
  if (shared) joins.emplace(*joining, folding, lockable, joining_place, run_start);

  // Inputs done (every block folded and back with its reader), not reported yet, in input order: the
  // front of `open`. Their readers go at once, so that the run holds the rings of inputs in flight only.
  std::vector<input_tally> done_unreported;
  auto take_done = [&] {
    for (input_tally& one : folding.done_inputs()) {
      open[done_unreported.size()].reader.reset();
      done_unreported.push_back(std::move(one));
    }
  };
  // The inputs done: each tally reported (its error thrown, the first in input order), the input let go.
  std::string label;
  auto report_done = [&](std::vector<input_tally> last) {
    take_done();
    std::vector<input_tally> done = std::move(done_unreported);
    done_unreported.clear();
    for (input_tally& one : last) done.push_back(std::move(one));
    for (input_tally& one : done) {
      open_input& input = open.front();
      tally folded = std::move(one.folded);
      if (input.overlong) {
        // The reader ends with the block an overlong line follows: its error comes after every block.
        tally after_last;
        add_overlong_line(after_last, group.first_worker(), *input.overlong, 0);
        folded = merge(std::move(folded), after_last);
      }
      if (folded.stop) throw located(*folded.stop, input.label);
      run_report each;
      each.chunk_size = report.chunk_size;
      each.chunks = one.blocks;
      each.bytes = folded.bytes;
      each.lines = folded.lines;
      each.skipped = located_skips(folded, input.label);
      inputs.done(each);
      add_report(report, each);
      report.skipped = std::move(each.skipped);  // the last input's
      open.pop_front();
    }
  };

  // Waits until every input begun in the queue is done and reported; false if the run stopped first.
  auto finish_open_inputs = [&]() -> bool {
    while (!open.empty() && !folding.stopped()) {
      report_done({});
      if (!open.empty()) std::this_thread::sleep_for(std::chrono::microseconds(200));
    }
    return open.empty();
  };
  std::vector<worker_share> resident_shares;  // the workers' shares of the inputs folded where they lie

  // An input of the list, opened: its reader (none for a session's copy kept on the device, folded where
  // it lies when its turn comes), or what opening it threw; `last`: the list had no more.
  struct opened_input {
    bool last = false;
    int fd = -1;
    std::string label;
    std::uint64_t max_bytes = 0;
    std::unique_ptr<io::chunked_reader> reader;
    std::exception_ptr failure;
  };
  auto make_reader = [&](opened_input& in) {
    auto const setup_start = std::chrono::steady_clock::now();
    io::reader_options reading =
        reading_for(in.fd, in.max_bytes, options, layout, gpu, shared, group.workers(), for_joiners, ring_memory);
    reading.threads_from = &reading_threads;
    in.reader = std::make_unique<io::chunked_reader>(in.fd, in.label, reading);
    timeline_mark("reader ready");
    report.times.add("reader setup", seconds_since(setup_start));
  };
  // Opens the list's next input (throws what opening it throws).
  auto open_next = [&]() -> opened_input {
    opened_input in;
    in.last = !inputs.next(in.fd, in.label, in.max_bytes);
    if (!in.last && !group.holds_copy(in.fd)) make_reader(in);
    return in;
  };
  // The next input, opened once the reader of the one before it has given its last chunk: its reader reads
  // its first blocks while the last blocks of the input before it are handed out and folded, so the
  // workers do not wait for a reader to start at every file of a list (docs/performance.md, "A list of
  // files"). Declared after the ring and the reader threads: its reader goes before them.
  std::optional<opened_input> ahead;
  auto open_ahead = [&] {
    try {
      ahead = open_next();
    } catch (...) {
      ahead = opened_input{};
      ahead->failure = std::current_exception();  // thrown when its turn comes, after the inputs before it
    }
  };

  std::uint64_t before = 0;  // bytes of the inputs already read: progress counts the whole sequence
  std::size_t begun = 0;     // inputs begun in the queue
  // Reads the next input into the queue; false when there is none (or the run stopped or ends with it).
  auto read_next_input = [&]() -> bool {
    if (folding.stopped()) return false;
    opened_input in = ahead ? std::move(*ahead) : open_next();
    ahead.reset();
    if (in.failure) std::rethrow_exception(in.failure);
    if (in.last) return false;
    label = in.label;
    if (!in.reader) {
      // A memory file of a session's cache whose copy is in the GPU's memory: once the inputs before it
      // are done (the workers are then idle), it is folded where it lies, nothing read (resident_device.hpp).
      if (!finish_open_inputs()) return false;
      job_options one = options;
      one.max_input_bytes = in.max_bytes;
      one.shares_queue = shared;
      if (options.progress) one.progress = [&options, before](std::uint64_t done) { options.progress(before + done); };
      run_report each;
      each.chunk_size = report.chunk_size;
      if (group.fold_copy(in.fd, label, one, layout, each)) {
        inputs.done(each);
        add_report(report, each);
        add_shares(resident_shares, each.shares);
        report.skipped = std::move(each.skipped);
        before += each.bytes;
        return true;
      }
      make_reader(in);
    }
    open.push_back({label, std::move(in.reader), std::nullopt});
    open_input& input = open.back();
    io::chunked_reader& reader = *input.reader;
    folding.begin_input(reader, reader.first_byte(), input.label);
    ++begun;
    std::uint64_t read = 0;
    io::text_chunk block{};
    auto next_block = [&] {
      driver_stage s(driver_times, "read (waiting)");
      return reader.next(block);
    };
    while (!folding.stopped() && next_block()) {
      // The block goes back to the reader once folded: keep what an overlong line's error needs.
      if (block.overlong_line) {
        input.overlong = std::string(block.overlong_prefix, std::min(block.overlong_prefix_size, 2 * layout.carried_line));
      }
      if (!ahead && !input.overlong && reader.gave_every_chunk()) {
        take_done();  // the readers of inputs done go first: their rings are the next one's
        open_ahead();
      }
      {
        // On a GPU this is the time the GPU's copies and folds keep it busy: those are its own stages.
        driver_stage s(gpu ? nullptr : driver_times, group.hand_over_stage());
        folding.push(block);
      }
      if (joins) joins->pushed_one();
      read = block.input_offset + block.size;
      if (options.progress) options.progress(before + read);
    }
    folding.end_input();
    before += read;
    return !input.overlong;  // a line too long to carry ends the run with this input's error
  };

  // An input that could not be opened or read ends the run: its number, and what it threw.
  std::exception_ptr read_failure;
  std::size_t failing_input = 0;
  for (;;) {
    std::size_t const ended = begun;
    try {
      if (!read_next_input()) break;
    } catch (...) {
      read_failure = std::current_exception();
      failing_input = begun > ended ? begun - 1 : begun;  // the input begun, or the one being opened
      break;
    }
    report_done({});
  }
  if (joins) joins->close();  // nobody joins a queue that is finishing
  report.threads_while_folding = process_threads();  // the workers' threads still live: the run's most
  queue_end end = folding.finish();  // every block folded, and back with its reader
  timeline_mark("last block folded");
  report_done(std::move(end.done));
  // What ended the run, the first in input order: a fold's failure before the input that could not be read.
  if (end.failure && (!read_failure || end.failure_input < failing_input)) std::rethrow_exception(end.failure);
  if (read_failure) std::rethrow_exception(read_failure);
  if (joins) {
    if (std::exception_ptr const failed = joins->wait()) std::rethrow_exception(failed);
  }
  report.shares = folding.shares();
  add_shares(report.shares, resident_shares);
  std::size_t const in_use = group.memory_in_use();
  report.device_bytes = in_use - std::min(bytes_at_start, in_use);
  report.pool_peak_bytes = group.pool_peak_bytes();
  return label;
}

}  // namespace rowscan::job
