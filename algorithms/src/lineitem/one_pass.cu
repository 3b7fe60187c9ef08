// SPDX-License-Identifier: Apache-2.0
// A lineitem block's sums in one transform_reduce over its text (rowscan/lineitem/one_pass.hpp).
#include "rowscan/lineitem/one_pass.hpp"

#include "rowscan/error.hpp"

#include <thrust/iterator/counting_iterator.h>
#include <thrust/transform_reduce.h>

namespace rowscan::lineitem {
ROWSCAN_SYSTEM_BEGIN
namespace {

/// The pass with an accumulator of K thresholds (count <= K; the rest padded with 0, which no key is below).
template <int K>
std::optional<one_pass_result> pass(char const* text, std::size_t size, std::vector<std::uint64_t> const& thresholds,
                                    context const& ctx, std::uint32_t stretch_bytes) {
  sum_rows_starting_in<K> rows{text, static_cast<std::uint32_t>(size), stretch_bytes, {}};
  for (std::size_t k = 0; k < thresholds.size(); ++k) rows.query.below[k] = thresholds[k];
  auto const stretches = static_cast<std::uint32_t>((size + stretch_bytes - 1) / stretch_bytes);
  auto const first = thrust::counting_iterator<std::uint32_t>(0);
  one_pass_sums<K> const all =
      thrust::transform_reduce(ctx.policy(), first, first + stretches, rows, one_pass_sums<K>{}, one_pass_plus<K>{});
  if (all.untaken != 0) return std::nullopt;
  one_pass_result out;
  out.rows = all.rows;
  for (std::size_t k = 0; k < thresholds.size(); ++k) {
    out.sums.push_back({thresholds[k], all.sums.sum[k], all.sums.rows[k]});
  }
  return out;
}

}  // namespace

std::optional<one_pass_result> sums_in_one_pass(char const* text, std::size_t size,
                                                std::vector<std::uint64_t> const& thresholds, context const& ctx,
                                                std::uint32_t stretch_bytes) {
  detail::check_text_size(size);
  ROWSCAN_EXPECTS(stretch_bytes > 0, "stretches of 0 bytes");
  // The narrowest accumulator that fits, as sums_below: one threshold reduces 40 bytes a stretch, not 208.
  switch (thresholds.size()) {
    case 1: return pass<1>(text, size, thresholds, ctx, stretch_bytes);
    case 2: return pass<2>(text, size, thresholds, ctx, stretch_bytes);
    case 3:
    case 4: return pass<4>(text, size, thresholds, ctx, stretch_bytes);
    case 5:
    case 6:
    case 7:
    case 8: return pass<8>(text, size, thresholds, ctx, stretch_bytes);
    default: return std::nullopt;
  }
}

ROWSCAN_SYSTEM_END
}  // namespace rowscan::lineitem
