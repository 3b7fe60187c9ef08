// SPDX-License-Identifier: Apache-2.0
// rowscan/stations/table.hpp: the station table (key, stats, name per distinct station) and its merge.
#pragma once

#include "rowscan/system.hpp"

#include "rowscan/context.hpp"
#include "rowscan/device_buffer.hpp"
#include "rowscan/read_back.hpp"
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

/// The rows a bucket of key_directory holds on average: a search in find_known reads a few keys of one
/// or two cache lines, where a binary search of the table, or of the span a run of rows shares, took a
/// branch it could not predict at each of its steps (docs/stations.md, "A million stations").
constexpr std::size_t known_bucket_rows = 16;

/// Where a key-ordered table's keys lie by their top bits: bucket b holds the rows whose key >> shift is b,
/// from starts[b] to starts[b + 1]. The table's keys change only when it merges, so a worker makes one
/// for many blocks' searches (find_known). Keys are hashes, spread evenly; keys of a few bits (tests) put
/// every row in a few buckets, which only makes the searches longer.
struct key_directory {
  device_buffer<row_index> starts;  ///< buckets + 1 entries: each bucket's first row, then the table's size
  unsigned shift = 0;               ///< a key's bucket is key >> shift
  std::size_t buckets = 0;
  std::size_t rows = 0;  ///< the table's rows when it was made
};

/// Bucket b's least key.
struct bucket_first_key {
  unsigned shift;
  ROWSCAN_HD std::uint64_t operator()(std::size_t b) const { return static_cast<std::uint64_t>(b) << shift; }
};

/// The directory of a key-ordered table: about one bucket per known_bucket_rows rows, over the bits up to
/// its largest key's highest one; each bucket's first row from a lower_bound of its least key.
inline key_directory make_key_directory(station_table const& table, context const& ctx) {
  key_directory d;
  d.rows = table.size();
  if (d.rows > 0) {
    std::uint64_t largest = 0;
    copy_to_host(thrust::raw_pointer_cast(table.keys.data()) + (d.rows - 1), 1, &largest, ctx);
    unsigned width = 0;  // the bits of the largest key
    while (width < 64 && (largest >> width) != 0) ++width;
    unsigned bucket_bits = 1;
    while (bucket_bits < 40 && (std::size_t{1} << bucket_bits) * known_bucket_rows < d.rows) ++bucket_bits;
    d.shift = width > bucket_bits ? width - bucket_bits : 0;
    d.buckets = static_cast<std::size_t>(largest >> d.shift) + 1;
  }
  d.starts = device_buffer<row_index>(d.buckets + 1, ctx.memory());
  auto const firsts =
      thrust::make_transform_iterator(thrust::counting_iterator<std::size_t>(0), bucket_first_key{d.shift});
  thrust::lower_bound(ctx.policy(), table.keys.begin(), table.keys.end(), firsts,
                      firsts + static_cast<std::ptrdiff_t>(d.buckets), d.starts.begin());
  auto const rows = static_cast<row_index>(d.rows);
  thrust::copy_n(&rows, 1, d.starts.begin() + static_cast<std::ptrdiff_t>(d.buckets));
  return d;
}

/// Row i's place in the table's keys (lower_bound), searched within its key's bucket; the table's size
/// for a key past the last bucket.
struct place_in_bucket {
  std::uint64_t const* table_keys;
  row_index const* starts;
  unsigned shift;
  std::size_t buckets;
  std::size_t table_size;
  std::uint64_t const* keys;
  ROWSCAN_HD std::size_t operator()(std::size_t i) const {
    std::uint64_t const key = keys[i];
    std::uint64_t const b = key >> shift;
    if (b >= buckets) return table_size;
    std::uint64_t const* const first = table_keys + starts[b];
    std::uint64_t const* const last = table_keys + starts[b + 1];
    return static_cast<std::size_t>(thrust::lower_bound(thrust::seq, first, last, key) - table_keys);
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
  char const* table_chars_end;
  std::uint64_t const* keys;
  Names name;
  char const* names_end;  ///< the end of the memory the rows' names lie in
  std::size_t const* at;
  ROWSCAN_HD std::uint8_t operator()(std::size_t i) const {
    std::size_t const j = at[i];
    return j < table_size && table_keys[j] == keys[i] &&
                   bytes_equal_within(table_name(j), table_chars_end, name(i), names_end)
               ? 1
               : 0;
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

/// find_known's result for rows of keys `keys` (in key order, each a distinct station) named names(i),
/// which lie in memory that ends at names_end: where each would be in the table (a search in its bucket
/// of `directory`, the table's) and whether the table's row there is its station (its key and its name).
template <class Names>
known_rows find_known(station_table const& table, key_directory const& directory,
                      device_buffer<std::uint64_t> const& keys, Names names, char const* names_end,
                      context const& ctx) {
  auto policy = ctx.policy();
  std::size_t const n = keys.size();
  std::size_t const table_size = table.size();
  known_rows k;
  k.at = device_buffer<std::size_t>(n, ctx.memory());
  thrust::transform(
      policy, thrust::counting_iterator<std::size_t>(0), thrust::counting_iterator<std::size_t>(n), k.at.begin(),
      place_in_bucket{thrust::raw_pointer_cast(table.keys.data()), thrust::raw_pointer_cast(directory.starts.data()),
                      directory.shift, directory.buckets, table_size, thrust::raw_pointer_cast(keys.data())});
  k.known = device_buffer<std::uint8_t>(n, ctx.memory());
  thrust::transform(policy, thrust::counting_iterator<std::size_t>(0), thrust::counting_iterator<std::size_t>(n),
                    k.known.begin(),
                    known_in_table<Names>{thrust::raw_pointer_cast(table.keys.data()), table_size, names_by_row(table),
                                          thrust::raw_pointer_cast(table.names.chars.data()) + table.names.chars.size(),
                                          thrust::raw_pointer_cast(keys.data()), names, names_end,
                                          thrust::raw_pointer_cast(k.at.data())});
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

/// The rows of `table` that find_known found new (known 0), in their order, as a table of their own.
station_table fresh_rows_of(station_table const& table, known_rows const& k, context const& ctx);

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

/// The table's rows in the output order, by the unsigned bytes of their names: row order[i] is the i-th.
device_buffer<row_index> name_order(station_table const& table, context const& ctx);

/// The table in the output order: by the unsigned bytes of the names.
station_table sorted_by_name(station_table const& table, context const& ctx);

/// Folds a block's table into the running table with merge_tables (a first block's table is taken as it is).
void merge_into(station_table& running, station_table&& chunk, context const& ctx);

/// The table's names on the host, by row.
std::vector<std::string> host_names_by_row(station_table const& table);

/// The table's rows on the host, in its order.
std::vector<station_summary> to_host_summaries(station_table const& table);

/// The table's rows on the host in the output order (name_order's): to_host_summaries(sorted_by_name(table)),
/// without the sorted table.
std::vector<station_summary> summaries_by_name(station_table const& table, context const& ctx);

ROWSCAN_SYSTEM_END
}  // namespace rowscan::stations
