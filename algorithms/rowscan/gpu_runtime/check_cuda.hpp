// SPDX-License-Identifier: Apache-2.0
// rowscan/gpu_runtime/check_cuda.hpp: a failing CUDA runtime call becomes a rowscan::device_error that says what
// failed. For code that has the CUDA runtime's headers: rowscan/gpu_runtime's sources and the CUDA system's
// (through rowscan/cuda_check.hpp).
#pragma once

#include "rowscan/error.hpp"

#include <cuda_runtime_api.h>

#include <string>

namespace rowscan::gpu_runtime {

/// Throws device_error("CUDA: <what>: <CUDA's reason>") unless status is cudaSuccess.
inline void check_cuda(cudaError_t status, char const* what) {
  if (status != cudaSuccess) throw device_error(std::string("CUDA: ") + what + ": " + cudaGetErrorString(status));
}

}  // namespace rowscan::gpu_runtime
