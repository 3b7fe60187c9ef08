// SPDX-License-Identifier: Apache-2.0
// samples/common/sample.hpp: what every sample shares: options.hpp, plus the device side: the device's
// name and device_ms (CUDA events on the GPU, a steady clock on the CPU backends).
#pragma once

#include "options.hpp"

#include "rowscan/config.hpp"
#include "rowscan/error.hpp"

#include <string>

#if THRUST_DEVICE_SYSTEM == THRUST_DEVICE_SYSTEM_OMP
#  include <omp.h>
#endif

#if ROWSCAN_HAS_CUB
/// Throws rowscan::device_error, with the call and its place, when a CUDA runtime call fails.
#  define SAMPLE_CUDA_TRY(call)                                                                        \
    do {                                                                                               \
      if (cudaError_t const status_ = (call); status_ != cudaSuccess) {                                \
        throw ::rowscan::device_error(std::string(__FILE__ ":") + std::to_string(__LINE__) + ": " #call \
                                      ": " + cudaGetErrorString(status_));                             \
      }                                                                                                \
    } while (0)
#endif

namespace samples {

/// What the timings were taken on: the GPU's name, or the CPU backend and its thread count.
inline std::string device_name() {
#if ROWSCAN_HAS_CUB
  int device = 0;
  SAMPLE_CUDA_TRY(cudaGetDevice(&device));
  cudaDeviceProp properties{};
  SAMPLE_CUDA_TRY(cudaGetDeviceProperties(&properties, device));
  return properties.name;
#elif THRUST_DEVICE_SYSTEM == THRUST_DEVICE_SYSTEM_OMP
  return "CPU OMP " + std::to_string(omp_get_max_threads()) + " threads";
#else
  return "CPU sequential";
#endif
}

/// Milliseconds of the work f does on the device system. On the GPU: CUDA events recorded on the default
/// stream before and after f, so the time covers every kernel f enqueued. On the CPU: host_ms.
template <class F>
double device_ms(F&& f) {
#if ROWSCAN_HAS_CUB
  cudaEvent_t start, stop;
  SAMPLE_CUDA_TRY(cudaEventCreate(&start));
  SAMPLE_CUDA_TRY(cudaEventCreate(&stop));
  SAMPLE_CUDA_TRY(cudaEventRecord(start));
  f();
  SAMPLE_CUDA_TRY(cudaEventRecord(stop));
  SAMPLE_CUDA_TRY(cudaEventSynchronize(stop));
  float ms = 0;
  SAMPLE_CUDA_TRY(cudaEventElapsedTime(&ms, start, stop));
  SAMPLE_CUDA_TRY(cudaEventDestroy(start));
  SAMPLE_CUDA_TRY(cudaEventDestroy(stop));
  return ms;
#else
  return host_ms(f);
#endif
}

}  // namespace samples
