// SPDX-License-Identifier: Apache-2.0
// rowscan/context.hpp: what every composition receives last: the execution policy and its memory pool.
#pragma once

#include "rowscan/config.hpp"
#include "rowscan/device_buffer.hpp"

#include <thrust/device_vector.h>
#include <thrust/execution_policy.h>
#include <thrust/memory.h>
#include <thrust/mr/allocator.h>
#include <thrust/mr/device_memory_resource.h>
#include <thrust/mr/disjoint_pool.h>
#include <thrust/mr/new.h>

#include <cstddef>
#include <memory>
#include <new>

namespace rowscan {

/// Execution context: one device-memory pool shared by every algorithm's temporaries, so a loop over
/// chunks stops allocating after its first iteration (under OpenMP, copy_if and reduce_by_key would
/// otherwise allocate on every call). Cheap to copy; copies share the pool.
class context {
  using upstream = thrust::device_memory_resource;
  using pool_type = thrust::mr::disjoint_unsynchronized_pool_resource<upstream, thrust::mr::new_delete_resource>;

 public:
  using allocator_type = thrust::mr::allocator<char, pool_type>;

  context() : pool_(std::make_shared<pool_type>(make_options())), alloc_(pool_.get()) {}

  /// The policy to pass to Thrust algorithms: the device system, temporaries from the pool. Under CUDA
  /// the algorithms do not wait for the device when they return (everything runs on one stream, in
  /// order); those that return a value to the host still do.
  auto policy() const {
#if ROWSCAN_HAS_CUB
    return thrust::cuda::par_nosync(alloc_);
#else
    return thrust::device(alloc_);
#endif
  }

  /// The same pool as a memory resource, for outputs that live on after the call (a gathered strings
  /// column): device_buffers from it share ownership of the pool and give their memory back to it.
  std::shared_ptr<device_resource> memory() const { return pool_; }

  /// Waits for all enqueued device work; throws rowscan::device_error on a device fault.
  void synchronize() const;

  /// Resizes a chunk-sized device array to n elements. Every array whose size follows the chunk's is
  /// sized here, so that tests can make the large ones fail (fail_allocations_above) the way a full
  /// device does: with std::bad_alloc, before anything is written.
  template <class T>
  void resize(thrust::device_vector<T>& v, std::size_t n) const {
    if (n > v.capacity() && fail_above_ != 0 && n * sizeof(T) > fail_above_) throw std::bad_alloc();
    v.resize(n);
  }
  /// Grows v to at least n elements; never shrinks it, so steady state does not reallocate.
  template <class T>
  void grow(thrust::device_vector<T>& v, std::size_t n) const {
    if (v.size() < n) resize(v, n);
  }

  /// Testing aid: from now on, resize() throws std::bad_alloc for arrays of more than `bytes` bytes
  /// (0: never). Copies of the context made afterwards keep the limit.
  void fail_allocations_above(std::size_t bytes) { fail_above_ = bytes; }

 private:
  static thrust::mr::pool_options make_options() {
    auto options = pool_type::get_default_options();
    options.cache_oversized = true;  // chunk-sized temporaries are the ones worth keeping
    return options;
  }
  std::shared_ptr<pool_type> pool_;
  mutable allocator_type alloc_;
  std::size_t fail_above_ = 0;
};

/// Free and total bytes of memory on the device system (host RAM for the CPU backends).
struct memory_info {
  std::size_t free_bytes;
  std::size_t total_bytes;
};
memory_info device_memory_info();

}  // namespace rowscan
