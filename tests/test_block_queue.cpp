// SPDX-License-Identifier: Apache-2.0
// job::block_queue (rowscan/job/block_queue.hpp), the one queue every worker takes from: random texts
// read in random block sizes and taken by random sets of lanes (host-like lanes that fold one block in
// place, GPU-like lanes that copy the ready blocks filling a slot and fold them as one text), some of
// them joining while the blocks are pushed, must give the tally of one scalar walk over the text: its
// bytes, lines, skipped lines and first bad line. Lines that start with '!' are bad. The same for the
// driver's run (job::run_blocks) with a group of lanes joining it, and the ring memory that GPUs lock
// (job::lockable_memory).
#include "rowscan/io/chunked_reader.hpp"
#include "rowscan/job/block_queue.hpp"
#include "rowscan/job/lockable_memory.hpp"
#include "rowscan/job/run_blocks.hpp"

#include "support/temp_input.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <condition_variable>
#include <atomic>
#include <functional>
#include <optional>
#include <chrono>
#include <memory>
#include <random>
#include <map>
#include <mutex>
#include <stdexcept>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

namespace {

using rowscan::job::bad_line;
using rowscan::job::block_batch;
using rowscan::job::block_lane;
using rowscan::job::lane_maker;
using rowscan::job::tally;

/// The scalar fold of a text: every line counted, a bad line skipped or ending the tally.
tally scalar_fold(char const* text, std::size_t size, bool skip) {
  tally t;
  t.bytes = size;
  std::size_t start = 0;
  while (start < size) {
    std::size_t end = start;
    while (end < size && text[end] != '\n') ++end;
    if (text[start] == '!') {
      bad_line const bad{t.lines, start, "bad", 1, "", 0};
      if (!skip) {
        t.stop = bad;
        return t;
      }
      t.skipped += 1;
      t.skip(bad);
    }
    t.lines += 1;
    start = end + 1;
  }
  return t;
}

/// A host worker's kind of lane: one block at a time, folded where the reader put it.
class in_place_lane final : public block_lane {
 public:
  explicit in_place_lane(bool skip) : skip_(skip) {}
  std::size_t depth() const override { return 1; }
  std::size_t batch_bytes() const override { return 0; }
  bool on_gpu() const override { return false; }
  void start(block_batch&) override {}
  bool land(block_batch const&) override { return false; }
  tally fold(block_batch const& batch, rowscan::job::batch_run const& run) override {
    EXPECT_EQ(batch.blocks.size(), 1u) << "a host lane takes one block";
    EXPECT_EQ(run.count, 1u);
    return scalar_fold(batch.blocks.front().text, batch.blocks.front().size, skip_);
  }

 private:
  bool skip_;
};

/// A GPU's kind of lane: the ready blocks that fill a slot are copied into it (two slots), the reader
/// gets them back once copied, and the slot is folded as one text.
class copying_lane final : public block_lane {
 public:
  /// mixed: if given, counts the batches that held the blocks of more than one input.
  copying_lane(bool skip, std::size_t slot_bytes, std::atomic<std::size_t>* mixed = nullptr)
      : skip_(skip), slot_bytes_(slot_bytes), mixed_(mixed) {}
  std::size_t depth() const override { return 2; }
  std::size_t batch_bytes() const override { return slot_bytes_; }
  bool on_gpu() const override { return true; }
  void start(block_batch& batch) override {
    std::string& slot = slots_[batch.slot];
    slot.clear();
    if (mixed_ != nullptr && batch.blocks.front().input != batch.blocks.back().input) ++*mixed_;
    for (std::size_t i = 0; i < batch.blocks.size(); ++i) {
      if (i > 0) {
        EXPECT_EQ(batch.blocks[i].index, batch.blocks[i - 1].index + 1) << "a batch is consecutive";
      }
      slot.append(batch.blocks[i].text, batch.blocks[i].size);
    }
  }
  bool land(block_batch const&) override { return true; }
  tally fold(block_batch const& batch, rowscan::job::batch_run const& run) override {
    std::string const& slot = slots_[batch.slot];
    EXPECT_LE(run.offset + run.bytes, slot.size());
    for (std::size_t i = 1; i < run.count; ++i) {
      EXPECT_EQ(batch.blocks[run.first + i].input, batch.blocks[run.first].input) << "a run is one input's";
    }
    return scalar_fold(slot.data() + run.offset, run.bytes, skip_);
  }

