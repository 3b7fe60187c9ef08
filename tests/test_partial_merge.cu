// SPDX-License-Identifier: Apache-2.0
// Partial answers merge associatively: split an input into 1..N blocks anywhere between lines, fold each
// block with a worker of its own, merge the partial answers and the tallies in any grouping (and the
// answers, which also commute, in any order), and the result is byte for byte the reference's answer.
// This is what lets the job driver hand blocks to several workers, devices and processes.
#include "reference/lineitem_reference.hpp"
#include "reference/stations_reference.hpp"
#include "rowscan/context.hpp"
#include "rowscan/job/tally.hpp"
#include "rowscan/lineitem/format.hpp"
#include "rowscan/lineitem/worker.hpp"
#include "rowscan/stations/format.hpp"
#include "rowscan/stations/general_grouper.hpp"
#include "rowscan/stations/worker.hpp"

#include "support/light_mode.hpp"
#include "support/lineitem_text.hpp"
#include "support/stations_text.hpp"

#include <thrust/device_vector.h>
#include <thrust/fill.h>

#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <random>
#include <set>
#include <sstream>
#include <string>
#include <vector>

namespace {

namespace job = rowscan::job;
using support::light;

/// Cuts text into `parts` blocks at random line starts (some may be empty).
std::vector<std::string> random_split(std::string const& text, std::size_t parts, std::mt19937& rng) {
  std::vector<std::size_t> line_starts{0};
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (text[i] == '\n') line_starts.push_back(i + 1);
  }
  std::vector<std::size_t> cuts{0, text.size()};
  for (std::size_t p = 1; p < parts; ++p) cuts.push_back(line_starts[rng() % line_starts.size()]);
  std::sort(cuts.begin(), cuts.end());
  std::vector<std::string> blocks;
  for (std::size_t i = 0; i + 1 < cuts.size(); ++i) blocks.push_back(text.substr(cuts[i], cuts[i + 1] - cuts[i]));
  return blocks;
}

/// Merges neighbours chosen at random until one is left: every bracketing of the sequence can come out.
template <class T, class Merge>
T merge_in_random_tree(std::vector<T> items, Merge merge, std::mt19937& rng) {
  while (items.size() > 1) {
    std::size_t const i = rng() % (items.size() - 1);
    items[i] = merge(items[i], items[i + 1]);
    items.erase(items.begin() + static_cast<std::ptrdiff_t>(i) + 1);
  }
  return items.front();
}

/// A block's text on the device with the padding the stations fast path reads past its end.
struct device_block {
  thrust::device_vector<char> bytes;
  explicit device_block(std::string const& text) : bytes(text.size() + rowscan::stations::text_padding_bytes, '\0') {
    thrust::copy(text.begin(), text.end(), bytes.begin());
  }
  char const* data() const { return thrust::raw_pointer_cast(bytes.data()); }
};

/// Valid measurements over `stations` names, with a bad line in about one of every `one_in`.
std::string measurements_with_bad_lines(std::mt19937& rng, std::size_t stations, std::size_t rows, unsigned one_in) {
  std::vector<std::string> names;
  for (std::size_t s = 0; s < stations; ++s) {
    std::string name(1 + rng() % 12, 'a');
    for (char& c : name) c = static_cast<char>('a' + rng() % 26);
    names.push_back(name + std::to_string(s));
  }
  std::string text;
  for (std::size_t r = 0; r < rows; ++r) {
    bool const bad = rng() % one_in == 0;
    std::string const& name = names[rng() % stations];
    int const tenths = static_cast<int>(rng() % 1999) - 999;
    if (bad) {
      text += name + (tenths % 2 != 0 ? ";12.34\n" : "\n");  // two decimals, or no separator
      continue;
    }
    text += name + ";" + (tenths < 0 ? "-" : "") + std::to_string(std::abs(tenths) / 10) + "." +
            std::to_string(std::abs(tenths) % 10) + "\n";
  }
  return text;
}

/// Every bad line the reference skipped, as the located errors would report them.
void expect_same_skips(rowscan::skipped_lines const& got, std::vector<reference::skipped_line> const& expected) {
  ASSERT_EQ(got.count(), expected.size());
  for (std::size_t i = 0; i < got.first().size(); ++i) {
    EXPECT_EQ(got.first()[i].line(), expected[i].line) << "skipped line " << i;
    EXPECT_EQ(got.first()[i].byte_offset(), expected[i].byte_offset) << "skipped line " << i;
  }
}

