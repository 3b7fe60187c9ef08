// SPDX-License-Identifier: Apache-2.0
// rowscan/io/pinned_memory.hpp: host memory the device copies from at full speed (no Thrust here).
#pragma once

#include "rowscan/system.hpp"

#include <cstddef>

namespace rowscan::io {
ROWSCAN_SYSTEM_BEGIN

/// Allocates bytes of host memory for staging input: page-locked under CUDA (host-to-device copies
/// from it run at the bus's speed instead of through a driver bounce buffer), plain memory elsewhere.
/// Throws rowscan::device_error if it cannot.
void* allocate_pinned(std::size_t bytes);

/// Frees what allocate_pinned returned; null is ignored.
void free_pinned(void* p) noexcept;

ROWSCAN_SYSTEM_END
}  // namespace rowscan::io
