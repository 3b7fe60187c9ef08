// SPDX-License-Identifier: Apache-2.0
// rowscan/stations/table.hpp: the station table (key, stats, name per distinct station) and its merge.
#pragma once

#include "rowscan/system.hpp"

#include "rowscan/context.hpp"
#include "rowscan/device_buffer.hpp"
#include "rowscan/records.hpp"
#include "rowscan/stations/group.hpp"
#include "rowscan/stations/stats.hpp"
#include "rowscan/stations/answer.hpp"
#include "rowscan/strings/column.hpp"
#include "rowscan/strings/gather.hpp"

#include <thrust/binary_search.h>
#include <thrust/copy.h>
#include <thrust/count.h>
#include <thrust/device_vector.h>
#include <thrust/for_each.h>
#include <thrust/iterator/counting_iterator.h>
#include <thrust/iterator/permutation_iterator.h>
#include <thrust/iterator/transform_iterator.h>
#include <thrust/iterator/zip_iterator.h>
#include <thrust/transform.h>
#include <thrust/tuple.h>

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace rowscan::stations {
ROWSCAN_SYSTEM_BEGIN

/// One row per distinct station, in key order (or name order after sorted_by_name). Its arrays are
/// device_buffers from the pool of the context that made them (group.hpp says why).
///
/// The names are held apart from the rows: a merge keeps the names of its first table where they are and
/// adds those of the stations new to it after them, so that a merge into a table of a million stations
/// copies its names' bytes once, as one block, instead of gathering each name into key order
/// (docs/stations.md, "A million stations"). name_rows says where each row's name is.
struct station_table {
  device_buffer<std::uint64_t> keys;
  device_buffer<station_stats> stats;
  strings_column names;                ///< each station's name once, in any order
  device_buffer<row_index> name_rows;  ///< row i's name is names[name_rows[i]]; empty: names[i]
  bool names_compared = false;  ///< building it met a key shared by two names and grouped by name bytes

  std::size_t size() const { return keys.size(); }
};

/// A station table's names by row, as a functor: row i's name.
struct table_names {
  column_view names;
  row_index const* name_rows;  ///< nullptr: row i's name is names(i)
  ROWSCAN_HD string_ref operator()(std::size_t i) const { return names(name_rows == nullptr ? i : name_rows[i]); }
};

/// The table's names by row.
inline table_names names_by_row(station_table const& table) {
  return {column_view(table.names),
          table.name_rows.empty() ? nullptr : thrust::raw_pointer_cast(table.name_rows.data())};
}

/// Names of the records of a text chunk: record i's name is the first name_sizes[i] bytes of the record.
struct record_names {
  char const* text;
  record_range const* records;
  std::uint8_t const* name_sizes;
  ROWSCAN_HD string_ref operator()(std::size_t i) const { return {text + records[i].begin, name_sizes[i]}; }
};

/// Rows of table a followed by rows of table b, without copying either: row i < a_size is a's row i.
template <class T, class U = T>
struct concatenated {
  T a;
  U b;
  std::size_t a_size;
  ROWSCAN_HD auto operator()(std::size_t i) const { return i < a_size ? a(i) : b(i - a_size); }
};

/// Element i of a device array, as a functor (so concatenated<> can join two arrays).
template <class T>
struct array_view {
  T const* data;
  ROWSCAN_HD T operator()(std::size_t i) const { return data[i]; }
};

/// Makes a table from groups: keys and stats move in, names are gathered from the representatives.
template <class Names>
station_table table_from_groups(groups&& g, Names names, context const& ctx) {
  station_table table;
  table.names = gather_strings(names, thrust::raw_pointer_cast(g.representative.data()), g.representative.size(),
                               gather_strategy::automatic, ctx);
  table.keys = std::move(g.keys);
  table.stats = std::move(g.stats);
  table.names_compared = g.names_compared;
  return table;
}

/// The table of a and b together: the same sort_by_key + reduce_by_key grouping as a block's records.
/// The merge of two partial answers: associative and commutative (a table is in key order, whatever
/// order its rows arrived in), with the empty table as identity. names_compared is set if it was in
/// either table or the grouping compared names. The result's names are a's, in a's order, then those
/// of the stations that only b has.
station_table merge_tables(station_table const& a, station_table const& b, context const& ctx);

/// The table of a and every table of `others` together: what merging them into a one after another
/// gives (the names: a's where they are, then those of the stations new to it), but with one sort of the
/// others' rows and one grouping of all of them.
station_table merge_all(station_table const& a, std::vector<station_table const*> const& others, context const& ctx);

/// Block rows searched together in find_known: a run's rows, in key order, lie between the table's places
/// of its first row and of the next run's, so each row's binary search covers a few thousand keys that its
/// neighbours read too, where a search of the whole table missed the cache at each of its last steps.
constexpr std::size_t known_search_run = 1024;

/// i times a stride.
struct times_stride {
  std::size_t stride;
  ROWSCAN_HD std::size_t operator()(std::size_t i) const { return i * stride; }
};

/// Row i's place in the table's keys (lower_bound), searched between its run's bounds.
struct place_in_run {
  std::uint64_t const* table_keys;
  std::uint64_t const* keys;
  std::size_t const* run_starts;  ///< each run's first row's place, then the table's size
  ROWSCAN_HD std::size_t operator()(std::size_t i) const {
    std::size_t const run = i / known_search_run;
    std::uint64_t const* const first = table_keys + run_starts[run];
    std::uint64_t const* const last = table_keys + run_starts[run + 1];
    return static_cast<std::size_t>(thrust::lower_bound(thrust::seq, first, last, keys[i]) - table_keys);
  }
};

/// 1 where row i is a station the table has: the table's first row of its key (`at`) has its key and its
/// name. A key that two of the table's names share may send a row to the other name's row: it then
/// counts as new, and a later merge groups it by name as any other.
template <class Names>
struct known_in_table {
  std::uint64_t const* table_keys;
  std::size_t table_size;
  table_names table_name;
  std::uint64_t const* keys;
  Names name;
  std::size_t const* at;
  ROWSCAN_HD std::uint8_t operator()(std::size_t i) const {
    std::size_t const j = at[i];
    return j < table_size && table_keys[j] == keys[i] && bytes_equal(table_name(j), name(i)) ? 1 : 0;
  }
};

/// A flag that is clear: a station new to the table.
struct is_clear {
  ROWSCAN_HD bool operator()(std::uint8_t flag) const { return flag == 0; }
};

/// Which rows of a key-ordered set of distinct stations the table has (known: 1), and where (at).
struct known_rows {
  device_buffer<std::size_t> at;
  device_buffer<std::uint8_t> known;
  std::size_t fresh = 0;  ///< the rows the table lacks
};

/// find_known's result for rows of keys `keys` (in key order, each a distinct station) named names(i).
template <class Names>
known_rows find_known(station_table const& table, device_buffer<std::uint64_t> const& keys, Names names,
                      context const& ctx) {
  auto policy = ctx.policy();
  std::size_t const n = keys.size();
  known_rows k;
  std::size_t const runs = (n + known_search_run - 1) / known_search_run;
  device_buffer<std::size_t> run_starts(runs + 1, ctx.memory());
  auto const run_firsts = thrust::make_permutation_iterator(
      keys.begin(),
      thrust::make_transform_iterator(thrust::counting_iterator<std::size_t>(0), times_stride{known_search_run}));
  thrust::lower_bound(policy, table.keys.begin(), table.keys.end(), run_firsts,
                      run_firsts + static_cast<std::ptrdiff_t>(runs), run_starts.begin());
  std::size_t const table_size = table.size();
  thrust::copy_n(&table_size, 1, run_starts.begin() + static_cast<std::ptrdiff_t>(runs));
  k.at = device_buffer<std::size_t>(n, ctx.memory());
  thrust::transform(policy, thrust::counting_iterator<std::size_t>(0), thrust::counting_iterator<std::size_t>(n),
                    k.at.begin(),
                    place_in_run{thrust::raw_pointer_cast(table.keys.data()), thrust::raw_pointer_cast(keys.data()),
                                 thrust::raw_pointer_cast(run_starts.data())});
  k.known = device_buffer<std::uint8_t>(n, ctx.memory());
  thrust::transform(
      policy, thrust::counting_iterator<std::size_t>(0), thrust::counting_iterator<std::size_t>(n), k.known.begin(),
      known_in_table<Names>{thrust::raw_pointer_cast(table.keys.data()), table_size, names_by_row(table),
                            thrust::raw_pointer_cast(keys.data()), names, thrust::raw_pointer_cast(k.at.data())});
  k.fresh = static_cast<std::size_t>(thrust::count(policy, k.known.begin(), k.known.end(), std::uint8_t{0}));
  return k;
}

/// Folds a known row's stats into the table's row of its station. Known rows are distinct stations, so
/// no two write one row.
struct fold_known_row {
  station_stats* table_stats;
  station_stats const* stats;
  std::size_t const* at;
  std::uint8_t const* known;
  ROWSCAN_HD void operator()(std::size_t i) const {
    if (known[i] != 0) table_stats[at[i]] = merge_stats{}(table_stats[at[i]], stats[i]);
  }
};

/// Folds the rows that find_known found into the table's stats; allocates nothing, so it cannot fail.
inline void fold_known_rows(station_table& table, device_buffer<station_stats> const& stats, known_rows const& k,
                            context const& ctx) {
  thrust::for_each(ctx.policy(), thrust::counting_iterator<std::size_t>(0),
                   thrust::counting_iterator<std::size_t>(k.known.size()),
                   fold_known_row{thrust::raw_pointer_cast(table.stats.data()), thrust::raw_pointer_cast(stats.data()),
                                  thrust::raw_pointer_cast(k.at.data()), thrust::raw_pointer_cast(k.known.data())});
}

/// Group i's name: its representative row's.
template <class Names>
struct representative_names {
  Names names;
  row_index const* representative;
  ROWSCAN_HD string_ref operator()(std::size_t i) const { return names(representative[i]); }
};

/// The groups that find_known found new (known 0), in their order.
inline groups fresh_groups(groups const& g, known_rows const& k, context const& ctx) {
  groups out;
  out.keys = device_buffer<std::uint64_t>(k.fresh, ctx.memory());
  out.stats = device_buffer<station_stats>(k.fresh, ctx.memory());
  out.representative = device_buffer<row_index>(k.fresh, ctx.memory());
  out.names_compared = g.names_compared;
  auto const in =
      thrust::make_zip_iterator(thrust::make_tuple(g.keys.begin(), g.stats.begin(), g.representative.begin()));
  thrust::copy_if(
      ctx.policy(), in, in + static_cast<std::ptrdiff_t>(g.keys.size()), k.known.begin(),
      thrust::make_zip_iterator(thrust::make_tuple(out.keys.begin(), out.stats.begin(), out.representative.begin())),
      is_clear{});
  return out;
}

/// The table in the output order: by the unsigned bytes of the names.
station_table sorted_by_name(station_table const& table, context const& ctx);

/// Folds a block's table into the running table with merge_tables (a first block's table is taken as it is).
void merge_into(station_table& running, station_table&& chunk, context const& ctx);

/// The table's names on the host, by row.
std::vector<std::string> host_names_by_row(station_table const& table);

/// The table's rows on the host, in its order (sorted_by_name's, for the answer).
std::vector<station_summary> to_host_summaries(station_table const& table);

ROWSCAN_SYSTEM_END
}  // namespace rowscan::stations
