// SPDX-License-Identifier: Apache-2.0
// rowscan/config.hpp: the one switch between the portable Thrust path and CUDA-only fast paths.
#pragma once

#include "rowscan/system.hpp"

#include <thrust/detail/config.h>

// ROWSCAN_HAS_CUB is 1 when the Thrust device system is CUDA, so CUB's device-wide algorithms may be
// called. Every CUB fast path sits behind this switch beside its portable Thrust path, which CI tests
// on the CPU; on a GPU, --portable (stations::summarize_options::portable_only) runs the portable path
// too, and the tests compare the two.
#if THRUST_DEVICE_SYSTEM == THRUST_DEVICE_SYSTEM_CUDA
#  if !defined(__CUDACC__)
#    error "the CUDA device system needs this translation unit compiled by nvcc"
#  endif
#  define ROWSCAN_HAS_CUB 1
#else
#  define ROWSCAN_HAS_CUB 0
#endif

#include "rowscan/hd.hpp"

namespace rowscan {
ROWSCAN_SYSTEM_BEGIN
/// Name of the device system this build runs its compositions on.
constexpr const char* device_system_name() {
#if ROWSCAN_HAS_CUB
  return "cuda";
#elif THRUST_DEVICE_SYSTEM == THRUST_DEVICE_SYSTEM_OMP
  return "omp";
#else
  return "cpp";
#endif
}
ROWSCAN_SYSTEM_END
}  // namespace rowscan
