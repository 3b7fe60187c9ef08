// SPDX-License-Identifier: Apache-2.0
// rowscan/stations/explain.hpp: `rowscan stations --explain`, as the host sees it (no Thrust here).
//
// A small input is one block, folded by a stations worker (worker.hpp) whose observer copies each
// stage's device arrays to the host. A first block always takes the general path:
//   find_lines (chunk_by) -> transform(parse_record) -> find_if(is_bad_line)
//   -> group_by_name: sort_by_key(key) -> transform_reduce(key_shared_by_two_names) -> reduce_by_key(merge_stats)
//   -> table_from_groups (gather_strings) -> merge_into(running) -> sorted_by_name -> host
// Then a second worker, starting from the table the first one learned, folds the same text again: now
// every station is known, so it takes the fast path (fast_reducer.hpp):
//   for_each_line(parse_to_station_id) -> sort ids -> per-station stats -> merged into the table
#pragma once

#include "rowscan/explain/arrays.hpp"
#include "rowscan/stations/answer.hpp"
#include "rowscan/stations/stats.hpp"

#include <cstdint>
#include <string>
#include <vector>

namespace rowscan::stations {

/// Every stage's arrays of one chunk, in the order the pipeline computes them.
struct explained_stations {
  std::string text;
  explain::line_scan lines;  ///< find_lines

  // transform(parse_record), one entry per record
  std::vector<std::uint64_t> keys;  ///< 64-bit hash of the name
  std::vector<std::int16_t> tenths;
  std::vector<std::uint8_t> name_sizes;

  // group_by_name
  std::vector<std::uint64_t> sorted_keys;  ///< the keys after sort_by_key
  bool names_compared = false;             ///< some key was shared by two names (the exact fallback ran)
  std::vector<std::uint64_t> group_keys;   ///< reduce_by_key: each group's first key ...
  std::vector<std::uint32_t> group_rows;   ///< ... and row (its representative)
  std::vector<station_stats> group_stats;  ///< merge_stats over the group's readings

  std::vector<std::uint64_t> running_keys;  ///< the running table after merge_into, in key order ...
  std::vector<station_summary> running;     ///< ... its stats and gathered names
  std::vector<station_summary> answer;      ///< sorted_by_name, on the host

  // The same text as a second block, its stations known: the fast path
  bool fast_path = false;                  ///< the second block took it (it always should)
  std::vector<std::uint16_t> ids;          ///< for_each_line(parse_to_station_id): each line's station id ...
  std::vector<std::int16_t> id_tenths;     ///< ... and tenths
  std::vector<std::uint16_t> sorted_ids;   ///< sorted by id (a 16-bit sort)
  std::vector<std::int16_t> sorted_tenths;
  std::vector<std::uint16_t> reduced_ids;  ///< each station present in the block ...
  std::vector<station_stats> reduced;      ///< ... and the block's summary of it
  std::vector<station_summary> after_fast; ///< the table after merging them, in key order
};

/// Folds text as one block (explain::read_small_input keeps it small), then again with its stations
/// known, and returns the arrays of both. Throws rowscan::input_error at the first bad line, exactly as
/// summarize() does.
explained_stations explain(std::string const& text, std::string const& label);

}  // namespace rowscan::stations
