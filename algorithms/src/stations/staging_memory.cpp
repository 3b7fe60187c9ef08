// SPDX-License-Identifier: Apache-2.0
// The host memory of the dictionary's rebuild (staging_allocator, rowscan/stations/dictionary.hpp).
#include "rowscan/stations/staging_memory.hpp"

#include "rowscan/io/huge_pages.hpp"

namespace rowscan::stations {

void* allocate_staging(std::size_t bytes) { return io::allocate_huge_pages(bytes); }

}  // namespace rowscan::stations
