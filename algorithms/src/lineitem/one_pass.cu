// SPDX-License-Identifier: Apache-2.0
// A lineitem block's sums in one transform_reduce over its text (rowscan/lineitem/one_pass.hpp).
#include "rowscan/lineitem/one_pass.hpp"

#include "rowscan/error.hpp"

#include <thrust/iterator/counting_iterator.h>
#include <thrust/transform_reduce.h>

namespace rowscan::lineitem {
ROWSCAN_SYSTEM_BEGIN
namespace {

/// The pass with an accumulator of K thresholds (thresholds.size() <= K).
template <int K>
std::optional<one_pass_result> pass(char const* text, std::size_t size, std::vector<std::uint64_t> const& thresholds,
                                    context const& ctx, std::uint32_t stretch_bytes) {
  sum_rows_starting_in<K> const rows{text, static_cast<std::uint32_t>(size), stretch_bytes,
                                     below_thresholds<K>::of(thresholds.data(), thresholds.size())};
  auto const stretches = static_cast<std::uint32_t>((size + stretch_bytes - 1) / stretch_bytes);
  auto const first = thrust::counting_iterator<std::uint32_t>(0);
  one_pass_sums<K> const all =
      thrust::transform_reduce(ctx.policy(), first, first + stretches, rows, one_pass_sums<K>{}, one_pass_plus<K>{});
  if (all.untaken != 0) return std::nullopt;
  one_pass_result out;
  out.rows = all.rows;
  append_answers(all.sums, thresholds.data(), thresholds.size(), out.sums);
  return out;
}

}  // namespace

std::optional<one_pass_result> sums_in_one_pass(char const* text, std::size_t size,
                                                std::vector<std::uint64_t> const& thresholds, context const& ctx,
                                                std::uint32_t stretch_bytes) {
  detail::check_text_size(size);
  ROWSCAN_EXPECTS(stretch_bytes > 0, "stretches of 0 bytes");
  if (thresholds.empty() || thresholds.size() > max_thresholds) return std::nullopt;
  return with_narrowest_accumulator(thresholds.size(), [&](auto width) {
    return pass<decltype(width)::value>(text, size, thresholds, ctx, stretch_bytes);
  });
}

ROWSCAN_SYSTEM_END
}  // namespace rowscan::lineitem
