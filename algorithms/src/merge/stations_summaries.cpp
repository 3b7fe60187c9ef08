// SPDX-License-Identifier: Apache-2.0
// Two stations answers merged by name (rowscan/stations/merge_summaries.hpp).
#include "rowscan/job/merge_reports.hpp"
#include "rowscan/stations/merge_summaries.hpp"

#include <algorithm>
#include <utility>
#include <vector>

namespace rowscan::stations {
namespace {

/// The stats of one station seen in two inputs.
station_summary combined(station_summary a, station_summary const& b) {
  a.min = std::min(a.min, b.min);
  a.max = std::max(a.max, b.max);
  a.sum += b.sum;
  a.count += b.count;
  return a;
}

}  // namespace

summary merge_summaries(summary a, summary const& b) {
  // std::string's < compares bytes as unsigned char (char_traits<char>::lt), the order summarize uses.
  std::vector<station_summary> merged;
  merged.reserve(a.stations.size() + b.stations.size());
  auto x = a.stations.begin();
  auto y = b.stations.begin();
  while (x != a.stations.end() && y != b.stations.end()) {
    if (x->name < y->name) merged.push_back(std::move(*x++));
    else if (y->name < x->name) merged.push_back(*y++);
    else merged.push_back(combined(std::move(*x++), *y++));
  }
  std::move(x, a.stations.end(), std::back_inserter(merged));
  std::copy(y, b.stations.end(), std::back_inserter(merged));
  a.stations = std::move(merged);
  job::add_report(a, b);
  a.names_compared = a.names_compared || b.names_compared;
  a.fast_chunks += b.fast_chunks;
  a.general_chunks += b.general_chunks;
  a.over_limit_chunks += b.over_limit_chunks;
  return a;
}

}  // namespace rowscan::stations
