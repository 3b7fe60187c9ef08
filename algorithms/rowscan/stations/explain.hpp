// SPDX-License-Identifier: Apache-2.0
// rowscan/stations/explain.hpp: `rowscan stations --explain`, as the host sees it (no Thrust here).
//
// A small input is one chunk, and the first chunk always takes the general path (accumulator.hpp):
//   find_lines (chunk_by) -> transform(parse_record) -> find_if(is_bad_line)
//   -> group_by_name: sort_by_key(key) -> transform_reduce(key_shared_by_two_names) -> reduce_by_key(merge_stats)
//   -> table_from_groups (gather_strings) -> merge_into(running) -> sorted_by_name -> host
// explain() runs exactly these library calls and copies each one's device arrays to the host.
#pragma once

#include "rowscan/explain/arrays.hpp"
#include "rowscan/stations/stats.hpp"
#include "rowscan/stations/summarize.hpp"

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
};

/// Runs the general path on text (one chunk; explain::read_small_input keeps it small) and returns
/// its arrays. Throws rowscan::input_error at the first bad line, exactly as summarize() does.
explained_stations explain(std::string const& text, std::string const& label);

}  // namespace rowscan::stations
