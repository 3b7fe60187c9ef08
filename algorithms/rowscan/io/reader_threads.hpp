// SPDX-License-Identifier: Apache-2.0
// rowscan/io/reader_threads.hpp: the threads that the readers of one run read with, made once for a list
// of inputs. Each input has a reader of its own (chunked_reader.hpp), and a reader of a regular file
// reads with up to 16 threads: made by each reader, a list of 100 files made and ended 1,700 threads.
// Given this, a reader runs its tasks on the run's threads instead; a thread is made only when none is
// idle, so a run holds about as many as one reader reads with (its readers follow one another).
#pragma once

#include <condition_variable>
#include <cstddef>
#include <deque>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

namespace rowscan::io {

class reader_threads {
 public:
  reader_threads() = default;
  /// Waits for the tasks given so far, then ends the threads.
  ~reader_threads();
  reader_threads(reader_threads const&) = delete;
  reader_threads& operator=(reader_threads const&) = delete;

  /// Runs task on an idle thread, or on a new one if none is idle (a task may wait for another, so it is
  /// never queued behind a busy thread), then `ended` once the thread counts as idle again: whoever waits
  /// for the task to end finds its thread free for the next. Neither may throw. Throws std::system_error
  /// if the system refuses a thread that is needed.
  void run(std::function<void()> task, std::function<void()> ended = {});

  /// Threads made so far.
  std::size_t made() const;

 private:
  void serve();

  mutable std::mutex mutex_;
  std::condition_variable wake_;
  struct task_and_end {
    std::function<void()> task;
    std::function<void()> ended;
  };
  std::deque<task_and_end> tasks_;
  std::vector<std::thread> threads_;
  std::size_t idle_ = 0;  // threads waiting for a task
  bool ending_ = false;
};

}  // namespace rowscan::io
