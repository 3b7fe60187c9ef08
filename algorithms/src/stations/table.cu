// SPDX-License-Identifier: Apache-2.0
#include "rowscan/stations/table.hpp"

#include <thrust/gather.h>
#include <thrust/host_vector.h>
#include <thrust/iterator/counting_iterator.h>
#include <thrust/iterator/transform_iterator.h>
#include <thrust/iterator/zip_iterator.h>
#include <thrust/merge.h>
#include <thrust/sequence.h>
#include <thrust/sort.h>
#include <thrust/transform.h>
#include <thrust/transform_reduce.h>
#include <thrust/tuple.h>

#include <utility>

namespace rowscan::stations {
ROWSCAN_SYSTEM_BEGIN

station_table merge_tables(station_table const& a, station_table const& b, context const& ctx) {
  if (b.size() == 0 || a.size() == 0) {  // the identity: no grouping needed
    station_table out = b.size() == 0 ? a : b;
    out.names_compared = a.names_compared || b.names_compared;
    return out;
  }
  // Both tables are in key order, so one merge puts their rows in key order: linear in the rows, where
  // a sort of both took most of a run's time once the table held a million stations and every block
  // merged into it (docs/stations.md, "A million stations").
  std::size_t const n = a.size() + b.size();
  thrust::device_vector<std::uint64_t> keys(n);
  thrust::device_vector<row_index> rows(n);
  thrust::merge_by_key(
      ctx.policy(), a.keys.begin(), a.keys.end(), b.keys.begin(), b.keys.end(), thrust::counting_iterator<row_index>(0),
      thrust::counting_iterator<row_index>(static_cast<row_index>(a.size())), keys.begin(), rows.begin());

  using stats_view = array_view<station_stats>;
  concatenated<column_view> names{column_view(a.names), column_view(b.names), a.size()};
  concatenated<stats_view> stats{stats_view{thrust::raw_pointer_cast(a.stats.data())},
                                 stats_view{thrust::raw_pointer_cast(b.stats.data())}, a.size()};
  auto stats_in = thrust::make_transform_iterator(thrust::counting_iterator<std::size_t>(0), stats);
  station_table out = table_from_groups(group_key_ordered(keys, rows, names, stats_in, ctx), names, ctx);
  out.names_compared = out.names_compared || a.names_compared || b.names_compared;
  return out;
}

/// A name's first 8 bytes as a big-endian number, zero above its end. Two names whose numbers differ are
/// in the order of their numbers; equal numbers leave them to their bytes (they share their first 8, or
/// differ only in zero bytes past the end of one).
struct name_prefix {
  column_view names;
  ROWSCAN_HD std::uint64_t operator()(std::size_t i) const {
    string_ref const s = names(i);
    std::uint64_t p = 0;
    for (std::uint32_t b = 0; b < 8; ++b) p = (p << 8) | (b < s.size ? static_cast<unsigned char>(s.data[b]) : 0u);
    return p;
  }
};

/// 1 where sorted prefix i equals prefix i - 1: names their prefixes cannot order.
struct prefix_tie {
  std::uint64_t const* prefixes;
  ROWSCAN_HD std::size_t operator()(std::size_t i) const { return prefixes[i] == prefixes[i - 1] ? 1 : 0; }
};

/// Orders (prefix, row) by prefix, then by the row's name bytes.
struct prefix_then_name_less {
  column_view names;
  ROWSCAN_HD bool operator()(thrust::tuple<std::uint64_t, row_index> const& a,
                             thrust::tuple<std::uint64_t, row_index> const& b) const {
    if (thrust::get<0>(a) != thrust::get<0>(b)) return thrust::get<0>(a) < thrust::get<0>(b);
    return bytes_less(names(thrust::get<1>(a)), names(thrust::get<1>(b)));
  }
};

station_table sorted_by_name(station_table const& table, context const& ctx) {
  auto policy = ctx.policy();
  std::size_t const n = table.size();
  column_view const names(table.names);
  // A radix sort by each name's first 8 bytes, then, only if two names share them, a comparison sort
  // that reads names only for those: a comparison sort of every name read two names per comparison,
  // seconds of a run's output at a million stations (docs/stations.md, "A million stations").
  thrust::device_vector<row_index> order(n);
  thrust::sequence(policy, order.begin(), order.end());
  thrust::device_vector<std::uint64_t> prefixes(n);
  thrust::transform(policy, thrust::counting_iterator<std::size_t>(0), thrust::counting_iterator<std::size_t>(n),
                    prefixes.begin(), name_prefix{names});
  thrust::sort_by_key(policy, prefixes.begin(), prefixes.end(), order.begin());
  bool const ties = n > 1 && thrust::transform_reduce(policy, thrust::counting_iterator<std::size_t>(1),
                                                      thrust::counting_iterator<std::size_t>(n),
                                                      prefix_tie{thrust::raw_pointer_cast(prefixes.data())},
                                                      std::size_t{0}, thrust::plus<std::size_t>{}) > 0;
  if (ties) {
    auto const rows = thrust::make_zip_iterator(thrust::make_tuple(prefixes.begin(), order.begin()));
    thrust::sort(policy, rows, rows + static_cast<std::ptrdiff_t>(n), prefix_then_name_less{names});
  }

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
