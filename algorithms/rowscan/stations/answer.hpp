// SPDX-License-Identifier: Apache-2.0
// rowscan/stations/answer.hpp: the answer of `rowscan stations`, as the host holds it (no Thrust here).
#pragma once

#include <cstdint>
#include <string>

namespace rowscan::stations {

/// One station of the answer; mean_tenths() gives the rounded mean.
struct station_summary {
  std::string name;
  std::int32_t min;  ///< tenths
  std::int32_t max;  ///< tenths
  std::int64_t sum;  ///< tenths
  std::int64_t count;
};

/// The rounded mean in tenths (half up, toward +infinity).
std::int64_t mean_tenths(station_summary const& s);

}  // namespace rowscan::stations
