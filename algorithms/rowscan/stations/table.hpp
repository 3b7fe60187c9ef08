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

#include <thrust/device_vector.h>

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
