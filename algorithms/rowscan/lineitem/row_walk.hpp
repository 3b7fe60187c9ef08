// SPDX-License-Identifier: Apache-2.0
// rowscan/lineitem/row_walk.hpp: one lineitem row read by one thread, in the aligned 8-byte words that
// hold it, with a mask of its '|' bytes and of its '\n' bytes per word.
//
//   walk_row(text, begin, size, limit)   where the row ends, its '|' count, and the six '|' offsets
//                                         parse_fields reads (the 2nd to 6th and the 16th)
//   next_newline(text, from, to)          the first '\n' of a range, for a thread that must find
//                                         where the rows of its stretch of text start
//
// A walk takes a step per '|' only until it has the sixth (fields 2, 4 and 5 end there, within the
// row's first few words); after that a word costs a popcount, and the word that holds the 16th '|' a
// few steps more. Words are aligned, so a word never crosses a page or an allocation's end: reading
// a word that holds at least one byte of the text is safe, and the bytes outside the text are masked.
#pragma once

#include "rowscan/system.hpp"

#include "rowscan/hd.hpp"
#include "rowscan/lineitem/row_format.hpp"
#include "rowscan/lines.hpp"

#include <cuda/std/bit>

#include <cstdint>
#include <cstring>

namespace rowscan::lineitem {
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

/// pipe_at for parse_fields from one walk over the row: the 2nd to 6th '|' and the 16th, the only ones
/// parse_fields reads (fields 2, 4 and 5, and where the row ends).
struct walked_pipes {
  std::uint32_t second_to_sixth[5];
  std::uint32_t sixteenth;
  ROWSCAN_HD std::uint32_t operator()(std::uint32_t j) const {
    return j == fields_per_row - 1 ? sixteenth : second_to_sixth[j - 1];
  }
};

/// What a walk found: the row's size without its '\n', its '|' count and offsets, and whether it ended
/// (a '\n', or the text's end) within the walk's limit.
struct row_walk {
  std::uint32_t size = 0;
  std::uint32_t pipes = 0;
  walked_pipes at{{0, 0, 0, 0, 0}, 0};
  bool ended = false;

  /// parse_fields' decision on the walked row, text + begin being its first byte.
  ROWSCAN_HD parsed_row parse(char const* line) const { return parse_fields(line, size, pipes, at); }
};

/// Walks the row that starts at text[begin] up to its '\n', the text's end `size`, or `limit` bytes,
/// whichever comes first.
ROWSCAN_HD inline row_walk walk_row(char const* text, std::uint32_t begin, std::uint32_t size, std::uint32_t limit) {
  char const* const line = text + begin;
  auto const skip = static_cast<std::uint32_t>(reinterpret_cast<std::uintptr_t>(line) & 7);  // bytes before the row
  char const* const first_word = line - skip;
  std::uint32_t const readable = size - begin < limit ? size - begin : limit;
  row_walk out;
  for (std::uint32_t base = 0; base < skip + readable; base += 8) {
    std::uint64_t const word = aligned_word(first_word + base);
    std::uint64_t newline = bytes_equal_to(word, '\n');
    std::uint64_t pipes = bytes_equal_to(word, '|');
    if (base == 0 || skip + readable - base < 8) {  // the first or last word: only the row's own bytes
      std::uint64_t const keep =
          bytes_between(base == 0 ? skip : 0, skip + readable - base < 8 ? skip + readable - base : 8);
      newline &= keep;
      pipes &= keep;
    }
    if (newline != 0) pipes &= (newline & (~newline + 1)) - 1;  // only those before the first '\n'
    if (out.pipes < 6) {  // a step per '|' until the sixth (at most 13 then: the 16th is never in this word)
      for (; pipes != 0; pipes &= pipes - 1) {
        std::uint32_t const i = base + static_cast<std::uint32_t>(cuda::std::countr_zero(pipes)) / 8 - skip;
        // Selects, not a store at a computed index, so that the five can stay in registers on the GPU.
        for (std::uint32_t k = 0; k < 5; ++k)
          out.at.second_to_sixth[k] = out.pipes == k + 1 ? i : out.at.second_to_sixth[k];
        ++out.pipes;
      }
    } else {  // then a popcount per word, and the 16th '|' picked out of its word
      auto const count = static_cast<std::uint32_t>(cuda::std::popcount(pipes));
      if (out.pipes < fields_per_row && out.pipes + count >= fields_per_row) {
        for (std::uint32_t k = out.pipes; k + 1 < fields_per_row; ++k) pipes &= pipes - 1;
        out.at.sixteenth = base + static_cast<std::uint32_t>(cuda::std::countr_zero(pipes)) / 8 - skip;
      }
      out.pipes += count;
    }
    if (newline != 0) {
      out.size = base + static_cast<std::uint32_t>(cuda::std::countr_zero(newline)) / 8 - skip;
      out.ended = true;
      return out;
    }
  }
  out.size = readable;
  out.ended = readable == size - begin;  // the text's end, not the limit
  return out;
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

ROWSCAN_SYSTEM_END
}  // namespace rowscan::lineitem
