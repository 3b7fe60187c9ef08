// SPDX-License-Identifier: Apache-2.0
// rowscan/stations/explained.hpp: every stage's arrays of `rowscan stations --explain`, as the CLI
// prints them (compiled once; rowscan/stations/explain.hpp fills them on one system).
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
  std::vector<std::uint16_t> ids;          ///< transform(parse_line_at): each line's station id ...
  std::vector<std::int16_t> id_tenths;     ///< ... and tenths
  std::vector<std::uint16_t> sorted_ids;   ///< sorted by id (a 16-bit sort)
  std::vector<std::int16_t> sorted_tenths;
  std::vector<std::uint16_t> reduced_ids;  ///< each station present in the block ...
  std::vector<station_stats> reduced;      ///< ... and the block's summary of it
  std::vector<station_summary> after_fast; ///< the table after merging them, in key order
};

}  // namespace rowscan::stations
