// SPDX-License-Identifier: Apache-2.0
// A station's answer (rowscan/stations/answer.hpp), the same for every engine.
#include "rowscan/stations/answer.hpp"

#include "rowscan/stations/stats.hpp"

namespace rowscan::stations {

std::int64_t mean_tenths(station_summary const& s) { return mean_tenths(station_stats{s.min, s.max, s.sum, s.count}); }

}  // namespace rowscan::stations