/// The 1BRC answer of a station table, and the merge of two tables, on one context.
struct station_table_answer {
  rowscan::context const& ctx;
  std::string operator()(rowscan::stations::station_table const& table) const {
    std::ostringstream out;
    rowscan::stations::write_onebrc(out, to_host_summaries(sorted_by_name(table, ctx)));
    return out.str();
  }
  auto merge() const {
    return [this](auto const& a, auto const& b) { return rowscan::stations::merge_tables(a, b, ctx); };
  }
};

struct folded {
  std::vector<rowscan::stations::station_table> tables;
  std::vector<job::tally> tallies;
};

// Also with shared stations (the host's workers of one run): blocks folded one after another by workers
// of their own that share what they learn, so later workers hold stations, with no readings, that their
// block lacks; the tables still merge to the reference's answer.
TEST(PartialMerge, StationTablesMergeInAnyGrouping) {
  rowscan::context ctx;
  station_table_answer const answer_of{ctx};
  for (std::uint32_t seed : {1u, 2u, 3u}) {
    std::mt19937 rng(seed);
    std::string const text = measurements_with_bad_lines(rng, 40, light(3000, 300), 25);
    std::vector<reference::skipped_line> skipped;
    std::string const expected = reference::stations_answer(text, &skipped);
    for (unsigned key_bits : {64u, 3u}) {  // 3 bits: every merge compares names too
      for (std::size_t parts : {1, 2, 3, 7, 16}) {
        for (bool const sharing : {false, true}) {
          SCOPED_TRACE("seed=" + std::to_string(seed) + " key_bits=" + std::to_string(key_bits) +
                       " parts=" + std::to_string(parts) + " sharing=" + std::to_string(sharing));
          std::uint64_t const key_mask = key_bits == 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << key_bits) - 1;
          rowscan::stations::shared_stations shared;
          folded f;
          for (std::string const& block : random_split(text, parts, rng)) {
            device_block const device(block);
            rowscan::stations::worker worker(ctx, {key_mask, false, true, sharing ? &shared : nullptr});
            job::tally t = worker.fold(device.data(), block.size());
            t.bytes = block.size();
            f.tables.push_back(worker.partial());
            f.tallies.push_back(t);
          }
          EXPECT_EQ(answer_of(merge_in_random_tree(f.tables, answer_of.merge(), rng)), expected);
          std::shuffle(f.tables.begin(), f.tables.end(), rng);  // the tables commute as well
          EXPECT_EQ(answer_of(merge_in_random_tree(f.tables, answer_of.merge(), rng)), expected);

          job::tally const whole = merge_in_random_tree(f.tallies, [](auto const& a, auto const& b) { return job::merge(a, b); }, rng);
          EXPECT_EQ(whole.bytes, text.size());
          EXPECT_FALSE(whole.stop.has_value());
          expect_same_skips(job::located_skips(whole, "input.txt"), skipped);
        }
      }
    }
  }
}

/// A column's strings on the host, in its order.
std::vector<std::string> strings_of(rowscan::strings_column const& column) { return rowscan::to_host_strings(column); }

// A merge keeps its first table's names where they are and adds the names of the stations only the second
// has after them, each name once: tables merged one after another into a running table (as a worker
// merges its blocks' tables) give the reference's answer, and each merge's names column starts with the
// running table's. With 3-bit keys every merge compares names, and equal names keep the first table's row.
TEST(PartialMerge, MergesKeepTheFirstTablesNamesWhereTheyAre) {
  rowscan::context ctx;
  station_table_answer const answer_of{ctx};
  for (std::uint32_t seed : {11u, 12u, 13u}) {
    std::mt19937 rng(seed);
    std::string const text = support::random_measurements(seed, light(3000, 300), light(12000, 1200), 40);
    for (unsigned key_bits : {64u, 3u}) {
      SCOPED_TRACE("seed=" + std::to_string(seed) + " key_bits=" + std::to_string(key_bits));
      std::uint64_t const key_mask = key_bits == 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << key_bits) - 1;
      rowscan::stations::station_table running;
      std::string seen;  // the text of the tables merged so far
      for (std::string const& block : random_split(text, 12, rng)) {
        device_block const device(block);
        rowscan::stations::worker worker(ctx, {key_mask, false, false, nullptr});
        worker.fold(device.data(), block.size());
        std::vector<std::string> const before = strings_of(running.names);
        running = rowscan::stations::merge_tables(running, worker.partial(), ctx);
        seen += block;
        std::vector<std::string> const after = strings_of(running.names);
        ASSERT_EQ(after.size(), running.size()) << "each station's name once";
        ASSERT_GE(after.size(), before.size());
        EXPECT_TRUE(std::equal(before.begin(), before.end(), after.begin())) << "the running table's names moved";
        std::vector<std::string> by_row = rowscan::stations::host_names_by_row(running);
        std::sort(by_row.begin(), by_row.end());
        EXPECT_TRUE(std::adjacent_find(by_row.begin(), by_row.end()) == by_row.end()) << "a name on two rows";
        EXPECT_EQ(answer_of(running), reference::stations_answer(seen));
      }
    }
  }
}

