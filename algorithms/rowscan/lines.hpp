// SPDX-License-Identifier: Apache-2.0
// rowscan/lines.hpp: chunk_by(same_line) made fast: one scan element per 16-byte word of text.
//
//   transform(word_lines) -> exclusive_scan(line_interval_plus) -> emit_word_lines(sink)
//
// This is the interval scan of chunk_by.hpp with two changes that decide its speed (see
// docs/performance.md): the element is a 16-byte word, not a byte, and the interval is packed in
// 8 bytes. The interval {flag, index, start, end} of chunk_by.hpp loses nothing in the packing:
//   index -> lines  (lines ended so far, i.e. '\n' bytes; the next line's number)
//   start -> start  (where the line after the latest '\n' starts)
//   flag  == (lines > 0), and end is the word's end, known from the word's position.
// The combine is the same monoid: lines add, and the right run's start wins if it holds a '\n'.
//
// Worked example, text "ab\ncd\ne\nfgh" read as words of 4 bytes (16 in the code):
//
//   word               0: "ab\nc"   1: "d\ne\n"   2: "fgh"
//   word_lines         {1, 3}       {2, 8}        {0, -}
//   exclusive scan     {0, 0}       {1, 3}        {3, 8}
//   emit_word_lines    line 0 [0,3) line 1 [3,6)  line 3 [8,11) (no '\n' at the end: the last word
//                                   line 2 [6,8)                 emits the unterminated line)
//
// The scan's output is never stored: a tabulate_output_iterator hands each word its exclusive
// interval, and the word emits the lines that end in it to a sink (write a record, or parse it).
#pragma once

#include "rowscan/config.hpp"
#include "rowscan/context.hpp"
#include "rowscan/error.hpp"

#include <cuda/std/bit>
#include <thrust/copy.h>
#include <thrust/fill.h>
#include <thrust/functional.h>
#include <thrust/iterator/counting_iterator.h>
#include <thrust/iterator/tabulate_output_iterator.h>
#include <thrust/iterator/transform_iterator.h>
#include <thrust/scan.h>
#include <thrust/transform_reduce.h>

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <limits>
#include <string>
#include <string_view>

namespace rowscan {
ROWSCAN_SYSTEM_BEGIN

/// Bytes of text summarized by one scan element.
constexpr std::size_t text_word_bytes = 16;

/// chunk_by's interval for a run of words, in 8 bytes (see the mapping above).
struct line_interval {
  std::uint32_t lines;  ///< '\n' bytes in the run
  std::uint32_t start;  ///< position after the run's last '\n' (meaningless when lines == 0)
};

/// The associative, non-commutative combine of a left run and the run right after it.
struct line_interval_plus {
  ROWSCAN_HD line_interval operator()(line_interval const& left, line_interval const& right) const {
    return {left.lines + right.lines, right.lines != 0 ? right.start : left.start};
  }
};

/// 0x80 in every byte of x that equals the byte in every lane of `pattern`, 0 elsewhere (exact: no
/// false positives, unlike the shorter has-zero-byte test).
ROWSCAN_HD inline std::uint64_t matching_bytes(std::uint64_t x, std::uint64_t pattern) {
  std::uint64_t const low7 = 0x7f7f7f7f7f7f7f7full;
  std::uint64_t const y = x ^ pattern;  // zero bytes where x matches
  return ~(((y & low7) + low7) | y | low7);
}

/// Bit j set where byte j of the 8 little-endian bytes in x is '\n'.
ROWSCAN_HD inline std::uint32_t newline_bits(std::uint64_t x) {
  std::uint64_t const high = matching_bytes(x, 0x0a0a0a0a0a0a0a0aull) >> 7;  // 0x01 per matching byte
  return static_cast<std::uint32_t>((high * 0x0102040810204080ull) >> 56);   // gather the 8 flags
}

/// One 16-byte word of a text: which of its bytes are '\n'. Words are aligned to 16 bytes in memory;
/// the first and last may be partial, and their bytes outside the text are never read.
struct text_words {
  char const* text;
  std::uint32_t size;
  std::uint32_t head;  ///< bytes of the first word before text[0] (text's misalignment)

