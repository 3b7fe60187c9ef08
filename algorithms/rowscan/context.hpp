// SPDX-License-Identifier: Apache-2.0
// rowscan/context.hpp: what every composition receives last: where its work runs (a stream and the
// execution policy on it), the memory pool its temporaries come from, and who watches its stages.
#pragma once

#include "rowscan/config.hpp"
#include "rowscan/device_buffer.hpp"
#include "rowscan/memory_pool.hpp"

#include <thrust/device_vector.h>
#include <thrust/execution_policy.h>
#include <thrust/memory.h>
#include <thrust/mr/allocator.h>

#include <cstddef>
#include <memory>
#include <new>

namespace rowscan {
class stage_observer;  // compiled once (stage_observer.hpp)

ROWSCAN_SYSTEM_BEGIN

#if ROWSCAN_HAS_CUB
/// The queue a context's device work is ordered on.
using stream_handle = cudaStream_t;
#else
/// The host systems finish every call before it returns: there is no queue to name.
using stream_handle = std::nullptr_t;
#endif

/// On the host systems, makes the process's OpenMP team before its first region of several threads, so
/// that a system that refuses a thread gives a clean rowscan::error (libgomp would end the process); once,
/// and not from a thread held to one (job::one_thread_scope). Nothing under CUDA. A context calls it when
/// made and at every policy().
void start_thread_team();

/// Execution context, cheap to copy; copies share the stream and the pool.
///
/// - One stream: every Thrust call runs on it through policy(), every CUB call and copy is given
///   stream(). Under CUDA it is a blocking stream, so the device_vector operations that Thrust
///   performs on the legacy default stream (resizes, host assignments) stay ordered with it.
/// - One device-memory pool (memory_pool.hpp) for every algorithm's temporaries, so a loop over blocks
///   stops allocating after its first iteration, and a growing table reuses what it gave back.
/// - Functions that return device data only enqueue work; a value the host needs is read with
///   read_back (read_back.hpp), which waits for the stream: the one visible synchronization.
/// - An optional stage_observer (stage.hpp) that compositions report their stages to.
class context {
 public:
  using allocator_type = thrust::mr::allocator<char, memory_pool>;

  /// A new stream (under CUDA) and a new pool.
  context();

  /// The policy to pass to Thrust algorithms: the device system, on stream(), temporaries from the
  /// pool. Under CUDA the algorithms do not wait for the device when they return; those that return a
  /// value to the host (reduce, count_if, find_if) still do.
  auto policy() const {
#if ROWSCAN_HAS_CUB
    return thrust::cuda::par_nosync(alloc_).on(stream());
#else
    start_thread_team();  // the first region of several threads finds its team made
    return thrust::device(alloc_);
#endif
  }

  /// The stream every composition of this context is ordered on.
  stream_handle stream() const;

  /// The same pool as a memory resource, for outputs that live on after the call (a gathered strings
  /// column): device_buffers from it share ownership of the pool and give their memory back to it.
  std::shared_ptr<device_resource> memory() const { return pool_; }

  /// The pool itself: its statistics, and release_unused() for a composition whose sizes have grown.
  memory_pool& pool() const { return *pool_; }

  /// Waits for all work enqueued on stream(); throws rowscan::device_error on a device fault.
  void synchronize() const;

  /// Resizes a block-sized device array to n elements. Every array whose size follows the block's is
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

  /// Who is told about each stage (stage.hpp); nullptr: nobody, and stages cost nothing but a range
  /// marker under CUDA. Copies of the context made afterwards keep the observer.
  void observe_stages(stage_observer* observer) { observer_ = observer; }
  stage_observer* observer() const { return observer_; }

 private:
  struct owned_stream;
  std::shared_ptr<owned_stream> stream_;
  std::shared_ptr<memory_pool> pool_;
  mutable allocator_type alloc_;
  std::size_t fail_above_ = 0;
  stage_observer* observer_ = nullptr;
};

/// Free and total bytes of memory on the device system (host RAM for the CPU backends).
struct memory_info {
  std::size_t free_bytes;
  std::size_t total_bytes;
};
memory_info device_memory_info();

ROWSCAN_SYSTEM_END
}  // namespace rowscan
