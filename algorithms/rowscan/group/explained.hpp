// SPDX-License-Identifier: Apache-2.0
// rowscan/group/explained.hpp: what `rowscan group --explain` shows of a small text (compiled once).
#pragma once

#include "rowscan/group/summary.hpp"

#include <cstdint>
#include <vector>

namespace rowscan::group {

/// The answer for one small text, as --explain runs it (one block, one worker): also the arrays of its
/// stages, for printing.
struct explained_group {
  summary answer;
  // Per 32-byte word of the scan (records.hpp): its first position (negative for a misaligned text's
  // first word), its quote and '\n' bits (bit j: byte j), its own interval's parity and records ended
  // for each entry parity with where the latest next one starts, and the exclusive scan's value there
  // for entry parity 0 (records started by its first byte, where the latest starts, the entry parity).
  std::vector<std::int64_t> word_first;
  std::vector<std::uint32_t> word_quotes, word_newlines;
  std::vector<std::uint8_t> own_parity;
  std::vector<std::uint32_t> own_ends[2], own_start[2];
  std::vector<std::uint8_t> entry_parity;
  std::vector<std::uint32_t> records_before, start_before;
  // Per byte, what the word's scanned value implies there.
  std::vector<std::uint8_t> parity;                       ///< per byte: quotes in [0, i], mod 2
  std::vector<std::uint32_t> record_of;                   ///< per byte: 1-based record number
  std::vector<std::uint32_t> starts;                      ///< per byte: where its record starts
  std::vector<std::uint32_t> lines;                       ///< per byte: lines before its record's start
  std::vector<std::uint32_t> begins, ends, record_lines;  ///< per record
  std::vector<std::uint8_t> statuses;                     ///< per record (record_status)
  std::vector<std::uint32_t> key_begin, key_size;         ///< per record and key column
  std::vector<std::int64_t> mantissas;                    ///< per record and value column
  std::vector<std::uint8_t> digits, missing;
};
}  // namespace rowscan::group
