// SPDX-License-Identifier: Apache-2.0
#include "rowscan/stations/table.hpp"

#include "rowscan/read_back.hpp"

#include <thrust/copy.h>
#include <thrust/fill.h>
#include <thrust/gather.h>
#include <thrust/host_vector.h>
#include <thrust/iterator/counting_iterator.h>
#include <thrust/iterator/transform_iterator.h>
#include <thrust/iterator/zip_iterator.h>
#include <thrust/merge.h>
#include <thrust/scan.h>
#include <thrust/sequence.h>
#include <thrust/sort.h>
#include <thrust/transform.h>
#include <thrust/transform_reduce.h>
#include <thrust/tuple.h>

#include <utility>
#include <vector>

namespace rowscan::stations {
ROWSCAN_SYSTEM_BEGIN

namespace {

/// 1 where a merged group's representative row is b's (rows a_size and on): a station a did not have.
/// A group's representative is its lowest row (group_key_ordered), so a group that holds a row of a has
/// it as its representative.
struct only_in_b {
  std::size_t a_size;
  ROWSCAN_HD row_index operator()(row_index r) const { return r >= a_size ? 1u : 0u; }
};

/// A flag of only_in_b that is set.
struct is_set {
  ROWSCAN_HD bool operator()(row_index flag) const { return flag != 0; }
};

/// Where a merged group's name is in the merged names column: a's name row, or after a's names for a
/// station of b alone (its rank among those, from an exclusive scan of only_in_b).
struct merged_name_row {
  row_index const* a_name_rows;  // nullptr: a's row r has name r
  std::size_t a_size;
  std::size_t a_names;
  ROWSCAN_HD row_index operator()(row_index representative, row_index fresh_rank) const {
    if (representative >= a_size) return static_cast<row_index>(a_names + fresh_rank);
    return a_name_rows == nullptr ? representative : a_name_rows[representative];
  }
};

/// An offset of the appended names' column, moved past the chars before them.
struct offset_after {
  std::int64_t base;
  ROWSCAN_HD std::int64_t operator()(std::int64_t o) const { return base + o; }
};

/// Column a, then column b: a's bytes and offsets copied as they are, b's offsets moved past a's bytes.
strings_column appended(strings_column const& a, strings_column const& b, context const& ctx) {
  auto policy = ctx.policy();
  device_buffer<char> chars(a.chars.size() + b.chars.size(), ctx.memory());
  thrust::copy(policy, a.chars.begin(), a.chars.end(), chars.begin());
  thrust::copy(policy, b.chars.begin(), b.chars.end(), chars.begin() + static_cast<std::ptrdiff_t>(a.chars.size()));
  device_buffer<std::int64_t> offsets(a.size() + b.size() + 1, ctx.memory());
  thrust::copy(policy, a.offsets.begin(), a.offsets.end(), offsets.begin());
  thrust::transform(policy, b.offsets.begin() + 1, b.offsets.end(),
                    offsets.begin() + static_cast<std::ptrdiff_t>(a.size() + 1),
                    offset_after{static_cast<std::int64_t>(a.chars.size())});
  return strings_column(std::move(chars), std::move(offsets));
}

}  // namespace

namespace {

/// A row of the second table, numbered after the first table's rows.
struct row_after {
  std::size_t a_size;
  ROWSCAN_HD row_index operator()(row_index r) const { return static_cast<row_index>(a_size + r); }
};

/// A name row of a table appended after others, moved past their names.
struct name_row_after {
  std::size_t base;
  ROWSCAN_HD row_index operator()(row_index r) const { return static_cast<row_index>(base + r); }
};

/// The rows of tables a and b (keys and rows: each merged row's key, and its row, b's numbered from
/// a.size()), in key order, grouped by name. The names: a's where they are, then those of the stations
/// that b alone has, gathered in key order.
station_table grouped_rows(station_table const& a, station_table const& b, device_buffer<std::uint64_t>& keys,
                           device_buffer<row_index>& rows, context const& ctx) {
  auto policy = ctx.policy();
  using stats_view = array_view<station_stats>;
  concatenated<table_names> names{names_by_row(a), names_by_row(b), a.size()};
  concatenated<stats_view> stats{stats_view{thrust::raw_pointer_cast(a.stats.data())},
                                 stats_view{thrust::raw_pointer_cast(b.stats.data())}, a.size()};
  auto stats_in = thrust::make_transform_iterator(thrust::counting_iterator<std::size_t>(0), stats);
  groups g = group_key_ordered(keys, rows, names, stats_in, ctx);

  std::size_t const count = g.keys.size();
  auto const fresh_flags = thrust::make_transform_iterator(g.representative.begin(), only_in_b{a.size()});
  device_buffer<row_index> name_rows(count, ctx.memory());
  thrust::exclusive_scan(policy, fresh_flags, fresh_flags + static_cast<std::ptrdiff_t>(count), name_rows.begin());
  row_index last_rank = 0;  // the last group's exclusive rank, and its representative: how many are fresh
  row_index last_row = 0;
  copy_to_host(thrust::raw_pointer_cast(name_rows.data()) + (count - 1), 1, &last_rank, ctx);
  copy_to_host(thrust::raw_pointer_cast(g.representative.data()) + (count - 1), 1, &last_row, ctx);
  std::size_t const fresh = std::size_t{last_rank} + (last_row >= a.size() ? 1 : 0);
  device_buffer<row_index> fresh_rows(fresh, ctx.memory());
  thrust::copy_if(policy, g.representative.begin(), g.representative.end(), fresh_flags, fresh_rows.begin(), is_set{});
  strings_column const fresh_names =
      gather_strings(names, thrust::raw_pointer_cast(fresh_rows.data()), fresh, gather_strategy::automatic, ctx);
  thrust::transform(policy, g.representative.begin(), g.representative.end(), name_rows.begin(), name_rows.begin(),
                    merged_name_row{a.name_rows.empty() ? nullptr : thrust::raw_pointer_cast(a.name_rows.data()),
                                    a.size(), a.names.size()});

  station_table out;
  out.names = appended(a.names, fresh_names, ctx);
  out.name_rows = std::move(name_rows);
  out.keys = std::move(g.keys);
  out.stats = std::move(g.stats);
  out.names_compared = g.names_compared || a.names_compared || b.names_compared;
  return out;
}

/// The rows of the tables one after another, each table's as they are: not in key order, and a station
/// may have a row in several. Names are appended, each table's name rows moved past the names before.
station_table concatenation(std::vector<station_table const*> const& tables, context const& ctx) {
  auto policy = ctx.policy();
  std::size_t rows = 0;
  std::size_t names = 0;
  std::size_t chars = 0;
  for (station_table const* t : tables) {
    rows += t->size();
    names += t->names.size();
    chars += t->names.chars.size();
  }
  station_table out;
  out.keys = device_buffer<std::uint64_t>(rows, ctx.memory());
  out.stats = device_buffer<station_stats>(rows, ctx.memory());
  out.name_rows = device_buffer<row_index>(rows, ctx.memory());
  device_buffer<char> all_chars(chars, ctx.memory());
  device_buffer<std::int64_t> offsets(names + 1, ctx.memory());
  thrust::fill_n(policy, offsets.begin(), 1, std::int64_t{0});
  std::size_t row = 0;
  std::size_t name = 0;
  std::size_t char_at = 0;
  for (station_table const* table : tables) {
    station_table const& t = *table;
    auto const at = static_cast<std::ptrdiff_t>(row);
    thrust::copy(policy, t.keys.begin(), t.keys.end(), out.keys.begin() + at);
    thrust::copy(policy, t.stats.begin(), t.stats.end(), out.stats.begin() + at);
    if (t.name_rows.empty()) {
      thrust::sequence(policy, out.name_rows.begin() + at, out.name_rows.begin() + at + static_cast<std::ptrdiff_t>(t.size()),
                       static_cast<row_index>(name));
    } else {
      thrust::transform(policy, t.name_rows.begin(), t.name_rows.end(), out.name_rows.begin() + at, name_row_after{name});
    }
    thrust::copy(policy, t.names.chars.begin(), t.names.chars.end(), all_chars.begin() + static_cast<std::ptrdiff_t>(char_at));
    thrust::transform(policy, t.names.offsets.begin() + 1, t.names.offsets.end(),
                      offsets.begin() + static_cast<std::ptrdiff_t>(name + 1),
                      offset_after{static_cast<std::int64_t>(char_at)});
    row += t.size();
    name += t.names.size();
    char_at += t.names.chars.size();
    out.names_compared = out.names_compared || t.names_compared;
  }
  out.names = strings_column(std::move(all_chars), std::move(offsets));
  return out;
}

}  // namespace

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
  device_buffer<std::uint64_t> keys(n, ctx.memory());
  device_buffer<row_index> rows(n, ctx.memory());
  thrust::merge_by_key(
      ctx.policy(), a.keys.begin(), a.keys.end(), b.keys.begin(), b.keys.end(), thrust::counting_iterator<row_index>(0),
      thrust::counting_iterator<row_index>(static_cast<row_index>(a.size())), keys.begin(), rows.begin());
  return grouped_rows(a, b, keys, rows, ctx);
}

