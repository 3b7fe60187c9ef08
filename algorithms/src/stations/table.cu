// SPDX-License-Identifier: Apache-2.0
#include "rowscan/stations/table.hpp"

#include "rowscan/io/huge_pages.hpp"
#include "rowscan/read_back.hpp"

#include <thrust/binary_search.h>
#include <thrust/copy.h>
#include <thrust/gather.h>
#include <thrust/host_vector.h>
#include <thrust/iterator/counting_iterator.h>
#include <thrust/iterator/transform_iterator.h>
#include <thrust/iterator/zip_iterator.h>
#include <thrust/merge.h>
#include <thrust/pair.h>
#include <thrust/scan.h>
#include <thrust/sequence.h>
#include <thrust/sort.h>
#include <thrust/transform.h>
#include <thrust/transform_reduce.h>
#include <thrust/tuple.h>

#include <new>
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

/// Where one table's rows are, for tables_rows: its names, name rows (nullptr: row i's name is name i)
/// and stats.
struct table_arrays {
  char const* chars;
  std::int64_t const* offsets;
  row_index const* name_rows;
  station_stats const* stats;
};

/// The rows of several tables one after another, read where they are: row r is row r - starts[t] of
/// table t, the last t with starts[t] <= r (a binary search over a few tables' starts). A copy of the
/// tables' stats and names into one table was most of merge_all's memory, each page of it a page fault
/// (docs/stations.md, "A million stations").
struct tables_rows {
  table_arrays const* tables;
  std::size_t const* starts;  ///< count + 1 entries: each table's first row, then the rows in all
  std::size_t count;
  ROWSCAN_HD thrust::pair<table_arrays, std::size_t> locate(std::size_t r) const {
    std::size_t const* const next = thrust::upper_bound(thrust::seq, starts + 1, starts + count + 1, r);
    auto const t = static_cast<std::size_t>(next - (starts + 1));
    return thrust::make_pair(tables[t], r - starts[t]);
  }
};

/// Row r's name, of tables_rows.
struct tables_names {
  tables_rows rows;
  ROWSCAN_HD string_ref operator()(std::size_t r) const {
    thrust::pair<table_arrays, std::size_t> const at = rows.locate(r);
    std::size_t const i = at.first.name_rows == nullptr ? at.second : at.first.name_rows[at.second];
    return {at.first.chars + at.first.offsets[i],
            static_cast<std::uint32_t>(at.first.offsets[i + 1] - at.first.offsets[i])};
  }
};

/// Row r's stats, of tables_rows.
struct tables_stats {
  tables_rows rows;
  ROWSCAN_HD station_stats operator()(std::size_t r) const {
    thrust::pair<table_arrays, std::size_t> const at = rows.locate(r);
    return at.first.stats[at.second];
  }
};

/// The rows of table a and of rows b (keys and rows: each merged row's key, and its row, b's numbered
/// from a.size()), in key order, grouped by name: b_names(r) and b_stats(r) are b's row r's name and
/// stats. The names: a's where they are, then those of the stations that b alone has, gathered in key order.
template <class BNames, class BStats>
station_table grouped_rows(station_table const& a, BNames b_names, BStats b_stats, bool b_compared,
                           device_buffer<std::uint64_t>& keys, device_buffer<row_index>& rows, context const& ctx) {
  auto policy = ctx.policy();
  using stats_view = array_view<station_stats>;
  concatenated<table_names, BNames> names{names_by_row(a), b_names, a.size()};
  concatenated<stats_view, BStats> stats{stats_view{thrust::raw_pointer_cast(a.stats.data())}, b_stats, a.size()};
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
  out.names_compared = g.names_compared || a.names_compared || b_compared;
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
  return grouped_rows(a, names_by_row(b), array_view<station_stats>{thrust::raw_pointer_cast(b.stats.data())},
                      b.names_compared, keys, rows, ctx);
}

