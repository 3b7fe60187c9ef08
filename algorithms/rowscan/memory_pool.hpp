// SPDX-License-Identifier: Apache-2.0
// rowscan/memory_pool.hpp: the device-memory pool behind every context (context.hpp).
//
//   request <= 1 MiB  -> Thrust's disjoint_unsynchronized_pool_resource (power-of-two buckets, kept)
//   request >  1 MiB  -> rounded up to a size class (a power of two) -> a free block of exactly that
//                        class, else the upstream resource (cudaMalloc, or new)
//   release_unused()  -> frees the cached blocks of the classes nobody asked for since the last call
//
// Why not Thrust's pool alone, with cache_oversized: it caches every block above 1 MiB at
// its exact size and reuses one only for a request no larger. A station table that grows by a few rows
// a block asks for a slightly larger block each time (its names, its sort's temporaries), so every
// request missed, and every earlier block stayed cached: 4,351 MiB peak RSS for 200,000 distinct names
// at 16 KiB chunks, quadratic in the station count. Size classes make a growing table's requests hit
// the block it gave back, until it crosses into the next class; release_unused, called by the stations
// worker when its table has grown, gives back the classes it grew out of. Block-sized temporaries are
// asked for in every block, so they stay cached: under CUDA, freeing device memory waits for the whole
// device, and nothing here frees memory once per block.
//
// Powers of two waste up to half of a class, yet won against finer classes and against no caching of
// large blocks: a table crosses a class boundary less often, each crossing briefly holds both classes,
// and no caching frees block-sized temporaries every block (a device-wide wait each under CUDA). Each
// option's peak RSS and frees: docs/performance-log.md, "The memory pool's policy".
#pragma once

#include "rowscan/system.hpp"

#include "rowscan/device_buffer.hpp"

#include <thrust/mr/device_memory_resource.h>
#include <thrust/mr/disjoint_pool.h>
#include <thrust/mr/new.h>

#include <cstddef>
#include <cstdint>
#include <map>
#include <mutex>
#include <vector>

namespace rowscan {
ROWSCAN_SYSTEM_BEGIN

/// A pool of device-system memory for one context. It takes a lock: a context's work is enqueued by one
/// thread, but on the host systems Thrust's OpenMP sort merges tiles on several threads at once, each
/// taking temporaries from the policy's allocator (without a lock, 16 threads corrupted the heap).
class memory_pool final : public device_resource {
  using upstream_type = thrust::device_memory_resource;
  using small_pool = thrust::mr::disjoint_unsynchronized_pool_resource<upstream_type, thrust::mr::new_delete_resource>;

 public:
  using pointer = device_resource::pointer;

  /// The largest request served by the small pool's buckets (Thrust's default largest_block_size).
  static constexpr std::size_t largest_small_request = std::size_t{1} << 20;
  /// Size classes per doubling for larger requests: a request is rounded up to the next multiple of
  /// 2^floor(log2(bytes)) / classes_per_doubling; with 1, to the next power of two (at most twice it).
  static constexpr unsigned classes_per_doubling = 1;

  memory_pool();
  ~memory_pool() override;
  memory_pool(memory_pool const&) = delete;
  memory_pool& operator=(memory_pool const&) = delete;

  /// The bytes a request of `bytes` takes from the upstream resource when it is not small.
  static std::size_t size_class(std::size_t bytes);

  /// Frees the cached blocks of every size class that no request asked for since the previous call.
  void release_unused();
  /// Frees every cached (unused) large block.
  void release_cached();

  /// Bytes of large blocks held from upstream now, in use or cached; and the most held at once.
  std::size_t large_bytes_held() const { return held_; }
  std::size_t peak_large_bytes_held() const { return peak_held_; }
  /// Bytes of large blocks cached (held but not in use).
  std::size_t cached_bytes() const { return cached_; }

  // Public, as in Thrust's resources: thrust::mr::allocator calls them directly. A large request that
  // the upstream resource refuses is tried once more after release_cached().
  pointer do_allocate(std::size_t bytes, std::size_t alignment) override;
  void do_deallocate(pointer p, std::size_t bytes, std::size_t alignment) override;

 private:
  bool is_large(std::size_t bytes, std::size_t alignment) const {
    return bytes > largest_small_request && alignment <= THRUST_MR_DEFAULT_ALIGNMENT;
  }
  void free_class(std::size_t size, std::vector<pointer>& blocks);

  struct size_class_blocks {
    std::vector<pointer> free;   // cached blocks of this class
    std::uint64_t last_asked = 0;  // the generation (release_unused calls) of the last request
  };

  std::recursive_mutex mutex_;  // recursive: a refused request releases the cache and tries again
  upstream_type* upstream_;
  small_pool small_;
  std::map<std::size_t, size_class_blocks> classes_;
  std::uint64_t generation_ = 0;
  std::size_t held_ = 0;
  std::size_t peak_held_ = 0;
  std::size_t cached_ = 0;
};

ROWSCAN_SYSTEM_END
}  // namespace rowscan
