// SPDX-License-Identifier: Apache-2.0
// rowscan/lineitem/format.hpp: the text of `rowscan lineitem`: thresholds in, sums out (no Thrust here).
#pragma once

#include "rowscan/lineitem/summary.hpp"

#include <cstdint>
#include <string>
#include <vector>

namespace rowscan::lineitem {

/// Parses "Z1,Z2,..." (decimal, 0 .. 2^64 - 1, at least one); throws rowscan::error naming the bad item.
std::vector<std::uint64_t> parse_thresholds(std::string const& list);

/// One line per threshold: the sum in dollars with two fractional digits.
std::string format_text(summary const& s);
/// {"rows": N, "bytes": B, "results": [{"suppkey_below": Z, "sum": "123.45", "rows": n}, ...]} and a
/// newline. The sums are strings, exact (a JSON number would be read as a double by most consumers);
/// with_timings adds "load_seconds", "query_seconds" and "queried_rows" (the rows the query's seconds
/// cover) after "bytes", then each worker's share.
std::string format_json(summary const& s, bool with_timings = false);

}  // namespace rowscan::lineitem
