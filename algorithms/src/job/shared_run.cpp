// SPDX-License-Identifier: Apache-2.0
// One run, several engines' workers (rowscan/job/shared_run.hpp).
#include "rowscan/job/shared_run.hpp"

#include "rowscan/job/timeline.hpp"

namespace rowscan::job {

bool shared_run::claim_driver() {
  std::lock_guard<std::mutex> lock(mutex_);
  bool const first = !driver_claimed_;
  driver_claimed_ = true;
  return first;
}

void shared_run::open(block_queue& queue) {
  std::lock_guard<std::mutex> lock(mutex_);
  open_ = &queue;
  if (!joined_.empty()) queue.join(joined_);
}

void shared_run::reading(std::string const& label) {
  std::lock_guard<std::mutex> lock(mutex_);
  label_ = label;
}

void shared_run::close() {
  std::lock_guard<std::mutex> lock(mutex_);
  open_ = nullptr;
}

void shared_run::end() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    open_ = nullptr;
    ended_ = true;
  }
  changed_.notify_all();
}

void shared_run::join_and_wait(std::vector<lane_maker> const& lanes) {
  std::unique_lock<std::mutex> lock(mutex_);
  if (!ended_) {
    joined_.insert(joined_.end(), lanes.begin(), lanes.end());
    if (open_ != nullptr) open_->join(lanes);
    timeline_mark("workers joined the queue");
  }
  joined_any_ = true;
  changed_.notify_all();
  changed_.wait(lock, [&] { return ended_; });
}

void shared_run::hold_at(std::size_t blocks) {
  std::lock_guard<std::mutex> lock(mutex_);
  hold_at_ = blocks;
}

void shared_run::no_more_joiners() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    no_joiners_ = true;
  }
  changed_.notify_all();
}

void shared_run::wait_for_blocks(std::size_t blocks) {
  std::unique_lock<std::mutex> lock(mutex_);
  changed_.wait(lock, [&] { return ended_ || pushed_ >= blocks; });
}

void shared_run::pushed_one() {
  std::unique_lock<std::mutex> lock(mutex_);
  ++pushed_;
  changed_.notify_all();
  if (pushed_ == hold_at_) changed_.wait(lock, [&] { return joined_any_ || no_joiners_; });
}

}  // namespace rowscan::job
