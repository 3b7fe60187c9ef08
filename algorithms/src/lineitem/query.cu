// SPDX-License-Identifier: Apache-2.0
// The lineitem query: thresholds in passes of up to eight, each one fused transform_reduce (query.hpp).
#include "rowscan/lineitem/query.hpp"

#include <algorithm>

namespace rowscan::lineitem {
ROWSCAN_SYSTEM_BEGIN
namespace {

/// Answers thresholds[0, count) (count <= K) with one transform_reduce and appends them to out.
template <int K>
void append_pass(column_store const& store, std::uint64_t const* thresholds, std::size_t count,
                 std::vector<threshold_result>& out, context const& ctx) {
  threshold_sums<K> const sums = sums_below<K>(store, thresholds, count, ctx);
  for (std::size_t k = 0; k < count; ++k) out.push_back({thresholds[k], sums.sum[k], sums.rows[k]});
}

}  // namespace

std::vector<threshold_result> sums_below(column_store const& store, std::vector<std::uint64_t> const& thresholds,
                                         context const& ctx) {
  std::vector<threshold_result> out;
  out.reserve(thresholds.size());
  for (std::size_t first = 0; first < thresholds.size(); first += max_thresholds) {
    std::size_t const count = std::min(max_thresholds, thresholds.size() - first);
    std::uint64_t const* pass = thresholds.data() + first;
    // The narrowest accumulator that fits: the common single threshold reduces 24 bytes per row, not 192.
    if (count == 1) {
      append_pass<1>(store, pass, count, out, ctx);
    } else if (count == 2) {
      append_pass<2>(store, pass, count, out, ctx);
    } else if (count <= 4) {
      append_pass<4>(store, pass, count, out, ctx);
    } else {
      append_pass<8>(store, pass, count, out, ctx);
    }
  }
  return out;
}

ROWSCAN_SYSTEM_END
}  // namespace rowscan::lineitem
