// SPDX-License-Identifier: Apache-2.0
// rowscan/lineitem/explain.hpp: `rowscan lineitem --explain`, compiled for each Thrust system (rowscan/system.hpp).
//
// A small input is one block, folded by a lineitem worker (worker.hpp) whose observer copies each
// stage's device arrays to the host:
//   find_lines (chunk_by) -> count_if + copy_if(is_pipe) -> lower_bound(record starts)
//   -> transform(parse_row_at) into the column store -> find_if(is_bad_row)
//   -> per threshold Z: transform(below_thresholds) (stored here; the query fuses it) -> sums_below
#pragma once

#include "rowscan/lineitem/explained.hpp"
#include "rowscan/system.hpp"

#include <cstdint>
#include <string>
#include <vector>

namespace rowscan::lineitem {
ROWSCAN_SYSTEM_BEGIN

/// Loads text (one chunk; explain::read_small_input keeps it small) and answers the thresholds,
/// keeping every stage's arrays. Throws rowscan::input_error at the first bad row, as summarize() does.
explained_lineitem explain(std::string const& text, std::string const& label, std::vector<std::uint64_t> const& thresholds);

ROWSCAN_SYSTEM_END
}  // namespace rowscan::lineitem
