// SPDX-License-Identifier: Apache-2.0
// A reader's ring that GPUs lock once they are ready (rowscan/job/lockable_memory.hpp).
#include "rowscan/job/lockable_memory.hpp"

#include <algorithm>
#include <new>

namespace rowscan::job {
namespace {

// Whole pages, page-aligned: a GPU locks pages, and two blocks must never share one.
constexpr std::size_t page = 4096;
std::size_t in_pages(std::size_t bytes) { return (bytes + page - 1) / page * page; }
void free_pages(void* p) { ::operator delete(p, std::align_val_t{page}); }

}  // namespace

lockable_memory::~lockable_memory() {
  // Every reader using it is gone by now; what it still holds is freed (unlocked first).
  std::lock_guard<std::mutex> lock(mutex_);
  for (block const& b : blocks_) {
    if (b.locked && unlock_ != nullptr) unlock_(b.p);
    free_pages(b.p);
  }
}

io::block_memory lockable_memory::memory() {
  return {[this](std::size_t bytes) { return allocate(bytes); }, [this](void* p) { release(p); }};
}

void* lockable_memory::allocate(std::size_t bytes) {
  void* const p = ::operator new(in_pages(bytes), std::align_val_t{page});
  std::lock_guard<std::mutex> lock(mutex_);
  try {
    blocks_.push_back({p, in_pages(bytes), false, false});
  } catch (...) {
    free_pages(p);
    throw;
  }
  return p;
}

void lockable_memory::release(void* p) {
  if (p == nullptr) return;
  std::lock_guard<std::mutex> lock(mutex_);
  auto const found = std::find_if(blocks_.begin(), blocks_.end(), [&](block const& b) { return b.p == p; });
  if (found == blocks_.end()) return;  // not ours: never given out
  if (found->locked && unlock_ != nullptr) unlock_(p);
  free_pages(p);
  blocks_.erase(found);
}

void lockable_memory::lock_new(locker how) {
  std::lock_guard<std::mutex> lock(mutex_);
  unlock_ = how.unlock;
  for (block& b : blocks_) {
    if (b.tried) continue;
    b.tried = true;
    b.locked = how.lock(b.p, b.bytes);
  }
}

std::size_t lockable_memory::locked() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return static_cast<std::size_t>(std::count_if(blocks_.begin(), blocks_.end(), [](block const& b) { return b.locked; }));
}

}  // namespace rowscan::job