 private:
  bool skip_;
  std::size_t slot_bytes_;
  std::atomic<std::size_t>* mixed_;
  std::string slots_[2];
};

lane_maker maker(bool copying, bool skip, std::size_t slot_bytes) {
  return [=]() -> std::unique_ptr<block_lane> {
    if (copying) return std::make_unique<copying_lane>(skip, slot_bytes);
    return std::make_unique<in_place_lane>(skip);
  };
}

/// Random lines of 1 to 60 bytes, about one in `bad_every` bad; the last one maybe without its '\n'.
std::string random_text(std::mt19937& random, std::size_t lines, unsigned bad_every) {
  std::string text;
  for (std::size_t i = 0; i < lines; ++i) {
    std::size_t const length = 1 + random() % 60;
    std::string line(length, 'a');
    for (char& c : line) c = static_cast<char>('a' + random() % 26);
    if (bad_every != 0 && random() % bad_every == 0) line[0] = '!';
    text += line;
    if (i + 1 < lines || random() % 2 == 0) text += '\n';
  }
  return text;
}

struct crew {
  std::vector<lane_maker> at_start;
  std::vector<std::pair<std::size_t, lane_maker>> later;  // joins once this many blocks were pushed
  bool later_relieves = false;  // a later worker relieves those before it (block_queue::join's `relieve`)
  std::function<void()> after_join;  // if set, the pusher calls it after each later join, before pushing on
};

/// A reader of blocks of block_size (lines of at most 64 bytes carried) that lends `held` blocks at once.
rowscan::io::reader_options reading_of(std::size_t block_size, std::size_t held) {
  rowscan::io::reader_options reading;
  reading.block_size = block_size;
  reading.max_line = 64;
  reading.held = static_cast<unsigned>(held);
  return reading;
}

/// The tally of a run of one input, or what it threw.
tally only_input(rowscan::job::queue_end const& end) {
  if (end.failure) std::rethrow_exception(end.failure);
  EXPECT_EQ(end.done.size(), 1u) << "the input is done";
  return end.done.empty() ? tally{} : end.done.front().folded;
}

/// Reads `text` in blocks of block_size through one queue taken by `workers`; the merged tally.
tally queued_fold(std::string const& text, std::size_t block_size, crew const& workers) {
  support::temp_input const input(text);
  rowscan::io::reader_options const reading =
      reading_of(block_size, workers.at_start.size() + workers.later.size() + 1 + 8);
  tally out;
  {
    rowscan::io::chunked_reader reader(input.fd(), "text", reading);
    std::string const label = "text";
    rowscan::job::block_queue queue(reading.held - 1, std::chrono::steady_clock::now());
    queue.join(workers.at_start);
    queue.begin_input(reader, 0, label);
    std::size_t pushed = 0;
    rowscan::io::text_chunk block{};
    auto join_due = [&] {
      for (auto const& [after, make] : workers.later) {
        if (after != pushed) continue;
        queue.join({make}, workers.later_relieves);
        if (workers.after_join) workers.after_join();
      }
    };
    join_due();
    while (!queue.stopped() && reader.next(block)) {
      queue.push(block);
      ++pushed;
      join_due();
    }
    queue.end_input();
    out = only_input(queue.finish());
  }
  return out;
}

void expect_same(tally const& got, tally const& want, std::string const& where) {
  ASSERT_EQ(got.stop.has_value(), want.stop.has_value()) << where;
  if (want.stop) {
    EXPECT_EQ(got.stop->line, want.stop->line) << where;
    EXPECT_EQ(got.stop->byte, want.stop->byte) << where;
    return;  // nothing after the stop counts
  }
  EXPECT_EQ(got.bytes, want.bytes) << where;
  EXPECT_EQ(got.lines, want.lines) << where;
  EXPECT_EQ(got.skipped, want.skipped) << where;
  ASSERT_EQ(got.first_skipped.size(), want.first_skipped.size()) << where;
  for (std::size_t i = 0; i < want.first_skipped.size(); ++i) {
    EXPECT_EQ(got.first_skipped[i].line, want.first_skipped[i].line) << where << ", skipped line " << i;
    EXPECT_EQ(got.first_skipped[i].byte, want.first_skipped[i].byte) << where << ", skipped line " << i;
  }
}

TEST(BlockQueue, AnyCrewJoiningAnyTimeGivesTheScalarTally) {
  for (unsigned seed = 1; seed <= 60; ++seed) {
    std::mt19937 random(seed);
    bool const skip = random() % 2 == 0;
    std::string const text = random_text(random, 200 + random() % 3000, skip ? 7 : 400);
    std::size_t const block_size = 64 + random() % 2048;
    crew workers;
    std::size_t const n = 1 + random() % 5;
    for (std::size_t i = 0; i < n; ++i) {
      lane_maker const m = maker(random() % 2 == 0, skip, block_size * (1 + random() % 6));
      if (i > 0 && random() % 2 == 0) {
        workers.later.push_back({random() % 40, m});
      } else {
        workers.at_start.push_back(m);
      }
    }
    std::string const where = "seed " + std::to_string(seed) + ", block " + std::to_string(block_size) + ", " +
                              std::to_string(workers.at_start.size()) + " workers at the start and " +
                              std::to_string(workers.later.size()) + " joining, skip " + std::to_string(skip);
    expect_same(queued_fold(text, block_size, workers), scalar_fold(text.data(), text.size(), skip), where);
  }
}

TEST(BlockQueue, AWorkerJoiningAfterTheLastBlockStillLetsTheRunFinish) {
  std::mt19937 random(5);
  std::string const text = random_text(random, 500, 0);
  crew workers;
  workers.at_start.push_back(maker(false, false, 0));
  workers.later.push_back({1000000, maker(true, false, 4096)});  // never due
  expect_same(queued_fold(text, 128, workers), scalar_fold(text.data(), text.size(), false), "late joiner");
}

TEST(BlockQueue, OnlyAJoiningWorkerFoldsEveryBlock) {
  std::mt19937 random(6);
  std::string const text = random_text(random, 800, 0);
  crew workers;
  workers.later.push_back({0, maker(true, false, 1024)});
  expect_same(queued_fold(text, 200, workers), scalar_fold(text.data(), text.size(), false), "joiner alone");
}

TEST(BlockQueue, AWorkerThatCannotStartStopsTheRunWithItsError) {
  std::mt19937 random(7);
  std::string const text = random_text(random, 2000, 0);
  crew workers;
  workers.at_start.push_back([]() -> std::unique_ptr<block_lane> { throw std::runtime_error("no device slot"); });
  workers.at_start.push_back(maker(false, false, 0));
  try {
    queued_fold(text, 100, workers);
    FAIL() << "the run should stop with the lane's error";
  } catch (std::runtime_error const& e) {
    EXPECT_STREQ(e.what(), "no device slot");
  }
}

/// The blocks each kind of lane took, by their index in the run, in the order the lanes started them.
struct taken_log {
  std::mutex mutex;
  std::vector<std::size_t> by_host;
  std::vector<std::size_t> by_gpu;
  std::condition_variable asked;
  bool gpu_asked = false;  // a GPU lane's thread asked for its first batch