station_table merge_all(station_table const& a, std::vector<station_table const*> const& others, context const& ctx) {
  if (others.empty()) return a;
  if (others.size() == 1) return merge_tables(a, *others.front(), ctx);
  auto policy = ctx.policy();
  // The others' rows, one after another, sorted by key once: each row is sorted and grouped once, where
  // merging the tables one after another passed over the growing result with each of them
  // (docs/stations.md, "A million stations").
  station_table b = concatenation(others, ctx);
  device_buffer<row_index> b_rows(b.size(), ctx.memory());
  thrust::sequence(policy, b_rows.begin(), b_rows.end());
  // b's keys are sorted where they are: the grouping reads b's rows' names and stats, not their keys.
  thrust::sort_by_key(policy, b.keys.begin(), b.keys.end(), b_rows.begin());
  std::size_t const n = a.size() + b.size();
  device_buffer<std::uint64_t> keys(n, ctx.memory());
  device_buffer<row_index> rows(n, ctx.memory());
  thrust::merge_by_key(policy, a.keys.begin(), a.keys.end(), b.keys.begin(), b.keys.end(),
                       thrust::counting_iterator<row_index>(0),
                       thrust::make_transform_iterator(b_rows.begin(), row_after{a.size()}), keys.begin(), rows.begin());
  return grouped_rows(a, b, keys, rows, ctx);
}

