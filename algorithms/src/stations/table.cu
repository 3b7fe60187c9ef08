// SPDX-License-Identifier: Apache-2.0
#include "rowscan/stations/table.hpp"

#include <thrust/copy.h>
#include <thrust/gather.h>
#include <thrust/host_vector.h>
#include <thrust/iterator/counting_iterator.h>
#include <thrust/iterator/transform_iterator.h>
#include <thrust/sequence.h>
#include <thrust/sort.h>

#include <utility>

namespace rowscan::stations {
ROWSCAN_SYSTEM_BEGIN

station_table merge_tables(station_table const& a, station_table const& b, context const& ctx) {
  if (b.size() == 0 || a.size() == 0) {  // the identity: no grouping needed
    station_table out = b.size() == 0 ? a : b;
    out.names_compared = a.names_compared || b.names_compared;
    return out;
  }
  thrust::device_vector<std::uint64_t> keys(a.size() + b.size());
  thrust::copy(ctx.policy(), a.keys.begin(), a.keys.end(), keys.begin());
  thrust::copy(ctx.policy(), b.keys.begin(), b.keys.end(), keys.begin() + static_cast<std::ptrdiff_t>(a.size()));

  using stats_view = array_view<station_stats>;
  concatenated<column_view> names{column_view(a.names), column_view(b.names), a.size()};
  concatenated<stats_view> stats{stats_view{thrust::raw_pointer_cast(a.stats.data())},
                                 stats_view{thrust::raw_pointer_cast(b.stats.data())}, a.size()};
  auto stats_in = thrust::make_transform_iterator(thrust::counting_iterator<std::size_t>(0), stats);
  station_table out = table_from_groups(group_by_name(keys, names, stats_in, ctx), names, ctx);
  out.names_compared = out.names_compared || a.names_compared || b.names_compared;
  return out;
}

/// Orders row numbers by the bytes of their names.
struct name_less {
  column_view names;
  ROWSCAN_HD bool operator()(row_index a, row_index b) const { return bytes_less(names(a), names(b)); }
};

station_table sorted_by_name(station_table const& table, context const& ctx) {
  auto policy = ctx.policy();
  thrust::device_vector<row_index> order(table.size());
  thrust::sequence(policy, order.begin(), order.end());
  thrust::sort(policy, order.begin(), order.end(), name_less{column_view(table.names)});

  station_table sorted;
  sorted.keys.resize(table.size());
  sorted.stats.resize(table.size());
  thrust::gather(policy, order.begin(), order.end(), table.keys.begin(), sorted.keys.begin());
  thrust::gather(policy, order.begin(), order.end(), table.stats.begin(), sorted.stats.begin());
  sorted.names = gather_strings(column_view(table.names), thrust::raw_pointer_cast(order.data()), order.size(),
                                gather_strategy::automatic, ctx);
  return sorted;
}

void merge_into(station_table& running, station_table&& chunk, context const& ctx) {
  if (running.size() > 0) {
    running = merge_tables(running, chunk, ctx);
    return;
  }
  bool const compared = running.names_compared || chunk.names_compared;
  running = std::move(chunk);  // the identity's merge, without a copy
  running.names_compared = compared;
}

std::vector<station_summary> to_host_summaries(station_table const& table) {
  thrust::host_vector<station_stats> const stats = table.stats;
  std::vector<std::string> names = to_host_strings(table.names);
  std::vector<station_summary> out;
  out.reserve(names.size());
  for (std::size_t i = 0; i < names.size(); ++i) {
    out.push_back({std::move(names[i]), stats[i].min, stats[i].max, stats[i].sum, stats[i].count});
  }
  return out;
}

ROWSCAN_SYSTEM_END
}  // namespace rowscan::stations