  void clear() {
    std::lock_guard<std::mutex> lock(mutex);
    by_host.clear();
    by_gpu.clear();
    gpu_asked = false;
  }
  /// Waits until a GPU lane's thread is at the queue, asking for blocks.
  void wait_for_gpu() {
    std::unique_lock<std::mutex> lock(mutex);
    asked.wait(lock, [&] { return gpu_asked; });
  }
  std::vector<std::size_t> host_blocks() {
    std::lock_guard<std::mutex> lock(mutex);
    return by_host;
  }
  std::vector<std::size_t> gpu_blocks() {
    std::lock_guard<std::mutex> lock(mutex);
    return by_gpu;
  }
};

/// A lane that records the blocks it takes, then does what `inner` does.
class logged_lane final : public block_lane {
 public:
  logged_lane(std::unique_ptr<block_lane> inner, taken_log& log) : inner_(std::move(inner)), log_(log) {}
  std::size_t depth() const override { return inner_->depth(); }
  std::size_t batch_bytes() const override {  // asked right before each take
    if (on_gpu()) {
      {
        std::lock_guard<std::mutex> lock(log_.mutex);
        log_.gpu_asked = true;
      }
      log_.asked.notify_all();
    }
    return inner_->batch_bytes();
  }
  bool on_gpu() const override { return inner_->on_gpu(); }
  void start(block_batch& batch) override {
    {
      std::lock_guard<std::mutex> lock(log_.mutex);
      for (auto const& b : batch.blocks) (on_gpu() ? log_.by_gpu : log_.by_host).push_back(b.index);
    }
    inner_->start(batch);
  }
  bool land(block_batch const& batch) override { return inner_->land(batch); }
  tally fold(block_batch const& batch, rowscan::job::batch_run const& run) override { return inner_->fold(batch, run); }