// merge_all joins a running table with several tables at once (a worker's pending blocks): one sort of
// their rows and one grouping give what merging them one after another gives, the running table's names
// where they are and each name once. With 3-bit keys every grouping compares names. The others include
// tables that are merges themselves (names apart from their rows), a table of a station already in the
// running table alone, and an empty one; the running table may be empty too.
TEST(PartialMerge, MergeAllIsTheMergesOneAfterAnother) {
  rowscan::context ctx;
  station_table_answer const answer_of{ctx};
  for (std::uint32_t seed : {21u, 22u, 23u}) {
    std::mt19937 rng(seed);
    std::string const text = support::random_measurements(seed, light(3000, 300), light(12000, 1200), 40);
    for (unsigned key_bits : {64u, 3u}) {
      for (bool const empty_running : {false, true}) {
        SCOPED_TRACE("seed=" + std::to_string(seed) + " key_bits=" + std::to_string(key_bits) +
                     " empty_running=" + std::to_string(empty_running));
        std::uint64_t const key_mask = key_bits == 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << key_bits) - 1;
        auto table_of = [&](std::string const& block) {
          device_block const device(block);
          rowscan::stations::worker worker(ctx, {key_mask, false, false, nullptr});
          worker.fold(device.data(), block.size());
          return worker.partial();
        };
        std::vector<std::string> const blocks = random_split(text, 9, rng);
        rowscan::stations::station_table running =
            empty_running ? rowscan::stations::station_table{} : table_of(blocks[0]);
        std::string seen = empty_running ? "" : blocks[0];
        std::vector<rowscan::stations::station_table> others;
        for (std::size_t i = 1; i < blocks.size(); ++i) {
          others.push_back(table_of(blocks[i]));
          seen += blocks[i];
        }
        others.push_back(rowscan::stations::merge_tables(table_of(blocks[1]), table_of(blocks[2]), ctx));  // name rows
        seen += blocks[1] + blocks[2];
        std::string const first_line = text.substr(0, text.find('\n') + 1);
        others.push_back(table_of(first_line));
        seen += first_line;
        others.push_back(rowscan::stations::station_table{});
        std::shuffle(others.begin(), others.end(), rng);

        std::vector<rowscan::stations::station_table const*> other_tables;
        for (auto const& t : others) other_tables.push_back(&t);
        rowscan::stations::station_table const all = rowscan::stations::merge_all(running, other_tables, ctx);
        EXPECT_EQ(answer_of(all), reference::stations_answer(seen));
        rowscan::stations::station_table one_by_one = running;
        for (auto const& t : others) one_by_one = rowscan::stations::merge_tables(one_by_one, t, ctx);
        EXPECT_EQ(answer_of(all), answer_of(one_by_one));
        std::vector<std::string> const before = strings_of(running.names);
        std::vector<std::string> const after = strings_of(all.names);
        ASSERT_EQ(after.size(), all.size()) << "each station's name once";
        EXPECT_TRUE(std::equal(before.begin(), before.end(), after.begin())) << "the running table's names moved";
        if (key_bits == 3) {
          EXPECT_TRUE(all.names_compared);
        }
      }
    }
  }
}

// Edge cases: no others is the running table itself; one other is merge_tables.
TEST(PartialMerge, MergeAllOfNoneOrOne) {
  rowscan::context ctx;
  station_table_answer const answer_of{ctx};
  std::string const a = "Oslo;1.0\nAbha;2.0\n";
  std::string const b = "Abha;-3.0\nZ;0.5\n";
  auto table_of = [&](std::string const& block) {
    device_block const device(block);
    rowscan::stations::worker worker(ctx, {});
    worker.fold(device.data(), block.size());
    return worker.partial();
  };
  rowscan::stations::station_table const running = table_of(a);
  EXPECT_EQ(answer_of(rowscan::stations::merge_all(running, {}, ctx)), reference::stations_answer(a));
  rowscan::stations::station_table const second = table_of(b);
  std::vector<rowscan::stations::station_table const*> const one{&second};
  EXPECT_EQ(answer_of(rowscan::stations::merge_all(running, one, ctx)), reference::stations_answer(a + b));
  EXPECT_EQ(answer_of(rowscan::stations::merge_all(rowscan::stations::station_table{}, one, ctx)),
            reference::stations_answer(b));
}

