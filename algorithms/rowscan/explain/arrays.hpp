// SPDX-License-Identifier: Apache-2.0
// rowscan/explain/arrays.hpp: what `rowscan stations|lineitem --explain` share, as the host sees it (no
// Thrust here): the size limit, reading a small input, and the arrays of the line-finding stage.
//
// --explain runs the real composition on one chunk and copies each stage's device arrays to the host,
// so that they can be printed. Every array is printed, so only a small input stays readable.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace rowscan::explain {

/// The largest input --explain takes: 4 KiB and 64 lines (a 16-byte word per row of its byte grid).
constexpr std::size_t max_bytes = 4096;
constexpr std::size_t max_lines = 64;

/// Reads the input on fd to its end. Throws rowscan::error ("LABEL: --explain takes at most ...")
/// when it holds more than max_bytes bytes or more than max_lines lines.
std::string read_small_input(int fd, std::string const& label);

/// lines.hpp's line_interval: '\n' bytes in a run of words, and where the line after the last one starts.
struct interval {
  std::uint32_t lines;
  std::uint32_t start;  ///< meaningless when lines == 0
};

/// One scan element of find_lines: a 16-byte word of the text.
struct word {
  std::int64_t first_position;  ///< text position of the word's byte 0 (negative in a misaligned first word)
  interval own;                 ///< word_lines: the word's own interval (the scan's input)
  interval scanned;             ///< the exclusive scan's output: the interval of every word before it
};

/// A record: text positions [begin, end), its '\n' included.
struct range {
  std::uint32_t begin;
  std::uint32_t end;
};

/// find_lines = chunk_by(same_line) of a text, stage by stage.
struct line_scan {
  std::vector<std::uint8_t> starts_record;  ///< per byte: 1 where a record starts (chunk_by's starts_chunk)
  std::vector<word> words;                  ///< per word: transform(word_lines) -> exclusive_scan(line_interval_plus)
  std::vector<range> records;               ///< what emit_word_lines stores for each line
};

}  // namespace rowscan::explain
