// SPDX-License-Identifier: Apache-2.0
// rowscan/cuda_check.hpp: check_cuda (rowscan/gpu_runtime/check_cuda.hpp) for the CUDA system's sources; the
// host systems have no CUDA runtime, and this header gives them nothing.
#pragma once

#include "rowscan/config.hpp"

#if ROWSCAN_HAS_CUB
#  include "rowscan/gpu_runtime/check_cuda.hpp"

namespace rowscan {
ROWSCAN_SYSTEM_BEGIN
using gpu_runtime::check_cuda;
ROWSCAN_SYSTEM_END
}  // namespace rowscan
#endif
