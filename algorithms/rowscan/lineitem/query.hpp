// SPDX-License-Identifier: Apache-2.0
// rowscan/lineitem/query.hpp: SELECT SUM(l_quantity * l_extendedprice) FROM lineitem WHERE l_suppkey < Z,
// for up to max_thresholds values of Z at once, as one fused transform_reduce over the column store.
//
//   zip(suppkey, quantity, price_cents) -> transform(below_thresholds<K>) -> reduce(threshold_sums_plus<K>)
//
// The transform never materializes: each row becomes K (sum, count) pairs in registers and the reduce
// adds them up, so the query reads each column once, whatever K.
//
// Why nothing can overflow: quantity and cents are both below 2^32 (row_format.hpp), so each product is
// below 2^64 and exact in uint64. A sum of n such products is below n * 2^64, which fits 128 bits for
// every n < 2^64; a row count is a size_t, so no input the store can hold reaches that.
#pragma once

#include "rowscan/system.hpp"

#include "rowscan/context.hpp"
#include "rowscan/lineitem/cents.hpp"
#include "rowscan/lineitem/columns.hpp"

#include <thrust/iterator/zip_iterator.h>
#include <thrust/transform.h>
#include <thrust/transform_reduce.h>
#include <thrust/tuple.h>

#include <cstddef>
#include <cstdint>
#include <type_traits>
#include <vector>

namespace rowscan::lineitem {
ROWSCAN_SYSTEM_BEGIN

/// The most thresholds one pass answers; more are answered in further passes of this many.
constexpr std::size_t max_thresholds = 8;

/// The accumulator: for each threshold, the sum of quantity * cents and the number of rows it matched.
template <int K>
struct threshold_sums {
  uint128 sum[K];
  std::uint64_t rows[K];
};

/// Elementwise addition of two accumulators: associative and commutative, as thrust::reduce requires.
template <int K>
struct threshold_sums_plus {
  ROWSCAN_HD threshold_sums<K> operator()(threshold_sums<K> const& a, threshold_sums<K> const& b) const {
    threshold_sums<K> out;
    for (int k = 0; k < K; ++k) {
      out.sum[k] = a.sum[k] + b.sum[k];
      out.rows[k] = a.rows[k] + b.rows[k];
    }
    return out;
  }
};

/// The predicate and the product of one row: for each k, quantity * cents if suppkey < below[k], else 0.
template <int K>
struct below_thresholds {
  std::uint64_t below[K];
  ROWSCAN_HD threshold_sums<K> operator()(thrust::tuple<std::uint32_t, std::uint32_t, std::uint32_t> const& row) const {
    std::uint64_t const key = thrust::get<0>(row);
    std::uint64_t const product = static_cast<std::uint64_t>(thrust::get<1>(row)) * thrust::get<2>(row);  // < 2^64
    threshold_sums<K> out;
    for (int k = 0; k < K; ++k) {
      bool const match = key < below[k];
      out.sum[k] = match ? product : 0;
      out.rows[k] = match ? 1 : 0;
    }
    return out;
  }

  /// The predicate for thresholds[0, count) (count <= K); the ones beyond count are 0, which no key is below.
  static below_thresholds of(std::uint64_t const* thresholds, std::size_t count) {
    below_thresholds out{};
    for (std::size_t k = 0; k < count && k < static_cast<std::size_t>(K); ++k) out.below[k] = thresholds[k];
    return out;
  }
};

/// The answer for one threshold.
struct threshold_result {
  std::uint64_t suppkey_below;
  uint128 sum_cents;
  std::uint64_t rows;  ///< rows with l_suppkey < suppkey_below
};

/// The rows the query reads: zip(suppkey, quantity, price_cents), 12 bytes a row.
inline auto query_rows(column_store const& store) {
  return thrust::make_zip_iterator(
      thrust::make_tuple(store.suppkey.begin(), store.quantity.begin(), store.price_cents.begin()));
}

/// One transform_reduce over the K = 1, 2, 4 or 8 columns of the zip; thresholds beyond count are
/// padded with 0, which no key is below.
// [docs:fused-query]
template <int K>
threshold_sums<K> sums_below(column_store const& store, std::uint64_t const* thresholds, std::size_t count,
                             context const& ctx) {
  auto const predicate = below_thresholds<K>::of(thresholds, count);
  auto const rows = query_rows(store);
  threshold_sums<K> const zero{};
  return thrust::transform_reduce(ctx.policy(), rows, rows + store.size(), predicate, zero,
                                  threshold_sums_plus<K>{});
}
// [docs:end]

/// Appends the answers for thresholds[0, count) (count <= K) from their accumulator, in that order.
template <int K>
void append_answers(threshold_sums<K> const& sums, std::uint64_t const* thresholds, std::size_t count,
                    std::vector<threshold_result>& out) {
  for (std::size_t k = 0; k < count; ++k) out.push_back({thresholds[k], sums.sum[k], sums.rows[k]});
}

/// Calls f(std::integral_constant<int, K>{}) for the narrowest accumulator that holds count thresholds
/// (1 <= count <= max_thresholds): K = 1, 2, 4 or 8. The common single threshold then reduces 24 bytes a
/// row (sums_below; 40 a stretch in the one pass), not 192.
template <class F>
decltype(auto) with_narrowest_accumulator(std::size_t count, F&& f) {
  if (count == 1) return f(std::integral_constant<int, 1>{});
  if (count == 2) return f(std::integral_constant<int, 2>{});
  if (count <= 4) return f(std::integral_constant<int, 4>{});
  return f(std::integral_constant<int, 8>{});
}

/// The transform of sums_below<1>, stored instead of reduced (for `rowscan lineitem --explain`, which
/// prints it): out[r] = {quantity * cents, 1} if row r's suppkey < z, else {0, 0}. out holds store.size().
inline void rows_below(column_store const& store, std::uint64_t z, threshold_sums<1>* out, context const& ctx) {
  auto const rows = query_rows(store);
  thrust::transform(ctx.policy(), rows, rows + store.size(), out, below_thresholds<1>{{z}});
}

/// SUM(quantity * extendedprice) in cents and the matched row count for every threshold, in the
/// order given: one pass over the columns per max_thresholds thresholds, with the narrowest K that fits.
std::vector<threshold_result> sums_below(column_store const& store, std::vector<std::uint64_t> const& thresholds,
                                         context const& ctx = {});

ROWSCAN_SYSTEM_END
}  // namespace rowscan::lineitem