station_table merge_all(station_table const& a, std::vector<station_table const*> const& others, context const& ctx) {
  if (others.empty()) return a;
  if (others.size() == 1) return merge_tables(a, *others.front(), ctx);
  auto policy = ctx.policy();
  // The others' rows, one after another, sorted by key once: each row is sorted and grouped once, where
  // merging the tables one after another passed over the growing result with each of them
  // (docs/stations.md, "A million stations"). Their names and stats are read where they are.
  std::vector<table_arrays> arrays;
  std::vector<std::size_t> starts{0};
  bool compared = false;
  for (station_table const* t : others) {
    arrays.push_back({thrust::raw_pointer_cast(t->names.chars.data()),
                      thrust::raw_pointer_cast(t->names.offsets.data()),
                      t->name_rows.empty() ? nullptr : thrust::raw_pointer_cast(t->name_rows.data()),
                      thrust::raw_pointer_cast(t->stats.data())});
    starts.push_back(starts.back() + t->size());
    compared = compared || t->names_compared;
  }
  std::size_t const b_size = starts.back();
  device_buffer<table_arrays> device_arrays(arrays.size(), ctx.memory());
  device_buffer<std::size_t> device_starts(starts.size(), ctx.memory());
  thrust::copy(arrays.begin(), arrays.end(), device_arrays.begin());
  thrust::copy(starts.begin(), starts.end(), device_starts.begin());
  tables_rows const b{thrust::raw_pointer_cast(device_arrays.data()), thrust::raw_pointer_cast(device_starts.data()),
                      arrays.size()};

  device_buffer<std::uint64_t> b_keys(b_size, ctx.memory());
  for (std::size_t t = 0; t < others.size(); ++t) {
    thrust::copy(policy, others[t]->keys.begin(), others[t]->keys.end(),
                 b_keys.begin() + static_cast<std::ptrdiff_t>(starts[t]));
  }
  device_buffer<row_index> b_rows(b_size, ctx.memory());
  thrust::sequence(policy, b_rows.begin(), b_rows.end());
  thrust::sort_by_key(policy, b_keys.begin(), b_keys.end(), b_rows.begin());
  std::size_t const n = a.size() + b_size;
  device_buffer<std::uint64_t> keys(n, ctx.memory());
  device_buffer<row_index> rows(n, ctx.memory());
  thrust::merge_by_key(
      policy, a.keys.begin(), a.keys.end(), b_keys.begin(), b_keys.end(), thrust::counting_iterator<row_index>(0),
      thrust::make_transform_iterator(b_rows.begin(), row_after{a.size()}), keys.begin(), rows.begin());
  return grouped_rows(a, tables_names{b}, tables_stats{b}, compared, keys, rows, ctx);
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

device_buffer<row_index> name_order(station_table const& table, context const& ctx) {
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
  return order;
}

station_table sorted_by_name(station_table const& table, context const& ctx) {
  auto policy = ctx.policy();
  std::size_t const n = table.size();
  table_names const names = names_by_row(table);
  device_buffer<row_index> const order = name_order(table, ctx);
  station_table sorted;
  sorted.keys = device_buffer<std::uint64_t>(n, ctx.memory());
  sorted.stats = device_buffer<station_stats>(n, ctx.memory());
  thrust::gather(policy, order.begin(), order.end(), table.keys.begin(), sorted.keys.begin());
  thrust::gather(policy, order.begin(), order.end(), table.stats.begin(), sorted.stats.begin());
  sorted.names = gather_strings(names, thrust::raw_pointer_cast(order.data()), order.size(), gather_strategy::automatic,
                                ctx);  // in row order: no name_rows
  return sorted;
}

station_table fresh_rows_of(station_table const& table, known_rows const& k, context const& ctx) {
  auto policy = ctx.policy();
  device_buffer<row_index> rows(k.fresh, ctx.memory());
  thrust::copy_if(policy, thrust::counting_iterator<row_index>(0),
                  thrust::counting_iterator<row_index>(static_cast<row_index>(table.size())), k.known.begin(),
                  rows.begin(), is_clear{});
  station_table out;
  out.keys = device_buffer<std::uint64_t>(k.fresh, ctx.memory());
  out.stats = device_buffer<station_stats>(k.fresh, ctx.memory());
  thrust::gather(policy, rows.begin(), rows.end(), table.keys.begin(), out.keys.begin());
  thrust::gather(policy, rows.begin(), rows.end(), table.stats.begin(), out.stats.begin());
  out.names = gather_strings(names_by_row(table), thrust::raw_pointer_cast(rows.data()), rows.size(),
                             gather_strategy::automatic, ctx);
  out.names_compared = table.names_compared;
  return out;
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

namespace {

/// Summary k of the answer: row order[k]'s stats and name (order nullptr: row k's), written into out[k].
/// Returns 1 where the name's memory could not be had (a name longer than a string holds in itself).
struct summary_of_row {
  station_summary* out;
  station_stats const* stats;
  char const* chars;
  std::int64_t const* offsets;
  row_index const* name_rows;  ///< nullptr: row i's name is names[i]
  row_index const* order;
  std::size_t operator()(std::size_t k) const {
    std::size_t const i = order == nullptr ? k : order[k];
    std::size_t const r = name_rows == nullptr ? i : name_rows[i];
    station_summary& s = out[k];
    try {
      s.name.assign(chars + offsets[r], static_cast<std::size_t>(offsets[r + 1] - offsets[r]));
    } catch (std::bad_alloc const&) {
      return 1;
    }
    s.min = stats[i].min;
    s.max = stats[i].max;
    s.sum = stats[i].sum;
    s.count = stats[i].count;
    return 0;
  }
};

/// The table's rows on the host, row order[i] the i-th (order nullptr: row i). With a context of a host
/// system the summaries are made on its threads.
std::vector<station_summary> host_summaries(station_table const& table, row_index const* order,
                                           [[maybe_unused]] context const* ctx) {
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
  row_index const* const name_rows =
      table.name_rows.empty() ? nullptr : readable_on_host(table.name_rows, name_rows_copy);
  std::vector<station_summary> out;
  out.reserve(n);
  // Tens of MB at a million stations, first touched here: in 4 KiB pages a fault each.
  io::offer_huge_pages(out.data(), n * sizeof(station_summary));
  out.resize(n);
  summary_of_row const summary{out.data(), stats, chars, offsets, name_rows, order};
  std::size_t failed = 0;
#if !ROWSCAN_HAS_CUB
  if (ctx != nullptr) {
    // On the output stage's team (summarize.cu): each summary reads its name where the name order sends
    // it, a wait on memory, and at a million stations the summaries were most of the stage on one thread
    // (docs/stations.md, "A million stations").
    failed = thrust::transform_reduce(ctx->policy(), thrust::counting_iterator<std::size_t>(0),
                                      thrust::counting_iterator<std::size_t>(n), summary, std::size_t{0},
                                      thrust::plus<std::size_t>{});
  } else
#endif
  {
    // Under CUDA the arrays are host copies, read on this thread.
    for (std::size_t k = 0; k < n; ++k) failed += summary(k);
  }
  if (failed > 0) throw std::bad_alloc();
  return out;
}

}  // namespace

std::vector<station_summary> to_host_summaries(station_table const& table) {
  return host_summaries(table, nullptr, nullptr);
}

std::vector<station_summary> summaries_by_name(station_table const& table, context const& ctx) {
  // The rows are read in name order where they are: a table sorted by name first gathered every key,
  // stats and name into fresh arrays that the summaries read once (docs/stations.md, "A million
  // stations").
  device_buffer<row_index> const order = name_order(table, ctx);
  thrust::host_vector<row_index> order_copy;
  return host_summaries(table, readable_on_host(order, order_copy), &ctx);
}

ROWSCAN_SYSTEM_END
}  // namespace rowscan::stations
