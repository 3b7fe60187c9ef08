// SPDX-License-Identifier: Apache-2.0
// rowscan/explain/lines.hpp: the line-finding stage's arrays of a device text, for --explain.
#pragma once

#include "rowscan/system.hpp"

#include "rowscan/context.hpp"
#include "rowscan/explain/arrays.hpp"
#include "rowscan/records.hpp"

#include <thrust/device_vector.h>
#include <thrust/host_vector.h>

#include <cstddef>
#include <vector>

namespace rowscan::explain {
ROWSCAN_SYSTEM_BEGIN

/// A device array's copy on the host.
template <class T>
std::vector<T> to_host(thrust::device_vector<T> const& v) {
  thrust::host_vector<T> const h = v;
  return std::vector<T>(h.begin(), h.end());
}

/// The arrays of find_lines(text, size) (device text; records: what find_lines wrote for it):
/// transform(starts_chunk(same_line)) per byte, scan_line_intervals per word, and the records.
line_scan explain_lines(char const* text, std::size_t size, thrust::device_vector<record_range> const& records,
                        context const& ctx);

ROWSCAN_SYSTEM_END
}  // namespace rowscan::explain
