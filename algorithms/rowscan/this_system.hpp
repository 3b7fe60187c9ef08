// SPDX-License-Identifier: Apache-2.0
// rowscan/this_system.hpp: the Thrust system a translation unit is compiled for (rowscan/system.hpp), as
// the type a workload's per-system points are defined for here (rowscan/workload.hpp).
#pragma once

#include "rowscan/system.hpp"
#include "rowscan/system_tag.hpp"

namespace rowscan {
ROWSCAN_SYSTEM_BEGIN

#if THRUST_DEVICE_SYSTEM == THRUST_DEVICE_SYSTEM_CUDA
using this_system = cuda_system_tag;
#else
using this_system = host_system_tag;
#endif

ROWSCAN_SYSTEM_END
}  // namespace rowscan