/// The distinct station names of measurement lines.
std::set<std::string> names_in(std::string const& text) {
  std::set<std::string> names;
  std::istringstream lines(text);
  for (std::string line; std::getline(lines, line);) names.insert(line.substr(0, line.rfind(';')));
  return names;
}

// fold_new: the lines of stations that the known table has fold into its rows, the others into a table
// of their own; the two merged give the reference's answer for both blocks. With full keys the new table
// holds exactly the stations the first block lacked; with 3-bit keys a key that two known names share
// may send a known station to the new table, never a new one to the known table. Also a block of known
// stations only, one of new stations only, and an empty known table.
TEST(PartialMerge, FoldNewFoldsKnownStationsWhereTheyAre) {
  rowscan::context ctx;
  station_table_answer const answer_of{ctx};
  for (std::uint32_t seed : {31u, 32u, 33u}) {
    std::mt19937 rng(seed);
    std::string const text = support::random_measurements(seed, light(3000, 300), light(12000, 1200), 40);
    std::vector<std::string> const halves = random_split(text, 2, rng);
    std::string const other = support::random_measurements(seed + 100, 50, 400, 40);
    for (unsigned key_bits : {64u, 3u}) {
      std::uint64_t const key_mask = key_bits == 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << key_bits) - 1;
      for (auto const& [first, second] : std::vector<std::pair<std::string, std::string>>{
               {halves[0], halves[1]}, {halves[0], halves[0]}, {"", halves[1]}, {halves[0], other}}) {
        SCOPED_TRACE("seed=" + std::to_string(seed) + " key_bits=" + std::to_string(key_bits) +
                     " first=" + std::to_string(first.size()) + " second=" + std::to_string(second.size()));
        rowscan::stations::general_grouper grouper(ctx, key_mask, false);
        rowscan::stations::station_table known;
        if (!first.empty()) {
          device_block const device(first);
          grouper.fold(device.data(), first.size(), known);
        }
        rowscan::stations::station_table fresh;
        device_block const device(second);
        grouper.fold_new(device.data(), second.size(), known, rowscan::stations::make_key_directory(known, ctx), fresh);
        EXPECT_EQ(answer_of(rowscan::stations::merge_tables(known, fresh, ctx)),
                  reference::stations_answer(first + second));
        std::set<std::string> const before = names_in(first);
        std::set<std::string> expected_new;
        for (std::string const& name : names_in(second)) {
          if (before.count(name) == 0) expected_new.insert(name);
        }
        std::vector<std::string> const got = rowscan::stations::host_names_by_row(fresh);
        std::set<std::string> const got_set(got.begin(), got.end());
        ASSERT_EQ(got_set.size(), got.size()) << "each new station once";
        for (std::string const& name : expected_new) EXPECT_EQ(got_set.count(name), 1u) << name;
        if (key_bits == 64) {
          EXPECT_EQ(got_set, expected_new);
        }
        EXPECT_EQ(known.size(), before.size()) << "the known table gains no rows";
      }
    }
  }
}

/// Names of query rows held on the device, as a functor for find_known.
struct query_names {
  rowscan::column_view names;
  ROWSCAN_HD rowscan::string_ref operator()(std::size_t i) const { return names(i); }
};

