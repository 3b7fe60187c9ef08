// SPDX-License-Identifier: Apache-2.0
// The threads a run's readers share (rowscan/io/reader_threads.hpp).
#include "rowscan/io/reader_threads.hpp"

#include <utility>

namespace rowscan::io {

reader_threads::~reader_threads() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    ending_ = true;
  }
  wake_.notify_all();
  for (std::thread& t : threads_) t.join();
}

void reader_threads::run(std::function<void()> task, std::function<void()> ended) {
  std::lock_guard<std::mutex> lock(mutex_);
  tasks_.push_back({std::move(task), std::move(ended)});
  if (idle_ >= tasks_.size()) {
    wake_.notify_one();
    return;
  }
  try {
    threads_.emplace_back([this] { serve(); });
  } catch (...) {
    tasks_.pop_back();  // nobody would run it
    throw;
  }
}

std::size_t reader_threads::made() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return threads_.size();
}

void reader_threads::serve() {
  std::unique_lock<std::mutex> lock(mutex_);
  ++idle_;
  for (;;) {
    wake_.wait(lock, [&] { return ending_ || !tasks_.empty(); });
    if (tasks_.empty()) return;  // ending, and nothing left to run
    --idle_;
    task_and_end next = std::move(tasks_.front());
    tasks_.pop_front();
    lock.unlock();
    next.task();
    lock.lock();
    ++idle_;
    if (next.ended) {
      lock.unlock();
      next.ended();
      lock.lock();
    }
  }
}

}  // namespace rowscan::io
