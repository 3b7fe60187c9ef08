// rowscan/lineitem/format.hpp: the text of `rowscan lineitem`: thresholds in, sums out (no Thrust here).
#pragma once

#include "rowscan/lineitem/summarize.hpp"

#include <cstdint>
#include <string>
#include <vector>

namespace rowscan::lineitem {

/// Parses "Z1,Z2,..." (decimal, 0 .. 2^64 - 1, at least one); throws rowscan::error naming the bad item.
std::vector<std::uint64_t> parse_thresholds(std::string const& list);

/// One line per threshold: the sum in dollars with two fractional digits.
std::string format_text(summary const& s);
/// {"rows": N, "bytes": B, "load_seconds": x, "query_seconds": y, "results": [{"suppkey_below": Z,
/// "sum": 123.45, "rows": n}, ...]} and a newline; the sums are exact JSON numbers.
std::string format_json(summary const& s);

}  // namespace rowscan::lineitem
