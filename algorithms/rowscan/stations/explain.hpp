// SPDX-License-Identifier: Apache-2.0
// rowscan/stations/explain.hpp: `rowscan stations --explain`, compiled for each Thrust system (rowscan/system.hpp).
//
// A small input is one block, folded by a stations worker (worker.hpp) whose observer copies each
// stage's device arrays to the host. A first block always takes the general path:
//   find_lines (chunk_by) -> transform(parse_record) -> find_if(is_bad_line)
//   -> group_by_name: sort_by_key(key) -> transform_reduce(key_shared_by_two_names) -> reduce_by_key(merge_stats)
//   -> table_from_groups (gather_strings) -> merge_into(running) -> sorted_by_name -> host
// Then a second worker, starting from the table the first one learned, folds the same text again: now
// every station is known, so it takes the fast path (fast_reducer.hpp):
//   for_each_line(store_line_end) -> transform(parse_line_at) -> sort ids -> per-station stats
//   -> merged into the table
#pragma once

#include "rowscan/stations/explained.hpp"
#include "rowscan/system.hpp"

#include <cstdint>
#include <string>
#include <vector>

namespace rowscan::stations {
ROWSCAN_SYSTEM_BEGIN

/// Folds text as one block (explain::read_small_input keeps it small), then again with its stations
/// known, and returns the arrays of both. Throws rowscan::input_error at the first bad line, exactly as
/// summarize() does.
explained_stations explain(std::string const& text, std::string const& label);

ROWSCAN_SYSTEM_END
}  // namespace rowscan::stations
