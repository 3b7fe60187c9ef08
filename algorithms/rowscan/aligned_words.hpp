// SPDX-License-Identifier: Apache-2.0
// rowscan/aligned_words.hpp: a thread's view of text as aligned 8-byte words, for the passes in which
// one thread reads a stretch of text by itself (lineitem's one pass, stations' lines by stretch).
//
//   aligned_word(p)              the 8 bytes at an 8-aligned p
//   bytes_equal_to(w, c)         0x80 in each byte of w that is c
//   bytes_between(from, to)      a mask of bytes [from, to) of a word
//   next_newline(text, from, to) the first '\n' of a range
//   newlines_in(text, from, to)  how many '\n' a range holds
//
// Words are aligned, so a word never crosses a page or an allocation's end: reading a word that holds
// at least one byte of the text is safe, and the bytes outside the range are masked.
#pragma once

#include "rowscan/system.hpp"

#include "rowscan/hd.hpp"
#include "rowscan/lines.hpp"

#include <cuda/std/bit>

#include <cstdint>
#include <cstring>

namespace rowscan {
ROWSCAN_SYSTEM_BEGIN

/// The aligned 8-byte word at p (byte i of it in bits 8i to 8i + 7).
ROWSCAN_HD inline std::uint64_t aligned_word(char const* p) {
#if ROWSCAN_HAS_CUB
  return *reinterpret_cast<std::uint64_t const*>(p);
#else
  std::uint64_t w = 0;
  std::memcpy(&w, p, sizeof w);
  return w;
#endif
}

/// 0x80 in each byte of w that is c (exact for every byte: lines.hpp's matching_bytes).
ROWSCAN_HD inline std::uint64_t bytes_equal_to(std::uint64_t w, char c) {
  return matching_bytes(w, 0x0101010101010101ull * static_cast<unsigned char>(c));
}

/// The bits of w's bytes from byte `from` on, below byte `to` (0 <= from < to <= 8).
ROWSCAN_HD inline std::uint64_t bytes_between(std::uint32_t from, std::uint32_t to) {
  std::uint64_t const below_to = to >= 8 ? ~std::uint64_t{0} : (std::uint64_t{1} << (8 * to)) - 1;
  return below_to & (~std::uint64_t{0} << (8 * from));
}

/// Position of the first '\n' in text[from, to), or `to` if there is none.
ROWSCAN_HD inline std::uint32_t next_newline(char const* text, std::uint32_t from, std::uint32_t to) {
  if (from >= to) return to;
  auto const skip = static_cast<std::uint32_t>(reinterpret_cast<std::uintptr_t>(text + from) & 7);
  char const* const first_word = text + from - skip;
  for (std::uint32_t base = 0; base < skip + (to - from); base += 8) {
    std::uint32_t const end = skip + (to - from) - base < 8 ? skip + (to - from) - base : 8;
    std::uint64_t const newline =
        bytes_equal_to(aligned_word(first_word + base), '\n') & bytes_between(base == 0 ? skip : 0, end);
    if (newline != 0) return from + base + static_cast<std::uint32_t>(cuda::std::countr_zero(newline)) / 8 - skip;
  }
  return to;
}

/// How many '\n' bytes text[from, to) holds.
ROWSCAN_HD inline std::uint32_t newlines_in(char const* text, std::uint32_t from, std::uint32_t to) {
  if (from >= to) return 0;
  auto const skip = static_cast<std::uint32_t>(reinterpret_cast<std::uintptr_t>(text + from) & 7);
  char const* const first_word = text + from - skip;
  std::uint32_t const last = skip + (to - from);  // the range's end, counted from first_word
  std::uint32_t count = 0;
  for (std::uint32_t base = 0; base < last; base += 8) {
    std::uint64_t newline = bytes_equal_to(aligned_word(first_word + base), '\n');
    if (base == 0 || last - base < 8) newline &= bytes_between(base == 0 ? skip : 0, last - base < 8 ? last - base : 8);
    count += static_cast<std::uint32_t>(cuda::std::popcount(newline));
  }
  return count;
}

ROWSCAN_SYSTEM_END
}  // namespace rowscan
