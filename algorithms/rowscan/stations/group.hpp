// SPDX-License-Identifier: Apache-2.0
// rowscan/stations/group.hpp: grouping rows by station name without a hash table.
//
//   sort_by_key(key) -> verify(equal keys have equal names) -> reduce_by_key(merge_stats)
//
// Rows already in key order (two tables' rows, merged) skip the sort: group_key_ordered.
//
// Rows carry a 64-bit key (a hash of the name), a name and a station_stats. Sorting by the key puts
// equal names next to each other; a transform_reduce over adjacent sorted rows then proves that equal
// keys also mean equal names. If two different names share a key (a hash collision, or the few key
// bits tests force), the rows are sorted again by (key, name bytes) and grouped by (key, name): the
// answer stays exact, only slower.
#pragma once

#include "rowscan/system.hpp"

#include "rowscan/context.hpp"
#include "rowscan/device_buffer.hpp"
#include "rowscan/stations/stats.hpp"
#include "rowscan/strings/column.hpp"

#include <thrust/device_vector.h>
#include <thrust/functional.h>
#include <thrust/iterator/counting_iterator.h>
#include <thrust/iterator/discard_iterator.h>
#include <thrust/iterator/permutation_iterator.h>
#include <thrust/iterator/zip_iterator.h>
#include <thrust/reduce.h>
#include <thrust/sequence.h>
#include <thrust/sort.h>
#include <thrust/transform_reduce.h>
#include <thrust/tuple.h>

#include <cstddef>
#include <cstdint>

