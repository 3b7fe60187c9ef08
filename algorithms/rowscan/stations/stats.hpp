// SPDX-License-Identifier: Apache-2.0
// rowscan/stations/stats.hpp: the {min, max, sum, count} monoid in integer tenths.
#pragma once

#include "rowscan/hd.hpp"

#include <cstdint>

namespace rowscan::stations {

/// Summary of a station's readings, exact: tenths of a degree, 64-bit sum and count.
struct station_stats {
  std::int32_t min;
  std::int32_t max;
  std::int64_t sum;
  std::int64_t count;

  /// The identity of merge_stats: min starts above and max below every reading.
  ROWSCAN_HD static station_stats identity() { return {INT32_MAX, INT32_MIN, 0, 0}; }
};

/// One reading as a summary.
struct reading_stats {
  ROWSCAN_HD station_stats operator()(std::int16_t tenths) const { return {tenths, tenths, tenths, 1}; }
};

/// The monoid's operation: associative and commutative, so any grouping order gives the same bits.
struct merge_stats {
  ROWSCAN_HD station_stats operator()(station_stats const& a, station_stats const& b) const {
    return {a.min < b.min ? a.min : b.min, a.max > b.max ? a.max : b.max, a.sum + b.sum, a.count + b.count};
  }
};

/// Adds one reading to a row of any width that holds min, max, sum and count, in place: the merge of the
/// row with the reading's own summary (reading_stats), without making that summary.
template <class Row, class Tenths>
ROWSCAN_HD void add_reading(Row& row, Tenths tenths) {
  row.sum += tenths;
  row.count += 1;
  row.min = tenths < row.min ? tenths : row.min;
  row.max = tenths > row.max ? tenths : row.max;
}

/// The mean in tenths, rounded half up (toward +infinity): floor((2 sum + count) / (2 count)).
ROWSCAN_HD inline std::int64_t mean_tenths(station_stats const& s) {
  std::int64_t const num = 2 * s.sum + s.count;
  std::int64_t const den = 2 * s.count;
  std::int64_t q = num / den;  // truncates toward zero; step down to the floor for negative fractions
  if ((num % den != 0) && (num < 0)) --q;
  return q;
}

}  // namespace rowscan::stations
