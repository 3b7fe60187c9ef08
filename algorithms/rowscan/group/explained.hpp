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
