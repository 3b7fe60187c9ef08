// SPDX-License-Identifier: Apache-2.0
// rowscan/stations/lines_by_stretch.hpp: the fast path's find + parse + lookup, a thread per stretch of
// text instead of a scan element per 16-byte word and then a thread per line.
//
//   transform_exclusive_scan(count_line_starts) over stretches  -> first_rows[s]: the lines before
//                                                                  stretch s (and the block's count)
//   for_each(read_lines_starting_in) over stretches              -> ids[first_rows[s] + k], tenths[...]
//
// Stretch s owns the lines that start in bytes [S s, S s + S): line 0 at byte 0, and a line after each
// '\n'. Its count is the '\n' bytes of [S s - 1, S s + S - 1), read a word at a time, so the scan over
// a block's stretches places every line without storing where each ends. Its thread then finds its
// first line after the first '\n' from byte S s - 1 on and reads line after line from its start
// (read_station_line_from_start: a valid line says where the next one starts), looking each name up
// and writing the line's id and reading into the line's own row, until the next line starts past the
// stretch. No two threads write the same row, and no row is left out: a line belongs to the stretch of
// its first byte.
//
// A line the quick read refuses (not valid, not known, or the text's last line without its '\n') is
// parsed again from its end by read_station_line, the rule the whole fast path shares: the text's last
// line is taken there, and anything else gets the sentinel id, which sends the block to the general
// path. A line of more than max_line_bytes gets the sentinel without a search for its end beyond its
// own stretch.
//
// Worked example, S = 8, text "ab;1.0\nc;-2.5\nd;3.0\n" (lines at bytes 0-6, 7-13 and 14-19):
//
//   stretch                 0: [0, 8)            1: [8, 16)      2: [16, 20)
//   '\n' counted in         [0, 7): 1, +1 at 0   [7, 15): 1      [15, 19): 0
//   first_rows              0                    2               3             and 3 after the last
//   lines read              "ab;1.0", "c;-2.5"   "d;3.0"         none
#pragma once

#include "rowscan/system.hpp"

#include "rowscan/aligned_words.hpp"
#include "rowscan/config.hpp"
#include "rowscan/context.hpp"
#include "rowscan/stations/dense_ids.hpp"
#include "rowscan/stations/line_format.hpp"
#include "rowscan/stations/line_from_start.hpp"

#include <thrust/device_vector.h>

#include <cstddef>
#include <cstdint>

namespace rowscan::stations {
ROWSCAN_SYSTEM_BEGIN

/// Bytes of text a thread reads. On a GPU about 37 lines of 1BRC-like text (13.8 bytes a line), so
/// that a warp's lanes even out over many lines and each looks for its first line once per 37. A host
/// worker is one thread that takes the stretches in turn (its own walk, fold_known_lines, is faster).
constexpr std::uint32_t line_stretch_bytes = ROWSCAN_HAS_CUB ? 512 : 65536;

/// The number of stretches of stretch_bytes over a text of `size` bytes.
ROWSCAN_HD inline std::uint32_t stretches_in(std::uint32_t size, std::uint32_t stretch_bytes) {
  return static_cast<std::uint32_t>((std::uint64_t{size} + stretch_bytes - 1) / stretch_bytes);
}

/// The bytes [first, end) of stretch s.
struct stretch_range {
  std::uint32_t first;
  std::uint32_t end;

  ROWSCAN_HD static stretch_range of(std::uint32_t s, std::uint32_t size, std::uint32_t stretch_bytes) {
    std::uint64_t const first = std::uint64_t{s} * stretch_bytes;
    std::uint64_t const end = first + stretch_bytes < size ? first + stretch_bytes : size;
    return {static_cast<std::uint32_t>(first < size ? first : size), static_cast<std::uint32_t>(end)};
  }
};

/// How many lines start in stretch s of text[0, size): 0 for s at or past the last stretch, so that an
/// exclusive scan over one more stretch than the text has ends on the block's line count.
struct count_line_starts {
  char const* text;
  std::uint32_t size;
  std::uint32_t stretch_bytes;

  ROWSCAN_HD std::uint32_t operator()(std::uint32_t s) const {
    stretch_range const r = stretch_range::of(s, size, stretch_bytes);
    if (r.first == r.end) return 0;
    // A line starts at byte 0 and after every '\n' but the text's last byte.
    return static_cast<std::uint32_t>(r.first == 0) + newlines_in(text, r.first == 0 ? 0 : r.first - 1, r.end - 1);
  }
};

/// Writes the id and reading of each line that starts in stretch s to rows [first_rows[s],
/// first_rows[s + 1]) of ids and tenths.
struct read_lines_starting_in {
  char const* text;  ///< followed by text_padding_bytes readable bytes
  std::uint32_t size;
  std::uint32_t stretch_bytes;
  dictionary_view dictionary;
  std::uint32_t const* first_rows;
  station_id* ids;
  std::int16_t* tenths;

  ROWSCAN_HD void operator()(std::uint32_t s) const {
    stretch_range const r = stretch_range::of(s, size, stretch_bytes);
    std::uint32_t row = first_rows[s];
    std::uint32_t const rows_end = first_rows[s + 1];
    // The first line starts after the first '\n' from the byte before the stretch on (at 0, at 0).
    std::uint32_t begin = r.first == 0 ? 0 : next_newline(text, r.first - 1, r.end) + 1;
    for (; begin < r.end && row < rows_end; ++row) {
      station_line line = read_station_line_from_start(text, begin, size, dictionary);
      if (line.id == needs_general_path) line = read_refused(begin, r.end);
      ids[row] = line.id;
      tenths[row] = line.tenths;
      begin = line.next;
    }
  }

  /// A line the quick read refused, read again from its end: the text's unterminated last line is
  /// taken; anything else gets needs_general_path, and the walk goes on after the line's '\n' so that
  /// every row of the stretch is written.
  ROWSCAN_HD station_line read_refused(std::uint32_t begin, std::uint32_t stretch_end) const {
    std::uint32_t const limit = size - begin < max_line_bytes ? size : begin + max_line_bytes;
    std::uint32_t const newline = next_newline(text, begin, limit);
    if (newline == limit && limit < size)  // longer than any valid line: on to the next line in the stretch
      return {needs_general_path, 0, next_newline(text, limit, stretch_end) + 1};
    station_reading const reading = read_station_line(text, begin, newline < limit ? newline + 1 : size, dictionary);
    return {reading.id, reading.tenths, newline + 1};
  }
};

/// The composition above over text[0, size) (device memory, followed by text_padding_bytes readable
/// bytes): returns the number of lines, and if it is at most `capacity` writes line i's id and reading
/// to ids[i] and tenths[i]. first_rows is grown to one entry per stretch and one more.
std::size_t read_lines_by_stretch(char const* text, std::size_t size, dictionary_view const& dictionary,
                                  std::uint32_t stretch_bytes, thrust::device_vector<std::uint32_t>& first_rows,
                                  station_id* ids, std::int16_t* tenths, std::size_t capacity, context const& ctx);

ROWSCAN_SYSTEM_END
}  // namespace rowscan::stations