 private:
  std::unique_ptr<block_lane> inner_;
  taken_log& log_;
};

lane_maker logged(lane_maker const& inner, taken_log& log) {
  return [inner, &log]() -> std::unique_ptr<block_lane> { return std::make_unique<logged_lane>(inner(), log); };
}

// A GPU that joins the host's workers relieves them (their cores are its reader's): once it has taken its
// first batch they take nothing more, and it folds the rest. Blocks are taken from the front of the queue,
// so every block a host worker took is before the GPU's first; the tally is the scalar walk's whatever the
// split. Without the relief the host workers keep taking blocks to the end.
TEST(BlockQueue, AGroupThatRelievesTheFirstLeavesItNoBlockAfterItsFirstBatch) {
  for (unsigned seed = 1; seed <= 20; ++seed) {
    std::mt19937 random(seed);
    bool const skip = random() % 2 == 0;
    std::string const text = random_text(random, 3000 + random() % 3000, skip ? 9 : 0);
    std::size_t const block_size = 64 + random() % 256;
    std::size_t const after = random() % 12;
    taken_log log;
    crew workers;
    for (std::size_t i = 0, n = 1 + random() % 3; i < n; ++i) workers.at_start.push_back(logged(maker(false, skip, 0), log));
    workers.later.push_back({after, logged(maker(true, skip, block_size * (1 + random() % 4)), log)});
    workers.later_relieves = true;
    workers.after_join = [&log] { log.wait_for_gpu(); };  // its thread at the queue before more blocks come
    std::string const where = "seed " + std::to_string(seed) + ", block " + std::to_string(block_size) + ", " +
                              std::to_string(workers.at_start.size()) + " host workers, GPU joining after " +
                              std::to_string(after) + " blocks, skip " + std::to_string(skip);
    tally const want = scalar_fold(text.data(), text.size(), skip);
    // The pusher waits for the joining lane's thread to ask for blocks; should the system still hold that
    // thread back until the host workers have folded every block (they fold in microseconds), the order
    // holds vacuously, and the same run is tried again until the joining lane took part.
    for (int attempt = 1; attempt <= 8; ++attempt) {
      log.clear();
      expect_same(queued_fold(text, block_size, workers), want, where);
      if (want.stop) break;  // the run stopped early: the GPU may have taken nothing
      std::vector<std::size_t> const by_gpu = log.gpu_blocks();
      std::vector<std::size_t> const by_host = log.host_blocks();
      if (by_gpu.empty()) {
        EXPECT_LT(attempt, 8) << where << ": the joining lane never took a block";
        continue;
      }
      std::size_t const first_of_gpu = *std::min_element(by_gpu.begin(), by_gpu.end());
      for (std::size_t const index : by_host) {
        EXPECT_LT(index, first_of_gpu) << where << ": a host worker took a block after the GPU's first";
      }
      break;
    }
  }
}

/// Reads each of `texts` with a reader of its own into one queue taken by `workers` (started once for
/// all of them), as the driver reads a list of files: each input's tally as the queue reports it done,
/// in input order, up to the input whose bad line stops the run.
std::vector<tally> queued_inputs(std::vector<std::string> const& texts, std::size_t block_size, crew const& workers) {
  std::vector<std::unique_ptr<support::temp_input>> files;
  files.reserve(texts.size());
  for (std::string const& text : texts) files.push_back(std::make_unique<support::temp_input>(text));
  rowscan::io::reader_options const reading =
      reading_of(block_size, workers.at_start.size() + workers.later.size() + 1 + 8);
  std::vector<tally> done;
  std::vector<std::string> labels(texts.size());
  std::vector<std::unique_ptr<rowscan::io::chunked_reader>> readers;  // outlive the queue's workers
  readers.reserve(texts.size());
  rowscan::job::block_queue queue(reading.held - 1, std::chrono::steady_clock::now());
  queue.join(workers.at_start);
  std::size_t pushed = 0;
  auto join_due = [&] {
    for (auto const& [after, make] : workers.later) {
      if (after == pushed) queue.join({make});
    }
  };
  auto take_done = [&](std::vector<rowscan::job::input_tally> const& inputs) {
    for (rowscan::job::input_tally const& one : inputs) done.push_back(one.folded);
  };
  join_due();
  for (std::size_t i = 0; i < texts.size() && !queue.stopped(); ++i) {
    labels[i] = "text" + std::to_string(i);
    readers.push_back(std::make_unique<rowscan::io::chunked_reader>(files[i]->fd(), labels[i], reading));
    queue.begin_input(*readers.back(), 0, labels[i]);
    rowscan::io::text_chunk block{};
    while (!queue.stopped() && readers.back()->next(block)) {
      queue.push(block);
      ++pushed;
      join_due();
    }
    queue.end_input();
    take_done(queue.done_inputs());
  }
  rowscan::job::queue_end const end = queue.finish();
  take_done(end.done);
  if (end.failure) std::rethrow_exception(end.failure);
  return done;
}

/// Every input up to the first that stops has the scalar fold's tally, each with its own positions (what the
/// queue had taken of a later input when the stop was found is the driver's to drop).
void expect_inputs_up_to_the_first_stop(std::vector<tally> const& got, std::vector<std::string> const& texts,
                                        bool skip, std::string const& where) {
  std::size_t want_done = 0;
  while (want_done < texts.size()) {
    bool const stops = scalar_fold(texts[want_done].data(), texts[want_done].size(), skip).stop.has_value();
    ++want_done;
    if (stops) break;
  }
  ASSERT_GE(got.size(), want_done) << where;
  for (std::size_t i = 0; i < want_done; ++i) {
    expect_same(got[i], scalar_fold(texts[i].data(), texts[i].size(), skip), where + ", input " + std::to_string(i));
  }
}

TEST(BlockQueue, ManyInputsOnOneQueueGiveEachInputsScalarTallyInOrder) {
  for (unsigned seed = 1; seed <= 40; ++seed) {
    std::mt19937 random(seed);
    bool const skip = random() % 3 != 0;
    std::vector<std::string> texts(1 + random() % 7);
    for (std::string& text : texts) text = random() % 5 == 0 ? "" : random_text(random, 1 + random() % 400, skip ? 7 : 150);
    std::size_t const block_size = 64 + random() % 1024;
    crew workers;
    std::size_t const n = 1 + random() % 4;
    for (std::size_t i = 0; i < n; ++i) {
      lane_maker const m = maker(random() % 2 == 0, skip, block_size * (1 + random() % 6));
      if (i > 0 && random() % 2 == 0) {
        workers.later.push_back({random() % 20, m});
      } else {
        workers.at_start.push_back(m);
      }
    }
    std::string const where = "seed " + std::to_string(seed) + ", " + std::to_string(texts.size()) + " inputs, block " +
                              std::to_string(block_size) + ", " + std::to_string(n) + " workers, skip " +
                              std::to_string(skip);
    std::vector<tally> const got = queued_inputs(texts, block_size, workers);
    expect_inputs_up_to_the_first_stop(got, texts, skip, where);
  }
}

// A GPU's batch takes the ready blocks whatever their input: the end of one file with the start of the
// next, or many small files. Each input's blocks in it are folded as a text of their own, so every input
// keeps its own lines and bytes, a file's last line ends with the file, and the first bad line stops the
// run at its own input.
TEST(BlockQueue, AGpuBatchHoldsSeveralInputsAndEachKeepsItsOwnTally) {
  std::atomic<std::size_t> mixed{0};
  for (unsigned seed = 1; seed <= 30; ++seed) {
    std::mt19937 random(seed);
    bool const skip = random() % 2 == 0;
    std::vector<std::string> texts(2 + random() % 40);
    for (std::string& text : texts) {
      unsigned const kind = random() % 6;
      text = kind == 0 ? "" : random_text(random, 1 + random() % (kind == 1 ? 200 : 12), skip ? 5 : 0);
    }
    if (!skip && random() % 2 == 0) texts[random() % texts.size()] += "!a bad line\nafter\n";  // a bad line in one file
    std::size_t const block_size = 64 + random() % 512;
    crew workers;
    std::size_t const slot = block_size * (4 + random() % 8);
    workers.at_start.push_back([skip, slot, &mixed]() -> std::unique_ptr<block_lane> {
      return std::make_unique<copying_lane>(skip, slot, &mixed);
    });
    if (random() % 2 == 0) workers.at_start.push_back(maker(false, skip, 0));
    std::string const where = "seed " + std::to_string(seed) + ", " + std::to_string(texts.size()) + " inputs, block " +
                              std::to_string(block_size) + ", slot " + std::to_string(slot) + ", " +
                              std::to_string(workers.at_start.size()) + " workers, skip " + std::to_string(skip);
    std::vector<tally> const got = queued_inputs(texts, block_size, workers);
    expect_inputs_up_to_the_first_stop(got, texts, skip, where);
  }
  EXPECT_GT(mixed.load(), 0u) << "no batch held more than one input";
}

/// A scalar worker, for the driver's error of a line longer than the carried line.
class scalar_worker final : public rowscan::job::block_worker {
 public:
  tally fold(char const* text, std::size_t size) override { return scalar_fold(text, size, false); }
  bad_line overlong_line(std::string_view prefix) const override { return {0, prefix.size(), "line too long"}; }
};

/// Lanes lent to a run as an engine lends its workers (rowscan/job/run_blocks.hpp), in plain memory.
class scalar_group final : public rowscan::job::lane_group {
 public:
  scalar_group(std::vector<lane_maker> lanes, bool gpu, std::size_t block_size)
      : lanes_(std::move(lanes)), gpu_(gpu), layout_{block_size, 64, 0} {}
  bool on_gpu() const override { return gpu_; }
  rowscan::job::block_layout const& layout() const override { return layout_; }
  std::size_t chunk_size() const override { return layout_.block_size; }
  std::size_t workers() const override { return lanes_.size(); }
  std::vector<lane_maker> lanes(rowscan::job::fold_place const&) const override { return lanes_; }
  rowscan::job::block_worker const& first_worker() const override { return worker_; }
  rowscan::io::block_memory ring_memory() const override { return rowscan::io::plain_block_memory(); }
  std::size_t memory_in_use() const override { return 0; }
  std::size_t pool_peak_bytes() const override { return 0; }
  char const* hand_over_stage() const override { return "waiting for a worker"; }
  bool holds_copy(int) const override { return false; }
  bool fold_copy(int, std::string const&, rowscan::job::job_options const&, rowscan::job::block_layout const&,
                 rowscan::job::run_report&) const override {
    return false;
  }

