// SPDX-License-Identifier: Apache-2.0
// rowscan/lineitem/explained.hpp: every stage's arrays of `rowscan lineitem --explain`, as the CLI
// prints them (compiled once; rowscan/lineitem/explain.hpp fills them on one system).
#pragma once

#include "rowscan/explain/arrays.hpp"
#include "rowscan/lineitem/summary.hpp"

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

}  // namespace rowscan::lineitem