// find_known searches each row's key in its bucket of the table's key_directory: each row's place is
// std::lower_bound's over the whole table, and a row is known exactly where the table's row there has its
// key and its name. Random tables of 64-bit keys and of keys of a few bits (rows of one key with other
// names, whole buckets empty or shared), with queries below the smallest key, past the largest, and
// between; a table of one row; a directory made again for a grown table.
TEST(PartialMerge, FindKnownMatchesALowerBoundOverTheWholeTable) {
  rowscan::context ctx;
  for (std::uint32_t seed : {41u, 42u, 43u, 44u}) {
    for (unsigned key_bits : {64u, 20u, 3u, 1u}) {
      for (std::size_t table_rows : {std::size_t{1}, std::size_t{37}, static_cast<std::size_t>(light(5000, 800))}) {
        SCOPED_TRACE("seed=" + std::to_string(seed) + " key_bits=" + std::to_string(key_bits) +
                     " table_rows=" + std::to_string(table_rows));
        std::mt19937_64 rng(seed);
        std::uint64_t const mask = key_bits == 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << key_bits) - 1;
        // The table: sorted (key, name) rows; a key may repeat with other names, as after a clash.
        std::vector<std::pair<std::uint64_t, std::string>> rows;
        for (std::size_t i = 0; i < table_rows; ++i) rows.emplace_back(rng() & mask, "s" + std::to_string(i));
        std::sort(rows.begin(), rows.end());
        std::vector<std::uint64_t> table_keys;
        std::vector<std::string> table_names;
        for (auto const& [key, name] : rows) {
          table_keys.push_back(key);
          table_names.push_back(name);
        }
        rowscan::stations::station_table table;
        table.keys = rowscan::device_buffer<std::uint64_t>(table_keys.size());
        thrust::copy(table_keys.begin(), table_keys.end(), table.keys.begin());
        table.stats = rowscan::device_buffer<rowscan::stations::station_stats>(table_keys.size());
        table.names = rowscan::make_strings_column(table_names);
        rowscan::stations::key_directory const directory = rowscan::stations::make_key_directory(table, ctx);
        ASSERT_EQ(directory.rows, table.size());

        // Queries in key order: table rows with their names, table keys with other names, random keys,
        // and keys past the largest and below the smallest.
        std::vector<std::pair<std::uint64_t, std::string>> queries;
        for (std::size_t i = 0; i < table_rows; ++i) {
          if (rng() % 3 == 0) queries.push_back(rows[i]);
          if (rng() % 7 == 0) queries.emplace_back(rows[i].first, "other" + std::to_string(i));
        }
        for (int i = 0; i < 50; ++i) queries.emplace_back(rng() & mask, "random" + std::to_string(i));
        queries.emplace_back(mask, "largest");
        queries.emplace_back(0, "zero");
        std::sort(queries.begin(), queries.end());
        std::vector<std::uint64_t> query_keys;
        std::vector<std::string> names;
        for (auto const& [key, name] : queries) {
          query_keys.push_back(key);
          names.push_back(name);
        }
        rowscan::device_buffer<std::uint64_t> keys(query_keys.size());
        thrust::copy(query_keys.begin(), query_keys.end(), keys.begin());
        rowscan::strings_column const name_column = rowscan::make_strings_column(names);
        rowscan::stations::known_rows const k = rowscan::stations::find_known(
            table, directory, keys, query_names{rowscan::column_view(name_column)},
            thrust::raw_pointer_cast(name_column.chars.data()) + name_column.chars.size(), ctx);

        std::vector<std::size_t> at(k.at.size());
        thrust::copy(k.at.begin(), k.at.end(), at.begin());
        std::vector<std::uint8_t> known(k.known.size());
        thrust::copy(k.known.begin(), k.known.end(), known.begin());
        std::size_t fresh = 0;
        for (std::size_t i = 0; i < queries.size(); ++i) {
          auto const place = static_cast<std::size_t>(
              std::lower_bound(table_keys.begin(), table_keys.end(), query_keys[i]) - table_keys.begin());
          EXPECT_EQ(at[i], place) << "query " << i << " key " << query_keys[i];
          bool const expected =
              place < table_keys.size() && table_keys[place] == query_keys[i] && table_names[place] == names[i];
          EXPECT_EQ(known[i] != 0, expected) << "query " << i << " " << names[i];
          fresh += expected ? 0 : 1;
        }
        EXPECT_EQ(k.fresh, fresh);
      }
    }
  }
}

// A worker past the fast path's limit folds a block's known stations where they are, searching its
// table's key directory: the directory is made again whenever the table has merged, so blocks folded
// after each join still give the reference's answer (10-bit keys: buckets shared by several names).
TEST(PartialMerge, FoldNewAfterEachJoinMatchesTheReference) {
  rowscan::context ctx;
  station_table_answer const answer_of{ctx};
  for (std::uint32_t seed : {51u, 52u}) {
    for (unsigned key_bits : {64u, 10u}) {
      SCOPED_TRACE("seed=" + std::to_string(seed) + " key_bits=" + std::to_string(key_bits));
      std::mt19937 rng(seed);
      std::uint64_t const key_mask = key_bits == 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << key_bits) - 1;
      std::string const text = support::random_measurements(seed, light(2000, 400), light(8000, 1600), 40);
      rowscan::stations::general_grouper grouper(ctx, key_mask, false);
      rowscan::stations::station_table known;
      std::string seen;
      for (std::string const& block : random_split(text, 8, rng)) {
        device_block const device(block);
        rowscan::stations::station_table fresh;
        grouper.fold_new(device.data(), block.size(), known, rowscan::stations::make_key_directory(known, ctx), fresh);
        known = rowscan::stations::merge_tables(known, fresh, ctx);  // a join: the next block needs a new directory
        seen += block;
        EXPECT_EQ(answer_of(known), reference::stations_answer(seen));
      }
    }
  }
}

