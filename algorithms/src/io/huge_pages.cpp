// SPDX-License-Identifier: Apache-2.0
// Large host blocks in transparent huge pages (rowscan/io/huge_pages.hpp).
#include "rowscan/io/huge_pages.hpp"

#include <cstdint>
#include <cstdlib>
#include <new>
#include <sys/mman.h>

namespace rowscan::io {

void* allocate_huge_pages(std::size_t bytes) {
  if (bytes < huge_page_bytes) {
    void* p = std::malloc(bytes == 0 ? 1 : bytes);
    if (p == nullptr) throw std::bad_alloc();
    return p;
  }
  std::size_t const rounded = whole_huge_pages(bytes);
  void* p = nullptr;
  if (::posix_memalign(&p, huge_page_bytes, rounded) != 0) throw std::bad_alloc();
  (void)::madvise(p, rounded, MADV_HUGEPAGE);
  return p;
}

void offer_huge_pages(void* p, std::size_t bytes) {
  // The whole huge pages inside [p, p + bytes): from the first boundary at or after p.
  std::size_t const past_boundary = reinterpret_cast<std::uintptr_t>(p) % huge_page_bytes;
  std::size_t const skip = past_boundary == 0 ? 0 : huge_page_bytes - past_boundary;
  if (bytes <= skip) return;
  std::size_t const whole = (bytes - skip) / huge_page_bytes * huge_page_bytes;
  if (whole == 0) return;
  (void)::madvise(static_cast<char*>(p) + skip, whole, MADV_HUGEPAGE);
}

}  // namespace rowscan::io
