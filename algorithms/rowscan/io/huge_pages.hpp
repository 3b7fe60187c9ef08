// SPDX-License-Identifier: Apache-2.0
// rowscan/io/huge_pages.hpp: large host blocks in transparent huge pages (compiled once).
//
// Each 4 KiB page a process touches for the first time is a page fault, and on a virtual machine a fault
// costs microseconds: the answer of a million stations (its summaries and its text, tens of MB) took more
// page faults than the rest of the run (docs/stations.md, "A million stations"). A 2 MiB page is one fault.
#pragma once

#include <cstddef>

namespace rowscan::io {

/// A transparent huge page of x86-64 Linux.
inline constexpr std::size_t huge_page_bytes = std::size_t{2} << 20;

/// bytes rounded up to whole huge pages.
constexpr std::size_t whole_huge_pages(std::size_t bytes) {
  return (bytes + huge_page_bytes - 1) / huge_page_bytes * huge_page_bytes;
}

/// bytes of host memory, released with std::free: from huge_page_bytes on, on a huge page's boundary,
/// rounded up to whole huge pages and offered to the kernel as transparent huge pages (madvise; advice
/// only: refused, the memory is the same in small pages). Throws std::bad_alloc.
void* allocate_huge_pages(std::size_t bytes);

/// Offers the whole huge pages within [p, p + bytes) to the kernel as transparent huge pages, for memory
/// that someone else allocated (a std::vector's): the pages not yet touched then come 2 MiB a fault.
/// Advice only; does nothing below a huge page.
void offer_huge_pages(void* p, std::size_t bytes);

}  // namespace rowscan::io
