// SPDX-License-Identifier: Apache-2.0
// rowscan/read_back.hpp: the named ways a host reads device results, each one a visible wait.
//
// A device_vector's operator[] copies one element to the host and waits for the device, hidden in an
// expression; compositions call these instead, so every synchronization can be found by name.
#pragma once

#include "rowscan/system.hpp"

#include "rowscan/context.hpp"
#include "rowscan/cuda_check.hpp"

#include <thrust/device_ptr.h>
#include <thrust/device_vector.h>

#include <cstddef>
#include <cstring>

namespace rowscan {
ROWSCAN_SYSTEM_BEGIN

/// Copies n elements at device-system address `from` to host memory `to`, after the work enqueued on
/// ctx's stream, and waits for them.
template <class T>
void copy_to_host(T const* from, std::size_t n, T* to, context const& ctx) {
  if (n == 0) return;
#if ROWSCAN_HAS_CUB
  check_cuda(cudaMemcpyAsync(to, from, n * sizeof(T), cudaMemcpyDeviceToHost, ctx.stream()), "cannot copy to the host");
  ctx.synchronize();
#else
  (void)ctx;  // the host systems have finished the work before they return
  std::memcpy(to, from, n * sizeof(T));
#endif
}

/// Element i of a device array, on the host.
template <class T>
T read_back(thrust::device_vector<T> const& v, std::size_t i, context const& ctx) {
  T value;
  copy_to_host(thrust::raw_pointer_cast(v.data()) + i, 1, &value, ctx);
  return value;
}

ROWSCAN_SYSTEM_END
}  // namespace rowscan
