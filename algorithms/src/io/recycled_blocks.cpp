// SPDX-License-Identifier: Apache-2.0
// The reader's blocks kept from one input of a run for the next (rowscan/io/recycled_blocks.hpp).
#include "rowscan/io/recycled_blocks.hpp"

#include <algorithm>

namespace rowscan::io {

recycled_blocks::~recycled_blocks() {
  for (block const& b : blocks_) underlying_.release(b.p);
}

block_memory recycled_blocks::memory() {
  return {[this](std::size_t bytes) { return allocate(bytes); }, [this](void* p) noexcept { release(p); }};
}

void* recycled_blocks::allocate(std::size_t bytes) {
  std::vector<void*> other_sizes;  // kept blocks that no reader of this size will ask for
  {
    std::lock_guard<std::mutex> const lock(mutex_);
    auto const kept = std::find_if(blocks_.begin(), blocks_.end(), [&](block const& b) { return b.kept && b.bytes == bytes; });
    if (kept != blocks_.end()) {
      kept->kept = false;
      return kept->p;
    }
    for (block const& b : blocks_) {
      if (b.kept) other_sizes.push_back(b.p);
    }
    blocks_.erase(std::remove_if(blocks_.begin(), blocks_.end(), [](block const& b) { return b.kept; }), blocks_.end());
  }
  // Outside the lock: page-locking and unlocking take milliseconds, and another reader thread may give
  // a block back meanwhile.
  for (void* const q : other_sizes) underlying_.release(q);
  void* const p = underlying_.allocate(bytes);
  std::lock_guard<std::mutex> const lock(mutex_);
  try {
    blocks_.push_back({p, bytes, false});
  } catch (...) {
    underlying_.release(p);
    throw;
  }
  return p;
}

void recycled_blocks::release(void* p) noexcept {
  if (p == nullptr) return;
  std::lock_guard<std::mutex> const lock(mutex_);
  auto const made = std::find_if(blocks_.begin(), blocks_.end(), [&](block const& b) { return b.p == p; });
  if (made != blocks_.end()) {
    made->kept = true;
  } else {
    underlying_.release(p);  // not one of these: nothing to keep
  }
}

std::size_t recycled_blocks::blocks_made() const {
  std::lock_guard<std::mutex> const lock(mutex_);
  return blocks_.size();
}

std::size_t recycled_blocks::blocks_kept() const {
  std::lock_guard<std::mutex> const lock(mutex_);
  return static_cast<std::size_t>(std::count_if(blocks_.begin(), blocks_.end(), [](block const& b) { return b.kept; }));
}

}  // namespace rowscan::io