  ROWSCAN_HD static std::uint32_t misalignment(char const* text) {
    return static_cast<std::uint32_t>(reinterpret_cast<std::uintptr_t>(text) % text_word_bytes);
  }
  text_words(char const* t, std::uint32_t n) : text(t), size(n), head(misalignment(t)) {}

  std::size_t count() const { return size == 0 ? 0 : (std::size_t{head} + size + text_word_bytes - 1) / text_word_bytes; }

  /// Position in the text of byte 0 of word w (negative for the first word of a misaligned text).
  ROWSCAN_HD std::int64_t first_position(std::uint32_t w) const {
    return static_cast<std::int64_t>(w) * static_cast<std::int64_t>(text_word_bytes) - head;
  }

  /// Bit j set where byte j of word w is a '\n' of the text.
  ROWSCAN_HD std::uint32_t newline_mask(std::uint32_t w) const {
    std::int64_t const first = first_position(w);
    std::uint64_t lanes[2];
    if (first >= 0 && first + static_cast<std::int64_t>(text_word_bytes) <= size) {
#if ROWSCAN_HAS_CUB
      // A whole word, 16-byte aligned: one vector load.
      ulonglong2 const v = *reinterpret_cast<ulonglong2 const*>(text + first);
      lanes[0] = v.x;
      lanes[1] = v.y;
#else
      std::memcpy(lanes, text + first, text_word_bytes);
#endif
      return newline_bits(lanes[0]) | (newline_bits(lanes[1]) << 8);
    }
    std::uint32_t mask = 0;  // a partial word: only the text's own bytes, one at a time
    for (std::uint32_t j = 0; j < text_word_bytes; ++j) {
      std::int64_t const p = first + j;
      if (p >= 0 && p < size && text[p] == '\n') mask |= 1u << j;
    }
    return mask;
  }
};

/// The interval of word w alone (the scan's input, computed on the fly by a transform_iterator).
struct word_lines {
  text_words words;
  ROWSCAN_HD line_interval operator()(std::uint32_t w) const {
    std::uint32_t const mask = words.newline_mask(w);
    if (mask == 0) return {0, 0};
    auto const last = static_cast<std::uint32_t>(31 - cuda::std::countl_zero(mask));
    return {static_cast<std::uint32_t>(cuda::std::popcount(mask)),
            static_cast<std::uint32_t>(words.first_position(w) + last + 1)};
  }
};

/// Lines in word w, counting the unterminated last line of the text in the last word.
struct lines_in_word {
  text_words words;
  std::uint32_t last_word;
  ROWSCAN_HD std::uint32_t operator()(std::uint32_t w) const {
    auto n = static_cast<std::uint32_t>(cuda::std::popcount(words.newline_mask(w)));
    if (w == last_word && words.text[words.size - 1] != '\n') ++n;
    return n;
  }
};

/// Receives word w's exclusive interval (everything before the word) and calls sink(line, begin, end)
/// for each line that ends in the word; [begin, end) includes the line's '\n'. The last word also
/// emits the text's unterminated last line and stores the number of lines in *line_count.
template <class Sink>
struct emit_word_lines {
  text_words words;
  std::uint32_t last_word;
  Sink sink;
  std::uint32_t* line_count;