// A host worker whose learning piece brings nearly all new stations takes the rest of its block on the
// general path at once (worker::fold_in_order): files of few stations (the rule never holds), of more than a
// block meets (it holds in the first block), and blocks after the table passed the fast path's limit;
// after each block the worker's table gives the reference's answer.
TEST(PartialMerge, BlocksOfNearlyAllNewStationsFoldLikeTheReference) {
  EXPECT_TRUE(rowscan::stations::nearly_all_new_stations(15, 16));
  EXPECT_TRUE(rowscan::stations::nearly_all_new_stations(16, 16));
  EXPECT_FALSE(rowscan::stations::nearly_all_new_stations(14, 16));
  EXPECT_FALSE(rowscan::stations::nearly_all_new_stations(2947, 3488));  // 10,000 stations' first piece
  EXPECT_FALSE(rowscan::stations::nearly_all_new_stations(0, 0));
  rowscan::context ctx;
  station_table_answer const answer_of{ctx};
  for (std::uint32_t seed : {71u, 72u, 73u}) {
    std::size_t const stations = seed == 71 ? 200 : seed == 72 ? light(8000, 2000) : light(40000, 6000);
    for (unsigned key_bits : {64u, 16u}) {
      SCOPED_TRACE("seed=" + std::to_string(seed) + " stations=" + std::to_string(stations) +
                   " key_bits=" + std::to_string(key_bits));
      std::mt19937 rng(seed);
      std::uint64_t const key_mask = key_bits == 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << key_bits) - 1;
      std::string const text = support::random_measurements(seed, stations, light(60000, 12000), 24);
      rowscan::stations::worker worker(ctx, {key_mask, false, false, nullptr});
      std::vector<std::string> const blocks = random_split(text, 3, rng);
      std::string seen;
      for (std::size_t b = 0; b < blocks.size(); ++b) {
        device_block const device(blocks[b]);
        job::tally const t = worker.fold(device.data(), blocks[b].size());
        ASSERT_FALSE(t.stopped());
        seen += blocks[b];
        if (b == 0 || b + 1 == blocks.size()) {
          EXPECT_EQ(answer_of(worker.partial()), reference::stations_answer(seen)) << "block " << b;
        }
      }
    }
  }
}

// summaries_by_name reads a table's rows in name order where they are: the same summaries as the table
// sorted by name, and the reference's answer. Tables with their names apart from their rows (merges),
// names sharing their first 8 bytes (the sort's ties) or shorter than 8, 3-bit keys, and an empty table.
TEST(PartialMerge, SummariesByNameAreTheSortedTables) {
  rowscan::context ctx;
  auto summaries_text = [](std::vector<rowscan::stations::station_summary> const& summaries) {
    std::ostringstream out;
    rowscan::stations::write_onebrc(out, summaries);
    return out.str();
  };
  for (std::uint32_t seed : {61u, 62u, 63u}) {
    for (unsigned key_bits : {64u, 3u}) {
      SCOPED_TRACE("seed=" + std::to_string(seed) + " key_bits=" + std::to_string(key_bits));
      std::mt19937 rng(seed);
      std::uint64_t const key_mask = key_bits == 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << key_bits) - 1;
      std::string text = support::random_measurements(seed, light(2000, 300), light(6000, 900), 40);
      for (int i = 0; i < 200; ++i) {  // names that tie on their first 8 bytes, or are shorter than them
        std::string const name = i % 3 == 0 ? "Station" + std::to_string(i % 7) : "Stationary " + std::to_string(i);
        text += name + ";" + std::to_string(i % 40) + "." + std::to_string(i % 10) + "\n";
      }
      rowscan::stations::station_table running;
      for (std::string const& block : random_split(text, 5, rng)) {
        device_block const device(block);
        rowscan::stations::worker worker(ctx, {key_mask, false, false, nullptr});
        worker.fold(device.data(), block.size());
        running = rowscan::stations::merge_tables(running, worker.partial(), ctx);  // names apart from rows
      }
      std::string const by_name = summaries_text(rowscan::stations::summaries_by_name(running, ctx));
      EXPECT_EQ(by_name,
                summaries_text(rowscan::stations::to_host_summaries(rowscan::stations::sorted_by_name(running, ctx))));
      EXPECT_EQ(by_name, reference::stations_answer(text));
    }
  }
  EXPECT_TRUE(rowscan::stations::summaries_by_name(rowscan::stations::station_table{}, ctx).empty());
}

