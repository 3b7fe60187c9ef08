// SPDX-License-Identifier: Apache-2.0
// The device-memory pool (rowscan/memory_pool.hpp): size classes for large requests, in front of
// Thrust's pool for small ones.
#include "rowscan/memory_pool.hpp"

#include <new>

#if !ROWSCAN_HAS_CUB
#  include <sys/mman.h>
#endif

namespace rowscan {
ROWSCAN_SYSTEM_BEGIN

namespace {
#if !ROWSCAN_HAS_CUB
/// A transparent huge page of x86-64 Linux.
constexpr std::size_t huge_page_bytes = std::size_t{2} << 20;
#endif

/// Host blocks of a huge page or more start on one, and are offered to the kernel as huge pages
/// (madvise): each 4 KiB page of a fresh block otherwise costs a page fault, and a merge of a million
/// stations' tables writes tens of MiB of fresh blocks (docs/stations.md, "A million stations").
std::size_t upstream_alignment(std::size_t size) {
#if !ROWSCAN_HAS_CUB
  if (size >= huge_page_bytes) return huge_page_bytes;
#endif
  (void)size;
  return THRUST_MR_DEFAULT_ALIGNMENT;
}
}  // namespace

memory_pool::memory_pool()
    : upstream_(thrust::mr::get_global_resource<upstream_type>()), small_([] {
        auto options = small_pool::get_default_options();
        options.largest_block_size = largest_small_request;
        options.cache_oversized = false;  // only over-aligned requests get there: none in rowscan
        return options;
      }()) {}

memory_pool::~memory_pool() { release_cached(); }

std::size_t memory_pool::size_class(std::size_t bytes) {
  std::size_t unit = 1;
  while (unit * 2 * classes_per_doubling <= bytes) unit *= 2;  // bytes in [unit, 2 unit) * classes_per_doubling
  return (bytes + unit - 1) / unit * unit;
}

memory_pool::pointer memory_pool::do_allocate(std::size_t bytes, std::size_t alignment) {
  std::lock_guard<std::recursive_mutex> lock(mutex_);
  if (!is_large(bytes, alignment)) return small_.do_allocate(bytes, alignment);
  std::size_t const size = size_class(bytes);
  size_class_blocks& c = classes_[size];
  c.last_asked = generation_;
  if (!c.free.empty()) {
    pointer const p = c.free.back();
    c.free.pop_back();
    cached_ -= size;
    return p;
  }
  pointer p;
  try {
    p = upstream_->do_allocate(size, upstream_alignment(size));
  } catch (std::bad_alloc const&) {
    release_cached();  // the memory may be there, cached in other classes
    p = upstream_->do_allocate(size, upstream_alignment(size));
  }
#if !ROWSCAN_HAS_CUB
  // Advice only: refused (no transparent huge pages), the block is the same memory in small pages.
  if (size >= huge_page_bytes) (void)madvise(thrust::raw_pointer_cast(p), size, MADV_HUGEPAGE);
#endif
  held_ += size;
  if (held_ > peak_held_) peak_held_ = held_;
  return p;
}

void memory_pool::do_deallocate(pointer p, std::size_t bytes, std::size_t alignment) {
  std::lock_guard<std::recursive_mutex> lock(mutex_);
  if (!is_large(bytes, alignment)) {
    small_.do_deallocate(p, bytes, alignment);
    return;
  }
  std::size_t const size = size_class(bytes);
  classes_[size].free.push_back(p);
  cached_ += size;
}

void memory_pool::free_class(std::size_t size, std::vector<pointer>& blocks) {
  for (pointer const p : blocks) upstream_->do_deallocate(p, size, upstream_alignment(size));
  held_ -= size * blocks.size();
  cached_ -= size * blocks.size();
  blocks.clear();
}

void memory_pool::release_unused() {
  std::lock_guard<std::recursive_mutex> lock(mutex_);
  for (auto& [size, c] : classes_) {
    if (c.last_asked < generation_) free_class(size, c.free);
  }
  ++generation_;
}

void memory_pool::release_cached() {
  std::lock_guard<std::recursive_mutex> lock(mutex_);
  for (auto& [size, c] : classes_) free_class(size, c.free);
}

ROWSCAN_SYSTEM_END
}  // namespace rowscan