  ROWSCAN_HD void operator()(std::uint32_t w, line_interval before) const {
    std::uint32_t mask = words.newline_mask(w);
    std::int64_t const first = words.first_position(w);
    while (mask != 0) {
      auto const j = static_cast<std::uint32_t>(cuda::std::countr_zero(mask));
      mask &= mask - 1;
      auto const end = static_cast<std::uint32_t>(first + j + 1);
      sink(before.lines, before.start, end);
      before = {before.lines + 1, end};
    }
    if (w == last_word) {
      if (before.start < words.size) {
        sink(before.lines, before.start, words.size);
        ++before.lines;
      }
      if (line_count != nullptr) *line_count = before.lines;
    }
  }
};

namespace detail {
inline void check_text_size(std::size_t n) {
  if (n > std::numeric_limits<std::uint32_t>::max() - text_word_bytes) {
    throw error("a text chunk of " + std::to_string(n) + " bytes does not fit the 32-bit positions of its lines");
  }
}

/// Each word's own interval, word_lines(w), as the scan reads it.
inline auto word_intervals(text_words const& words) {
  return thrust::make_transform_iterator(thrust::counting_iterator<std::uint32_t>(0), word_lines{words});
}

/// The exclusive scan of the words' intervals: transform(word_lines) -> exclusive_scan(line_interval_plus).
template <class OutputIt>
void scan_word_intervals(text_words const& words, std::uint32_t n, OutputIt out, context const& ctx) {
  auto const intervals = word_intervals(words);
  thrust::exclusive_scan(ctx.policy(), intervals, intervals + n, out, line_interval{0, 0}, line_interval_plus{});
}
}  // namespace detail

/// Calls sink(line, begin, end) once for every line of text[0, size) (device memory), in parallel and
/// in no particular order; line numbers count from 0 and [begin, end) includes the '\n'. The last line
/// may lack its '\n'; a text ending in '\n' has no empty last line. Unless line_count is null,
/// *line_count (device memory) receives the number of lines. One exclusive_scan: nothing but the sink's output is written.
template <class Sink>
void for_each_line(char const* text, std::size_t size, Sink sink, std::uint32_t* line_count, context const& ctx) {
  detail::check_text_size(size);
  text_words const words(text, static_cast<std::uint32_t>(size));
  auto const n = static_cast<std::uint32_t>(words.count());
  if (n == 0) {
    if (line_count != nullptr) thrust::fill_n(ctx.policy(), line_count, 1, 0u);
    return;
  }
  auto emit = thrust::make_tabulate_output_iterator(emit_word_lines<Sink>{words, n - 1, sink, line_count});
  detail::scan_word_intervals(words, n, emit, ctx);
}

/// How far a host worker's walk over a block's lines went (fast_reducer::fold_known_lines).
struct lines_taken {
  std::size_t lines = 0;
  std::size_t bytes = 0;  ///< where the first line it refused starts; the text's size if it took all
};

/// Where the first line that ends at or after text[at - 1] ends: `at` rounded up to whole lines (size
/// if no '\n' follows). Host memory.
inline std::size_t whole_lines_through(char const* text, std::size_t size, std::size_t at) {
  if (at == 0 || at >= size) return at == 0 ? 0 : size;
  std::size_t const newline = std::string_view(text, size).find('\n', at - 1);
  return newline == std::string_view::npos ? size : newline + 1;
}

/// The scan of for_each_line with its input and output stored (for `rowscan --explain`, which prints
/// them): own[w] = word_lines(w), scanned[w] = the exclusive interval emit_word_lines receives. Both
/// hold word_count(text, size) elements; word w starts at text position w * text_word_bytes - head.
inline void scan_line_intervals(char const* text, std::size_t size, line_interval* own, line_interval* scanned,
                                context const& ctx) {
  detail::check_text_size(size);
  text_words const words(text, static_cast<std::uint32_t>(size));
  auto const n = static_cast<std::uint32_t>(words.count());
  auto const intervals = detail::word_intervals(words);
  thrust::copy(ctx.policy(), intervals, intervals + n, own);
  detail::scan_word_intervals(words, n, scanned, ctx);
}

/// Scan elements (16-byte words) of text[0, size), counting the partial first and last words.
inline std::size_t word_count(char const* text, std::size_t size) {
  detail::check_text_size(size);
  return text_words(text, static_cast<std::uint32_t>(size)).count();
}

/// The number of lines for_each_line would emit: a transform_reduce of lines_in_word.
inline std::size_t count_lines(char const* text, std::size_t size, context const& ctx) {
  detail::check_text_size(size);
  text_words const words(text, static_cast<std::uint32_t>(size));
  auto const n = static_cast<std::uint32_t>(words.count());
  if (n == 0) return 0;
  return thrust::transform_reduce(ctx.policy(), thrust::counting_iterator<std::uint32_t>(0),
                                  thrust::counting_iterator<std::uint32_t>(n), lines_in_word{words, n - 1},
                                  std::size_t{0}, thrust::plus<std::size_t>{});
}

ROWSCAN_SYSTEM_END
}  // namespace rowscan