/// Sees nothing: a worker with an observer folds by the GPU's composition on every system.
struct no_observer final : rowscan::stations::block_observer {};

// The fast path's composition (find the lines' ends, parse a line a thread, sort the ids, reduce) on
// every system: the host's workers walk their lines instead, so only a worker with an observer runs it
// there. One worker folds random blocks in order, the first learning the stations and the rest known,
// with names up to 100 bytes (three word loads past the first two), a line of exactly 6 bytes, some
// lines without a final '\n', and 3-bit keys that make every lookup compare names.
TEST(FastPathComposition, MatchesTheReferenceBlockByBlock) {
  rowscan::context ctx;
  station_table_answer const answer_of{ctx};
  for (std::uint32_t seed : {4u, 5u, 6u}) {
    std::mt19937 rng(seed);
    std::size_t const stations = seed == 6 ? light(3000, 300) : 40;
    std::size_t const max_name_bytes = seed == 5 ? 100 : 24;
    std::string const text =
        "a;0.0\n" + support::random_measurements(seed, stations, light(20000, 2000), max_name_bytes, seed != 4);
    std::string const expected = reference::stations_answer(text);
    for (unsigned key_bits : {64u, 3u}) {
      SCOPED_TRACE("seed=" + std::to_string(seed) + " key_bits=" + std::to_string(key_bits));
      std::uint64_t const key_mask = key_bits == 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << key_bits) - 1;
      no_observer observer;
      rowscan::stations::worker worker(ctx, {key_mask, false, false, nullptr}, &observer);
      // A first block of all the text teaches every station; then the text again, in random blocks.
      device_block const all(text);
      worker.fold(all.data(), text.size());
      rowscan::stations::station_table known = worker.partial();  // its stations, without their readings
      thrust::fill(known.stats.begin(), known.stats.end(), rowscan::stations::station_stats::identity());
      rowscan::stations::worker again(ctx, {key_mask, false, false, nullptr}, &observer);
      again.start_from(std::move(known));
      std::size_t const parts = 1 + rng() % 9;
      for (std::string const& block : random_split(text, parts, rng)) {
        device_block const device(block);
        again.fold(device.data(), block.size());
      }
      EXPECT_EQ(again.paths().general_blocks(), 0u) << "every block should take the fast path";
      EXPECT_GT(again.paths().fast_blocks(), 0u);
      EXPECT_EQ(answer_of(again.partial()), expected);
    }
  }
}

/// Station name -> count of a table, on the host.
std::map<std::string, std::int64_t> counts_of(rowscan::stations::station_table const& table) {
  std::map<std::string, std::int64_t> counts;
  for (auto const& s : rowscan::stations::to_host_summaries(table)) counts[s.name] = s.count;
  return counts;
}

// Shared stations carry names, never readings: a take adds the stations it lacks with count 0 and
// leaves the taker's readings as they were; an offer that adds nothing gives nothing new to take.
TEST(PartialMerge, SharedStationsCarryNamesAndNoReadings) {
  rowscan::context ctx;
  auto table_of = [&](std::string const& text) {
    device_block const device(text);
    rowscan::stations::worker worker(ctx, {~std::uint64_t{0}, false, false});
    worker.fold(device.data(), text.size());
    return worker.partial();
  };
  rowscan::stations::station_table const first = table_of("Oslo;1.0\nLima;2.0\nOslo;3.0\n");
  rowscan::stations::station_table mine = table_of("Lima;5.0\nKyiv;-1.0\n");
  rowscan::stations::shared_stations shared;
  std::uint64_t seen = 0;
  EXPECT_FALSE(shared.take_into(mine, seen, ctx));  // nothing offered yet

  shared.offer(first, ctx);
  EXPECT_EQ(shared.size(), 2u);
  EXPECT_TRUE(shared.take_into(mine, seen, ctx));
  EXPECT_EQ(counts_of(mine), (std::map<std::string, std::int64_t>{{"Kyiv", 1}, {"Lima", 1}, {"Oslo", 0}}));
  EXPECT_FALSE(shared.take_into(mine, seen, ctx));  // taken already

  shared.offer(table_of("Oslo;9.9\n"), ctx);  // nothing new: no new version
  EXPECT_FALSE(shared.take_into(mine, seen, ctx));
  shared.offer(mine, ctx);  // Kyiv is new to the shared stations
  EXPECT_EQ(shared.size(), 3u);

  rowscan::stations::station_table late;  // a worker that has learned nothing takes everything at once
  std::uint64_t late_seen = 0;
  EXPECT_TRUE(shared.take_into(late, late_seen, ctx));
  EXPECT_EQ(counts_of(late), (std::map<std::string, std::int64_t>{{"Kyiv", 0}, {"Lima", 0}, {"Oslo", 0}}));
  EXPECT_FALSE(shared.take_into(mine, seen, ctx));  // mine offered Kyiv itself; it gains nothing, so false
}

