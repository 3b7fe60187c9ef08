// SPDX-License-Identifier: Apache-2.0
// rowscan/cuda_check.hpp: a failing CUDA runtime call becomes a rowscan::device_error that says what failed.
#pragma once

#include "rowscan/config.hpp"
#include "rowscan/error.hpp"

#include <string>

#if ROWSCAN_HAS_CUB
namespace rowscan {
ROWSCAN_SYSTEM_BEGIN

/// Throws device_error("CUDA: <what>: <CUDA's reason>") unless status is cudaSuccess.
inline void check_cuda(cudaError_t status, char const* what) {
  if (status != cudaSuccess) throw device_error(std::string("CUDA: ") + what + ": " + cudaGetErrorString(status));
}

ROWSCAN_SYSTEM_END
}  // namespace rowscan
#endif
