// SPDX-License-Identifier: Apache-2.0
// The lineitem query: thresholds in passes of up to eight, each one fused transform_reduce (query.hpp).
#include "rowscan/lineitem/query.hpp"

#include <algorithm>

namespace rowscan::lineitem {
ROWSCAN_SYSTEM_BEGIN

std::vector<threshold_result> sums_below(column_store const& store, std::vector<std::uint64_t> const& thresholds,
                                         context const& ctx) {
  std::vector<threshold_result> out;
  out.reserve(thresholds.size());
  for (std::size_t first = 0; first < thresholds.size(); first += max_thresholds) {
    std::size_t const count = std::min(max_thresholds, thresholds.size() - first);
    std::uint64_t const* pass = thresholds.data() + first;
    with_narrowest_accumulator(count, [&](auto width) {
      constexpr int K = decltype(width)::value;
      append_answers(sums_below<K>(store, pass, count, ctx), pass, count, out);
    });
  }
  return out;
}

ROWSCAN_SYSTEM_END
}  // namespace rowscan::lineitem