/// A name's first 8 bytes as a big-endian number, zero above its end. Two names whose numbers differ are
/// in the order of their numbers; equal numbers leave them to their bytes (they share their first 8, or
/// differ only in zero bytes past the end of one).
struct name_prefix {
  table_names names;
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
  table_names names;
  ROWSCAN_HD bool operator()(thrust::tuple<std::uint64_t, row_index> const& a,
                             thrust::tuple<std::uint64_t, row_index> const& b) const {
    if (thrust::get<0>(a) != thrust::get<0>(b)) return thrust::get<0>(a) < thrust::get<0>(b);
    return bytes_less(names(thrust::get<1>(a)), names(thrust::get<1>(b)));
  }
};

station_table sorted_by_name(station_table const& table, context const& ctx) {
  auto policy = ctx.policy();
  std::size_t const n = table.size();
  table_names const names = names_by_row(table);
  // A radix sort by each name's first 8 bytes, then, only if two names share them, a comparison sort
  // that reads names only for those: a comparison sort of every name read two names per comparison,
  // seconds of a run's output at a million stations (docs/stations.md, "A million stations").
  device_buffer<row_index> order(n, ctx.memory());
  thrust::sequence(policy, order.begin(), order.end());
  device_buffer<std::uint64_t> prefixes(n, ctx.memory());
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
  sorted.keys = device_buffer<std::uint64_t>(n, ctx.memory());
  sorted.stats = device_buffer<station_stats>(n, ctx.memory());
  thrust::gather(policy, order.begin(), order.end(), table.keys.begin(), sorted.keys.begin());
  thrust::gather(policy, order.begin(), order.end(), table.stats.begin(), sorted.stats.begin());
  sorted.names = gather_strings(names, thrust::raw_pointer_cast(order.data()), order.size(), gather_strategy::automatic,
                                ctx);  // in row order: no name_rows
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

std::vector<std::string> host_names_by_row(station_table const& table) {
  std::vector<std::string> names = to_host_strings(table.names);
  if (table.name_rows.empty()) return names;
  thrust::host_vector<row_index> rows(table.size());
  thrust::copy(table.name_rows.begin(), table.name_rows.end(), rows.begin());
  std::vector<std::string> by_row(rows.size());
  for (std::size_t i = 0; i < rows.size(); ++i) by_row[i] = std::move(names[rows[i]]);  // each name once
  return by_row;
}

namespace {

/// A device array's elements where the host can read them: under CUDA a copy in `storage`; on the host
/// systems the array itself, which is host memory (a copy is pages touched for nothing: tens of MB at a
/// million stations, docs/stations.md, "A million stations").
template <class T>
T const* readable_on_host(device_buffer<T> const& from, thrust::host_vector<T>& storage) {
#if ROWSCAN_HAS_CUB
  storage.resize(from.size());
  thrust::copy(from.begin(), from.end(), storage.begin());
  return storage.data();
#else
  (void)storage;
  return thrust::raw_pointer_cast(from.data());
#endif
}

}  // namespace

std::vector<station_summary> to_host_summaries(station_table const& table) {
  // Each summary's name is made from the names' bytes: a vector of the names as strings first, moved
  // into the summaries, was a third of the answer's stage at a million stations.
  std::size_t const n = table.size();
  thrust::host_vector<station_stats> stats_copy;
  thrust::host_vector<char> chars_copy;
  thrust::host_vector<std::int64_t> offsets_copy;
  thrust::host_vector<row_index> name_rows_copy;
  station_stats const* const stats = readable_on_host(table.stats, stats_copy);
  char const* const chars = readable_on_host(table.names.chars, chars_copy);
  std::int64_t const* const offsets = readable_on_host(table.names.offsets, offsets_copy);
  row_index const* const name_rows = table.name_rows.empty() ? nullptr : readable_on_host(table.name_rows, name_rows_copy);
  std::vector<station_summary> out;
  out.reserve(n);
  for (std::size_t i = 0; i < n; ++i) {
    std::size_t const r = name_rows == nullptr ? i : name_rows[i];
    out.push_back({std::string(chars + offsets[r], static_cast<std::size_t>(offsets[r + 1] - offsets[r])), stats[i].min,
                   stats[i].max, stats[i].sum, stats[i].count});
  }
  return out;
}

ROWSCAN_SYSTEM_END
}  // namespace rowscan::stations