 private:
  std::vector<lane_maker> lanes_;
  bool gpu_;
  rowscan::job::block_layout layout_;
  scalar_worker worker_;
};

/// What one run of the driver over `text` gave: its report, or the error that ended it.
struct driven {
  rowscan::job::run_report report;
  std::optional<rowscan::input_error> stop;
  std::string other_error;
};

/// One run of the driver (compiled once: run_blocks) over `text` in blocks of block_size: the host-like
/// group's lanes from the first block, and `joining`'s group (made by make_joiner on the run's thread)
/// joining once it is made, with the driver holding at block `after` until it has.
driven driven_run(std::string const& text, std::size_t block_size, bool skip, scalar_group const& first,
                  std::function<scalar_group const&()> make_joiner, std::size_t after, double* joined_at = nullptr) {
  support::temp_input const input(text);
  rowscan::job::single_input one(input.fd(), "text", UINT64_MAX);
  rowscan::job::job_options options;
  options.skip_invalid = skip;
  options.reader_threads = 1;
  rowscan::job::joining_group joining;
  joining.make = [&]() -> rowscan::job::lane_group const& { return make_joiner(); };
  joining.blocks = 8;
  joining.join_after_blocks = after;
  driven out;
  out.report.chunk_size = block_size;
  try {
    rowscan::job::run_blocks(one, options, first, out.report, &joining);
  } catch (rowscan::input_error const& e) {
    out.stop = e;
  } catch (std::exception const& e) {
    out.other_error = e.what();
  }
  if (joined_at != nullptr) *joined_at = joining.joined_at;
  return out;
}

void expect_run_is_scalar_fold(driven const& got, std::string const& text, bool skip, std::string const& where) {
  tally const want = scalar_fold(text.data(), text.size(), skip);
  ASSERT_EQ(got.stop.has_value(), want.stop.has_value()) << where << (got.stop ? got.stop->what() : "");
  if (want.stop) {
    EXPECT_EQ(got.stop->line(), want.stop->line + 1) << where;
    EXPECT_EQ(got.stop->byte_offset(), want.stop->byte) << where;
    return;
  }
  EXPECT_EQ(got.report.bytes, want.bytes) << where;
  EXPECT_EQ(got.report.lines, want.lines) << where;
  EXPECT_EQ(got.report.skipped.count(), want.skipped) << where;
}

// --devices cpu+gpu's run (rowscan/inputs/hand_over.hpp): host lanes from the first block, and a GPU's group,
// made on a thread of the run's, joining the same queue from where it is. Whatever block it joins at, the
// run's tally is one scalar walk's, and the joiner is one of the queue's workers.
TEST(RunBlocks, AJoiningGroupTakesPartFromWhereTheQueueIsAndTheTallyIsOneRuns) {
  for (unsigned seed = 1; seed <= 24; ++seed) {
    std::mt19937 random(seed);
    bool const skip = seed % 2 == 0;
    std::string const text = random_text(random, 500 + random() % 2000, skip ? 9 : 300);
    std::size_t const block_size = 64 + random() % 512;
    std::size_t const after = random() % 8;  // 0: no hold, it joins whenever it is made
    scalar_group const host({maker(false, skip, 0)}, false, block_size);
    scalar_group const gpu({maker(true, skip, block_size * 4)}, true, block_size);
    double joined_at = -1;
    driven const got = driven_run(text, block_size, skip, host, [&]() -> scalar_group const& { return gpu; }, after, &joined_at);
    std::string const where = "seed " + std::to_string(seed) + ", block " + std::to_string(block_size) +
                              ", joining after " + std::to_string(after) + ", skip " + std::to_string(skip);
    EXPECT_EQ(got.other_error, "") << where;
    expect_run_is_scalar_fold(got, text, skip, where);
    // A strict run may stop at a bad line before block `after`; a run that skips bad lines reaches it
    // whenever the text has that many blocks, and the joiner is then one of the workers.
    if (skip && after != 0 && text.size() > after * (block_size + 64)) {
      EXPECT_GE(joined_at, 0) << where << ": the group joined";
      EXPECT_EQ(got.report.shares.size(), 2u) << where << ": the joiner is one of the queue's workers";
    }
  }
}

// A GPU that cannot start: the host's lanes fold the whole input alone, and the run then throws why.
TEST(RunBlocks, AGroupThatCannotBeMadeLeavesTheRunToTheFirstAndItsErrorComesAfter) {
  for (unsigned seed = 1; seed <= 6; ++seed) {
    std::mt19937 random(seed);
    std::string const text = random_text(random, 300 + random() % 500, 0);
    std::size_t const block_size = 64 + random() % 256;
    scalar_group const host({maker(false, false, 0), maker(false, false, 0)}, false, block_size);
    auto const cannot = []() -> scalar_group const& { throw std::runtime_error("no usable GPU"); };
    driven const got = driven_run(text, block_size, false, host, cannot, random() % 4);
    std::string const where = "seed " + std::to_string(seed);
    EXPECT_EQ(got.other_error, "no usable GPU") << where;
    EXPECT_EQ(got.report.bytes, text.size()) << where << ": every input reported before the error";
  }
}

/// A locker that records what it was asked, as cudaHostRegister and cudaHostUnregister would be.
struct recorded_locks {
  static std::mutex mutex;
  static std::map<void*, std::size_t> locked;
  static bool refuse;
  static bool lock(void* p, std::size_t bytes) {
    std::lock_guard<std::mutex> hold(mutex);
    if (refuse) return false;
    locked[p] = bytes;
    return true;
  }
  static void unlock(void* p) {
    std::lock_guard<std::mutex> hold(mutex);
    locked.erase(p);
  }
};
std::mutex recorded_locks::mutex;
std::map<void*, std::size_t> recorded_locks::locked;
bool recorded_locks::refuse = false;

TEST(LockableMemory, LocksWholePagesOnceAndUnlocksWhatItLockedBeforeFreeing) {
  recorded_locks::locked.clear();
  recorded_locks::refuse = false;
  {
    rowscan::job::lockable_memory ring;
    rowscan::io::block_memory const memory = ring.memory();
    void* const a = memory.allocate(5000);
    void* const b = memory.allocate(100);
    ring.lock_new({recorded_locks::lock, recorded_locks::unlock});
    ASSERT_EQ(recorded_locks::locked.size(), 2u);
    EXPECT_EQ(reinterpret_cast<std::uintptr_t>(a) % 4096, 0u) << "page-aligned";
    EXPECT_EQ(recorded_locks::locked[a], 8192u) << "whole pages: two blocks never share one";
    EXPECT_EQ(recorded_locks::locked[b], 4096u);
    recorded_locks::refuse = true;
    void* const c = memory.allocate(10);
    ring.lock_new({recorded_locks::lock, recorded_locks::unlock});
    ring.lock_new({recorded_locks::lock, recorded_locks::unlock});  // nothing new: nothing asked again
    EXPECT_EQ(ring.locked(), 2u) << "a block the system refused stays plain";
    memory.release(a);
    EXPECT_EQ(recorded_locks::locked.count(a), 0u) << "unlocked before it is freed";
    memory.release(c);
    memory.release(nullptr);
    EXPECT_EQ(ring.locked(), 1u);
  }
  EXPECT_TRUE(recorded_locks::locked.empty()) << "what the ring still held was unlocked as it went";
}

}  // namespace