TEST(PartialMerge, LineitemSumsMergeInAnyGrouping) {
  rowscan::context ctx;
  std::vector<std::uint64_t> const thresholds{0, 3, 7, 11};
  std::string text = support::generated_table(0.001, 5);
  text = text.substr(0, text.find('\n', light<std::size_t>(text.size(), 4000)) + 1);
  text += "1|2|3|4|5|6.00|7|\n";  // a bad row in the last block: skipped, counted, placed
  std::vector<reference::skipped_line> skipped;
  std::string const expected = reference::lineitem_answer(text, thresholds, &skipped);
  std::mt19937 rng(9);
  for (std::size_t parts : {1, 2, 5, 16}) {
    SCOPED_TRACE("seed=9 parts=" + std::to_string(parts));
    std::vector<rowscan::lineitem::partial_sums> sums;
    std::vector<job::tally> tallies;
    for (std::string const& block : random_split(text, parts, rng)) {
      thrust::device_vector<char> const device(block.begin(), block.end());
      rowscan::lineitem::worker worker(ctx, {thresholds, 1 << 20, true});
      job::tally t = worker.fold(thrust::raw_pointer_cast(device.data()), block.size());
      t.bytes = block.size();
      sums.push_back(worker.partial());
      tallies.push_back(t);
    }
    auto merge_sums = [](auto const& a, auto const& b) { return rowscan::lineitem::merge(a, b); };
    std::shuffle(sums.begin(), sums.end(), rng);
    std::string got;
    for (auto const& r : merge_in_random_tree(sums, merge_sums, rng)) got += rowscan::lineitem::format_cents(r.sum_cents) + "\n";
    EXPECT_EQ(got, expected);
    expect_same_skips(job::located_skips(merge_in_random_tree(tallies, [](auto const& a, auto const& b) { return job::merge(a, b); }, rng), "lineitem.tbl"),
                      skipped);
  }
}

/// A random tally of a text of random size, with bad lines at random places inside it.
job::tally random_tally(std::mt19937& rng) {
  job::tally t;
  t.bytes = rng() % 1000;
  t.lines = rng() % 50;
  for (std::uint64_t i = 0, n = rng() % 4; i < n; ++i) {
    ++t.skipped;
    t.skip({rng() % (t.lines + 1), rng() % (t.bytes + 1), "why " + std::to_string(rng() % 10), 0, ""});
  }
  if (rng() % 5 == 0) t.stop = job::bad_line{rng() % (t.lines + 1), rng() % (t.bytes + 1), "stop", 0, ""};
  return t;
}

void expect_equal(job::tally const& a, job::tally const& b) {
  EXPECT_EQ(a.bytes, b.bytes);
  EXPECT_EQ(a.lines, b.lines);
  EXPECT_EQ(a.skipped, b.skipped);
  ASSERT_EQ(a.first_skipped.size(), b.first_skipped.size());
  for (std::size_t i = 0; i < a.first_skipped.size(); ++i) {
    EXPECT_EQ(a.first_skipped[i].line, b.first_skipped[i].line);
    EXPECT_EQ(a.first_skipped[i].byte, b.first_skipped[i].byte);
    EXPECT_EQ(a.first_skipped[i].why, b.first_skipped[i].why);
  }
  ASSERT_EQ(a.stop.has_value(), b.stop.has_value());
  if (a.stop) {
    EXPECT_EQ(a.stop->line, b.stop->line);
    EXPECT_EQ(a.stop->byte, b.stop->byte);
  }
}

TEST(PartialMerge, TalliesAreAnOrderedMonoid) {
  std::mt19937 rng(21);
  for (int i = 0; i < 2000; ++i) {
    SCOPED_TRACE("seed=21 i=" + std::to_string(i));
    job::tally const a = random_tally(rng), b = random_tally(rng), c = random_tally(rng);
    expect_equal(job::merge(job::merge(a, b), c), job::merge(a, job::merge(b, c)));
    expect_equal(job::merge(job::tally{}, a), a);
    expect_equal(job::merge(a, job::tally{}), a);
  }
}

}  // namespace
