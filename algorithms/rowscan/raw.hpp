// SPDX-License-Identifier: Apache-2.0
// rowscan/raw.hpp: a device array's elements as a raw pointer, for CUB calls and kernels' functors.
#pragma once

#include "rowscan/system.hpp"

#include <thrust/device_vector.h>

namespace rowscan {
ROWSCAN_SYSTEM_BEGIN

template <class T>
T* raw(thrust::device_vector<T>& v) {
  return thrust::raw_pointer_cast(v.data());
}

template <class T>
T const* raw(thrust::device_vector<T> const& v) {
  return thrust::raw_pointer_cast(v.data());
}

ROWSCAN_SYSTEM_END
}  // namespace rowscan
