// SPDX-License-Identifier: Apache-2.0
// rowscan/lineitem/summarize.hpp: the `rowscan lineitem` job, as the host sees it (no Thrust here).
//
// Load, per chunk of whole lines: copy -> find_lines (chunk_by) -> '|' positions (copy_if) + each
//   record's first '|' (lower_bound) -> parse (transform into the column store's tail) -> check (find_if)
// Query, once over the whole store: transform_reduce(zip(suppkey, quantity, cents), below_thresholds).
#pragma once

#include "rowscan/lineitem/cents.hpp"
#include "rowscan/skipped_lines.hpp"

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace rowscan::lineitem {

/// The smallest chunk accepted: room for any row dbgen writes (at most about 170 bytes).
constexpr std::size_t min_chunk_size = 256;
/// The largest chunk: positions inside a chunk are 32-bit.
constexpr std::size_t max_chunk_size = std::size_t{1} << 31;

struct summarize_options {
  std::vector<std::uint64_t> suppkey_below;  ///< the thresholds Z, answered in this order
  std::size_t chunk_size = 0;                ///< bytes of text processed at once; 0: default_chunk_size()
  bool time_stages = false;                  ///< synchronize after every stage so stage_times are exact
  /// Leave bad rows out of the sums and record them in summary::skipped, instead of stopping at the
  /// first. A row longer than the chunk still stops the run.
  bool skip_invalid = false;
  /// Testing aid: chunk-sized device arrays of more than this many bytes fail as on a full device
  /// (context::fail_allocations_above); 0: never.
  std::size_t fail_allocations_above = 0;
};

/// Seconds spent in each stage (the load's split is exact only with time_stages; load and query always are).
struct stage_times {
  double read = 0, copy = 0, find_records = 0, find_fields = 0, parse = 0;
  double load = 0;   ///< the whole load, reading included
  double query = 0;  ///< the transform_reduce(s), columns already in device memory
};

/// SUM(l_quantity * l_extendedprice) over the rows with l_suppkey < suppkey_below.
struct threshold_answer {
  std::uint64_t suppkey_below;
  uint128 sum_cents;
  std::uint64_t rows;
};

struct summary {
  std::vector<threshold_answer> answers;  ///< in the order of summarize_options::suppkey_below
  std::uint64_t bytes = 0;
  std::uint64_t rows = 0;   ///< rows loaded (the valid ones)
  std::uint64_t lines = 0;  ///< lines of the input, skipped ones included
  skipped_lines skipped;    ///< the bad rows left out (skip_invalid)
  std::size_t chunks = 0;
  std::size_t chunk_size = 0;
  stage_times times;
};

/// Chunk size used when none is given: a share of the device system's free memory, within the limits.
std::size_t default_chunk_size();

/// Parses "Z1,Z2,..." (decimal, 0 .. 2^64 - 1, at least one); throws rowscan::error naming the bad item.
std::vector<std::uint64_t> parse_thresholds(std::string const& list);

/// Loads the lineitem.tbl rows on fd into device columns, then answers every threshold in one pass per
/// eight. label names the input in errors. Throws rowscan::input_error at the first bad row (file,
/// 1-based line, byte offset of the faulty field), unless options.skip_invalid. Out of device memory
/// for a chunk, loads it once more in halves, then throws rowscan::device_error.
summary summarize(int fd, std::string const& label, summarize_options const& options);

/// One line per threshold: the sum in dollars with two fractional digits.
std::string format_text(summary const& s);
/// {"rows": N, "bytes": B, "results": [{"suppkey_below": Z, "sum": "123.45", "rows": n}, ...]} and a
/// newline. The sums are strings, exact (a JSON number would be read as a double by most consumers);
/// with_timings adds "load_seconds" and "query_seconds" after "bytes".
std::string format_json(summary const& s, bool with_timings = false);

}  // namespace rowscan::lineitem
