// SPDX-License-Identifier: Apache-2.0
// The host memory of the dictionary's rebuild (staging_allocator, rowscan/stations/dictionary.hpp).
#include "rowscan/stations/staging_memory.hpp"

#include <cstdlib>
#include <new>
#include <sys/mman.h>

namespace rowscan::stations {
namespace {
/// A transparent huge page of x86-64 Linux.
constexpr std::size_t huge_page_bytes = std::size_t{2} << 20;
}  // namespace

void* allocate_staging(std::size_t bytes) {
  if (bytes < huge_page_bytes) {
    void* p = std::malloc(bytes == 0 ? 1 : bytes);
    if (p == nullptr) throw std::bad_alloc();
    return p;
  }
  std::size_t const rounded = (bytes + huge_page_bytes - 1) / huge_page_bytes * huge_page_bytes;
  void* p = nullptr;
  if (::posix_memalign(&p, huge_page_bytes, rounded) != 0) throw std::bad_alloc();
  (void)::madvise(p, rounded, MADV_HUGEPAGE);  // advice only: refused, the memory is the same in small pages
  return p;
}

}  // namespace rowscan::stations
