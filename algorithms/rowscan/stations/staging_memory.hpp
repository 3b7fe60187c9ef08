// SPDX-License-Identifier: Apache-2.0
// rowscan/stations/staging_memory.hpp: the host memory of the dictionary's rebuild (compiled once).
#pragma once

#include <cstddef>

namespace rowscan::stations {

/// bytes of host memory for staging_allocator (dictionary.hpp), released with std::free: from 2 MiB on,
/// on a 2 MiB boundary and offered to the kernel as transparent huge pages. Throws std::bad_alloc.
void* allocate_staging(std::size_t bytes);

}  // namespace rowscan::stations
