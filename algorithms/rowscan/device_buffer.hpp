// SPDX-License-Identifier: Apache-2.0
// rowscan/device_buffer.hpp: an owning array in device-system memory whose elements start uninitialized.
#pragma once

#include "rowscan/config.hpp"

#include <thrust/copy.h>
#include <thrust/device_ptr.h>
#include <thrust/mr/device_memory_resource.h>
#include <thrust/mr/memory_resource.h>

#include <cstddef>
#include <memory>
#include <type_traits>
#include <utility>

namespace rowscan {
ROWSCAN_SYSTEM_BEGIN

/// Where device-system memory comes from: Thrust's device resource (cudaMalloc under CUDA, new/delete
/// on the CPU backends) or a pool in front of it (context::memory()).
using device_resource = thrust::mr::memory_resource<thrust::device_memory_resource::pointer>;

/// The process-wide device resource. It is not owned: the shared_ptr only gives every buffer one type.
inline std::shared_ptr<device_resource> global_device_resource() {
  static std::shared_ptr<device_resource> const resource(
      thrust::mr::get_global_resource<thrust::device_memory_resource>(), [](device_resource*) {});
  return resource;
}

/// `size()` elements of a trivially copyable T in device-system memory, left uninitialized.
///
/// Why not thrust::device_vector: a device_vector value-initializes whatever it allocates. Under CUDA,
/// `device_vector<char>(n)` runs a fill kernel over all n bytes, and an allocator with a no-op
/// `construct` still runs a for_each over them (thrust/detail/allocator/value_initialize_range.inl).
/// An output that an algorithm writes completely, such as a gathered column's chars, would pay for one
/// extra write pass of its whole size. This buffer allocates and nothing more; the memory comes from
/// a device_resource that the buffer keeps alive (shared ownership, so a column may outlive the
/// context whose pool it came from). Copies are deep and use the same resource.
template <class T>
class device_buffer {
  static_assert(std::is_trivially_copyable_v<T>, "device_buffer holds plain data only");
  static_assert(alignof(T) <= THRUST_MR_DEFAULT_ALIGNMENT, "device_buffer does not over-align");

 public:
  using value_type = T;
  using iterator = thrust::device_ptr<T>;
  using const_iterator = thrust::device_ptr<T const>;

  /// No elements; later allocations (by assignment) come from the global resource.
  device_buffer() : resource_(global_device_resource()) {}

  /// `size` uninitialized elements from `resource`.
  explicit device_buffer(std::size_t size, std::shared_ptr<device_resource> resource = global_device_resource())
      : resource_(std::move(resource)), size_(size) {
    if (size_ > 0) {
      data_ = static_cast<T*>(thrust::raw_pointer_cast(resource_->allocate(bytes(), alignment)));
    }
  }

  device_buffer(device_buffer const& other) : device_buffer(other.size_, other.resource_) {
    thrust::copy(other.begin(), other.end(), begin());
  }

  device_buffer(device_buffer&& other) noexcept
      : resource_(other.resource_), data_(std::exchange(other.data_, nullptr)), size_(std::exchange(other.size_, 0)) {}

  device_buffer& operator=(device_buffer other) noexcept {  // copy or move, then swap
    swap(other);
    return *this;
  }

  ~device_buffer() { release(); }

  void swap(device_buffer& other) noexcept {
    std::swap(resource_, other.resource_);
    std::swap(data_, other.data_);
    std::swap(size_, other.size_);
  }

  std::size_t size() const { return size_; }
  bool empty() const { return size_ == 0; }

  iterator data() { return iterator(data_); }
  const_iterator data() const { return const_iterator(data_); }
  iterator begin() { return data(); }
  iterator end() { return data() + static_cast<std::ptrdiff_t>(size_); }
  const_iterator begin() const { return data(); }
  const_iterator end() const { return data() + static_cast<std::ptrdiff_t>(size_); }

  std::shared_ptr<device_resource> const& resource() const { return resource_; }

 private:
  static constexpr std::size_t alignment = THRUST_MR_DEFAULT_ALIGNMENT;

  std::size_t bytes() const { return size_ * sizeof(T); }

  void release() noexcept {
    if (data_ != nullptr) resource_->deallocate(device_resource::pointer(static_cast<void*>(data_)), bytes(), alignment);
    data_ = nullptr;
    size_ = 0;
  }

  std::shared_ptr<device_resource> resource_;
  T* data_ = nullptr;
  std::size_t size_ = 0;
};

ROWSCAN_SYSTEM_END
}  // namespace rowscan