namespace rowscan::stations {
ROWSCAN_SYSTEM_BEGIN

/// Row numbers inside one grouping: a chunk has fewer than 2^32 records.
using row_index = std::uint32_t;

/// One group per distinct name, in key order. The arrays come from the context's pool and are written
/// whole by the grouping, so nothing fills them first: zero-filled arrays would be written twice, and
/// at a million stations their first touches cost as much as the grouping (docs/stations.md, "A million
/// stations").
struct groups {
  device_buffer<std::uint64_t> keys;
  device_buffer<station_stats> stats;
  device_buffer<row_index> representative;  ///< an input row of the group, to take its name from
  bool names_compared = false;              ///< a key was shared by different names
};

/// 1 where sorted row i and row i - 1 have the same key but different names.
template <class Names>
struct key_shared_by_two_names {
  std::uint64_t const* keys;
  row_index const* rows;
  Names names;
  ROWSCAN_HD std::size_t operator()(std::size_t i) const {
    return keys[i] == keys[i - 1] && !bytes_equal(names(rows[i]), names(rows[i - 1])) ? 1 : 0;
  }
};

/// Orders (key, row) by key, then by the row's name bytes, then by row: the exact order of the fallback.
/// Rows of one name stay in row order; a group's representative is its lowest row whatever the sort
/// (merge_tables keeps the names of its first table by it).
template <class Names>
struct key_then_name_less {
  Names names;
  ROWSCAN_HD bool operator()(thrust::tuple<std::uint64_t, row_index> const& a,
                             thrust::tuple<std::uint64_t, row_index> const& b) const {
    if (thrust::get<0>(a) != thrust::get<0>(b)) return thrust::get<0>(a) < thrust::get<0>(b);
    string_ref const x = names(thrust::get<1>(a));
    string_ref const y = names(thrust::get<1>(b));
    if (bytes_less(x, y)) return true;
    if (bytes_less(y, x)) return false;
    return thrust::get<1>(a) < thrust::get<1>(b);
  }
};

/// Two sorted rows belong to one station: equal keys, and equal names when keys were found shared.
template <class Names>
struct same_station {
  Names names;
  bool compare_names;
  ROWSCAN_HD bool operator()(thrust::tuple<std::uint64_t, row_index> const& a,
                             thrust::tuple<std::uint64_t, row_index> const& b) const {
    if (thrust::get<0>(a) != thrust::get<0>(b)) return false;
    return !compare_names || bytes_equal(names(thrust::get<1>(a)), names(thrust::get<1>(b)));
  }
};

/// 1 where sorted row i starts a group: its key differs from row i - 1's, or (compare_names) its name.
template <class Names>
struct starts_group {
  std::uint64_t const* keys;
  row_index const* rows;
  Names names;
  bool compare_names;
  ROWSCAN_HD std::size_t operator()(std::size_t i) const {
    if (keys[i] != keys[i - 1]) return 1;
    return compare_names && !bytes_equal(names(rows[i]), names(rows[i - 1])) ? 1 : 0;
  }
};

/// Two groups' stats merged, and the lower of their rows kept (the group's representative).
struct merge_stats_keep_lowest_row {
  ROWSCAN_HD thrust::tuple<station_stats, row_index> operator()(thrust::tuple<station_stats, row_index> const& a,
                                                              thrust::tuple<station_stats, row_index> const& b) const {
    row_index const ra = thrust::get<1>(a);
    row_index const rb = thrust::get<1>(b);
    return thrust::make_tuple(merge_stats{}(thrust::get<0>(a), thrust::get<0>(b)), ra < rb ? ra : rb);
  }
};

/// Groups the rows of keys (in key order) by name: rows[i] is the input row of keys[i], names(r) input
/// row r's name and stats[r] its summary. Exact whatever the keys are: a key only has to be equal for
/// equal names. keys and rows (device_vectors or device_buffers of uint64 and row_index) are reordered
/// in place when two names share a key.
template <class Keys, class Rows, class Names, class StatsIt>
groups group_key_ordered(Keys& keys, Rows& rows, Names names, StatsIt stats, context const& ctx) {
  auto const n = keys.size();
  auto policy = ctx.policy();
  groups out;
  if (n > 1) {
    key_shared_by_two_names<Names> clash{thrust::raw_pointer_cast(keys.data()), thrust::raw_pointer_cast(rows.data()),
                                         names};
    out.names_compared = thrust::transform_reduce(policy, thrust::counting_iterator<std::size_t>(1),
                                                  thrust::counting_iterator<std::size_t>(n), clash, std::size_t{0},
                                                  thrust::plus<std::size_t>{}) > 0;
  }
  auto sorted_rows = thrust::make_zip_iterator(thrust::make_tuple(keys.begin(), rows.begin()));
  if (out.names_compared) {
    thrust::sort(policy, sorted_rows, sorted_rows + n, key_then_name_less<Names>{names});
  }

  // The groups are counted first, so the outputs are made at their size: two tables that share most of
  // their stations (a merge) group into half their rows, and the outputs' fresh pages cost a merge of a
  // million stations as much as its grouping (docs/stations.md, "A million stations").
  std::size_t const count =
      n == 0 ? 0
             : 1 + thrust::transform_reduce(policy, thrust::counting_iterator<std::size_t>(1),
                                            thrust::counting_iterator<std::size_t>(n),
                                            starts_group<Names>{thrust::raw_pointer_cast(keys.data()),
                                                                thrust::raw_pointer_cast(rows.data()), names,
                                                                out.names_compared},
                                            std::size_t{0}, thrust::plus<std::size_t>{});
  out.keys = device_buffer<std::uint64_t>(count, ctx.memory());
  out.stats = device_buffer<station_stats>(count, ctx.memory());
  out.representative = device_buffer<row_index>(count, ctx.memory());
  // The representative is the group's lowest row, reduced beside the stats: which of a run's equal keys
  // reduce_by_key writes out is not promised (CUB's need not be the first), and merge_tables keeps its
  // first table's names by the lowest row. Every key of a group is the same, so any one will do.
  auto stats_and_rows = thrust::make_zip_iterator(
      thrust::make_tuple(thrust::make_permutation_iterator(stats, rows.begin()), rows.begin()));
  thrust::reduce_by_key(policy, sorted_rows, sorted_rows + n, stats_and_rows,
                        thrust::make_zip_iterator(thrust::make_tuple(out.keys.begin(), thrust::make_discard_iterator())),
                        thrust::make_zip_iterator(thrust::make_tuple(out.stats.begin(), out.representative.begin())),
                        same_station<Names>{names, out.names_compared}, merge_stats_keep_lowest_row{});
  return out;
}

/// Groups rows 0..keys.size()-1 by name. keys is sorted in place; names(i) is row i's name and
/// stats[i] its summary. Exact whatever the keys are: a key only has to be equal for equal names.
template <class Names, class StatsIt>
groups group_by_name(thrust::device_vector<std::uint64_t>& keys, Names names, StatsIt stats, context const& ctx) {
  auto policy = ctx.policy();
  device_buffer<row_index> rows(keys.size(), ctx.memory());
  thrust::sequence(policy, rows.begin(), rows.end());
  thrust::sort_by_key(policy, keys.begin(), keys.end(), rows.begin());
  return group_key_ordered(keys, rows, names, stats, ctx);
}

ROWSCAN_SYSTEM_END
}  // namespace rowscan::stations
