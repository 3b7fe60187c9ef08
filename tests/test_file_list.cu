// SPDX-License-Identifier: Apache-2.0
// A list of files is one run (job/driver.hpp): its threads do not grow with the number of files. The
// same text cut into 1, 10 and 100 files, read by copy (the reader's threads) and through mapped windows,
// gives the answer of the one file, and the threads that the run makes (each thread id seen in
// /proc/self/task while it runs, not there before) stay within a bound that does not count files: the
// workers, the reader threads of two readers at once (the next file's reader starts as the one before
// it gives its last block), and a few to spare. Sampling may miss a short-lived thread, so the count is
// at most the threads made: it cannot fail where the bound holds, and a thread a file shows at once.
#include "reference/stations_reference.hpp"
#include "rowscan/stations/format.hpp"
#include "rowscan/stations/summarize.hpp"

#include "support/stations_text.hpp"
#include "support/temp_input.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <cstdlib>
#include <dirent.h>
#include <memory>
#include <set>
#include <sstream>
#include <string>
#include <sys/syscall.h>
#include <thread>
#include <unistd.h>
#include <vector>

namespace {

/// The ids of this process's threads now: the entries of /proc/self/task.
std::set<long> thread_ids() {
  std::set<long> ids;
  DIR* const tasks = ::opendir("/proc/self/task");
  if (tasks == nullptr) return ids;
  while (dirent const* e = ::readdir(tasks)) {
    if (e->d_name[0] != '.') ids.insert(std::strtol(e->d_name, nullptr, 10));
  }
  ::closedir(tasks);
  return ids;
}

/// While it lives, a thread of its own notes every thread id of the process, every few microseconds.
class thread_census {
 public:
  thread_census() : before_(thread_ids()), sampler_([this] { sample(); }) {}
  ~thread_census() { stop(); }
  thread_census(thread_census const&) = delete;
  thread_census& operator=(thread_census const&) = delete;

  /// Ends the census; the threads seen that were not there when it began (its own sampler aside).
  std::size_t new_threads() {
    stop();
    std::size_t n = 0;
    for (long const id : seen_) n += before_.count(id) == 0 && id != sampler_id_ ? 1 : 0;
    return n;
  }

 private:
  void sample() {
    sampler_id_ = static_cast<long>(::syscall(SYS_gettid));
    while (!done_.load()) {
      for (long const id : thread_ids()) seen_.insert(id);
      std::this_thread::sleep_for(std::chrono::microseconds(20));
    }
  }
  void stop() {
    done_.store(true);
    if (sampler_.joinable()) sampler_.join();
  }
  std::set<long> const before_;
  std::set<long> seen_;
  long sampler_id_ = 0;
  std::atomic<bool> done_{false};
  std::thread sampler_;
};

/// Files given to a run in turn (job::input_sequence).
class files_in_turn : public rowscan::job::input_sequence {
 public:
  explicit files_in_turn(std::vector<std::unique_ptr<support::temp_input>> const& files) : files_(files) {}
  bool next(int& fd, std::string& label, std::uint64_t& max_bytes) override {
    if (next_ == files_.size()) return false;
    if (next_ > done_) ++opened_early_;  // the file before this one is not done yet
    fd = files_[next_]->fd();
    label = "part" + std::to_string(next_);
    max_bytes = UINT64_MAX;
    ++next_;
    return true;
  }
  void done(rowscan::job::run_report const&) override { ++done_; }
  std::size_t done_inputs() const { return done_; }
  /// Files opened while the one before them was still being read or folded.
  std::size_t opened_early() const { return opened_early_; }

 private:
  std::vector<std::unique_ptr<support::temp_input>> const& files_;
  std::size_t next_ = 0;
  std::size_t done_ = 0;
  std::size_t opened_early_ = 0;
};

/// `text` cut into `parts` files at line starts, as evenly as the lines allow.
std::vector<std::unique_ptr<support::temp_input>> cut_into(std::string const& text, std::size_t parts) {
  std::vector<std::unique_ptr<support::temp_input>> files;
  std::size_t begin = 0;
  for (std::size_t i = 1; i <= parts; ++i) {
    std::size_t end = text.size() * i / parts;
    if (i < parts) end = std::min(text.size(), text.find('\n', end) + 1);
    end = std::max(end, begin);
    files.push_back(std::make_unique<support::temp_input>(text.substr(begin, end - begin)));
    begin = end;
  }
  return files;
}

std::string onebrc(rowscan::stations::summary const& result) {
  std::ostringstream out;
  rowscan::stations::write_onebrc(out, result.stations);
  return out.str();
}

/// Sets ROWSCAN_READS while it lives (the driver reads it at each run: copy, or mapped windows).
class reads_scope {
 public:
  explicit reads_scope(char const* reads) { ::setenv("ROWSCAN_READS", reads, 1); }
  ~reads_scope() { ::unsetenv("ROWSCAN_READS"); }
};

TEST(FileList, ThreadsDoNotGrowWithTheNumberOfFiles) {
  std::string const text = support::random_measurements(48, 200, 300000, 16);  // about 4 MB
  std::string const expected = reference::stations_answer(text);
  auto run = [&](std::size_t parts, unsigned workers, unsigned readers, std::size_t& made) {
    std::vector<std::unique_ptr<support::temp_input>> const files = cut_into(text, parts);
    rowscan::stations::summarize_options options;
    options.chunk_size = std::size_t{256} << 10;  // blocks of 128 KiB, read by the reader's threads
    options.workers = workers;
    options.reader_threads = readers;
    files_in_turn inputs(files);
    thread_census census;
    rowscan::stations::summary const result = rowscan::stations::summarize_each(inputs, options);
    made = census.new_threads();
    EXPECT_EQ(inputs.done_inputs(), parts);
    // Each file after the first is opened, and its reader started, once the reader before it has given
    // its last block: before that block is even handed to a worker, so before that file is done.
    EXPECT_EQ(inputs.opened_early(), parts - 1);
    return onebrc(result);
  };
  for (char const* reads : {"copy", "map"}) {
    reads_scope const scope(reads);
    std::size_t made = 0;
    run(1, 1, 1, made);  // what a first run starts once (a team of OpenMP threads, a device's own)
    for (unsigned const workers : {1u, 3u}) {
      for (unsigned const readers : {1u, 4u}) {
        for (std::size_t const parts : {1u, 10u, 100u}) {
          std::string const where = std::string("reads ") + reads + ", " + std::to_string(workers) + " workers, " +
                                    std::to_string(readers) + " reader threads, " + std::to_string(parts) + " files";
          EXPECT_EQ(run(parts, workers, readers, made), expected) << where;
          // The workers, three readers' threads (two at once, and the threads of one that are ending),
          // each with its allocator, and two to spare: none of them a file's.
          EXPECT_LE(made, workers + 3 * (readers + 1) + 2) << where;
        }
      }
    }
  }
}

}  // namespace
