// SPDX-License-Identifier: Apache-2.0
// rowscan/lineitem/explain.hpp: `rowscan lineitem --explain`, as the host sees it (no Thrust here).
//
// A small input is one block, folded by a lineitem worker (worker.hpp) whose observer copies each
// stage's device arrays to the host:
//   find_lines (chunk_by) -> count_if + copy_if(is_pipe) -> lower_bound(record starts)
//   -> transform(parse_row_at) into the column store -> find_if(is_bad_row)
//   -> per threshold Z: transform(below_thresholds) (stored here; the query fuses it) -> sums_below
#pragma once

#include "rowscan/explain/arrays.hpp"
#include "rowscan/lineitem/summarize.hpp"

#include <cstdint>
#include <string>
#include <vector>

namespace rowscan::lineitem {

/// below_thresholds<1> for one Z, per row: the filter flag and the product it adds to the sum.
struct explained_filter {
  std::uint64_t suppkey_below;
  std::vector<std::uint8_t> kept;       ///< 1 where l_suppkey < Z
  std::vector<std::uint64_t> products;  ///< quantity * cents where kept, else 0
};

/// Every stage's arrays of one chunk, in the order the pipeline computes them.
struct explained_lineitem {
  std::string text;
  explain::line_scan lines;              ///< find_lines
  std::vector<std::uint32_t> pipes;      ///< copy_if(is_pipe): every '|' position of the chunk
  std::vector<std::uint32_t> first_pipe; ///< lower_bound: record r's first '|' in pipes (rows + 1 entries)
  std::vector<std::uint32_t> suppkey;    ///< transform(parse_row_at): the column store
  std::vector<std::uint32_t> quantity;
  std::vector<std::uint32_t> price_cents;
  std::vector<explained_filter> filters;  ///< one per threshold, in the order given
  summary answer;                         ///< sums_below: what `rowscan lineitem` prints (rows, bytes, answers)
};

/// Loads text (one chunk; explain::read_small_input keeps it small) and answers the thresholds,
/// keeping every stage's arrays. Throws rowscan::input_error at the first bad row, as summarize() does.
explained_lineitem explain(std::string const& text, std::string const& label, std::vector<std::uint64_t> const& thresholds);

}  // namespace rowscan::lineitem
