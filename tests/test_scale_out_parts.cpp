// SPDX-License-Identifier: Apache-2.0
// The parts of the scale-out (issue 15), each against a plain reference: the stations and lineitem
// answers merged in any grouping, the line_origin and input_outcome monoids, the byte ranges moved to
// line starts, the shares of the input, and the bytes partial answers travel as.
#include "rowscan/io/byte_range.hpp"
#include "rowscan/lineitem/merge_summaries.hpp"
#include "rowscan/stations/merge_summaries.hpp"

#include "rowscan/inputs/outcome.hpp"
#include "rowscan/inputs/sources.hpp"
#include "partial_wire.hpp"

#include "support/stations_text.hpp"
#include "support/temp_input.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <functional>
#include <map>
#include <random>
#include <string>
#include <vector>

namespace {

using namespace rowscan;

/// The beginner's answer: every (name, tenths) in a std::map.
std::vector<stations::station_summary> reference_stations(std::vector<std::pair<std::string, int>> const& records) {
  std::map<std::string, stations::station_summary> by_name;
  for (auto const& [name, tenths] : records) {
    auto [it, fresh] = by_name.try_emplace(name, stations::station_summary{name, tenths, tenths, 0, 0});
    it->second.min = std::min(it->second.min, tenths);
    it->second.max = std::max(it->second.max, tenths);
    it->second.sum += tenths;
    it->second.count += 1;
    (void)fresh;
  }
  std::vector<stations::station_summary> out;
  out.reserve(by_name.size());
  for (auto& [name, s] : by_name) out.push_back(s);
  return out;
}

bool same(std::vector<stations::station_summary> const& a, std::vector<stations::station_summary> const& b) {
  if (a.size() != b.size()) return false;
  for (std::size_t i = 0; i < a.size(); ++i) {
    if (a[i].name != b[i].name || a[i].min != b[i].min || a[i].max != b[i].max || a[i].sum != b[i].sum ||
        a[i].count != b[i].count) {
      return false;
    }
  }
  return true;
}

/// Merges parts[lo, hi) in a random bracketing.
template <class T, class Merge>
T merge_bracketed(std::vector<T> const& parts, std::size_t lo, std::size_t hi, std::mt19937& rng, Merge merge) {
  if (hi - lo == 1) return parts[lo];
  std::size_t const cut = lo + 1 + rng() % (hi - lo - 1);
  return merge(merge_bracketed(parts, lo, cut, rng, merge), merge_bracketed(parts, cut, hi, rng, merge));
}

TEST(MergeSummaries, StationsMatchTheReferenceInAnyGroupingAndOrder) {
  for (std::uint32_t seed = 1; seed <= 40; ++seed) {
    SCOPED_TRACE("seed " + std::to_string(seed));
    std::mt19937 rng(seed);
    // Few names, so that parts share stations; bytes >= 0x80 and '\t' test the unsigned order.
    std::vector<std::string> names;
    for (int i = 0, n = 1 + static_cast<int>(rng() % 40); i < n; ++i) names.push_back(support::random_name(rng, 6));
    std::vector<std::pair<std::string, int>> all;
    std::size_t const part_count = 1 + rng() % 8;
    std::vector<stations::summary> parts(part_count);
    for (auto& part : parts) {
      std::vector<std::pair<std::string, int>> records;
      for (std::size_t r = rng() % 60; r > 0; --r) records.emplace_back(names[rng() % names.size()], static_cast<int>(rng() % 1999) - 999);
      all.insert(all.end(), records.begin(), records.end());
      part.stations = reference_stations(records);
      part.bytes = records.size() * 7;
      part.lines = records.size();
      part.chunks = 1;
    }
    auto const expected = reference_stations(all);
    auto const bracketed = merge_bracketed(parts, 0, parts.size(), rng, stations::merge_summaries);
    EXPECT_TRUE(same(bracketed.stations, expected));
    EXPECT_EQ(bracketed.lines, all.size());
    EXPECT_EQ(bracketed.chunks, part_count);
    std::shuffle(parts.begin(), parts.end(), rng);  // the answer's merge is commutative too
    stations::summary folded;
    for (auto const& part : parts) folded = stations::merge_summaries(folded, part);
    EXPECT_TRUE(same(folded.stations, expected));
  }
}

TEST(MergeSummaries, StationsEdgeCases) {
  stations::summary empty, one;
  one.stations = {{"\xc3\xa9", -5, 7, 2, 2}, {"a", 1, 1, 1, 1}};  // not in unsigned order: as given, kept
  std::sort(one.stations.begin(), one.stations.end(), [](auto const& a, auto const& b) { return a.name < b.name; });
  EXPECT_EQ(one.stations.front().name, "a");  // 'a' (0x61) before 0xc3: std::string compares unsigned bytes
  EXPECT_TRUE(same(stations::merge_summaries(empty, one).stations, one.stations));
  EXPECT_TRUE(same(stations::merge_summaries(one, empty).stations, one.stations));
  auto const twice = stations::merge_summaries(one, one);
  EXPECT_EQ(twice.stations[1].count, 4);
  EXPECT_EQ(twice.stations[1].min, -5);
  EXPECT_EQ(twice.stations[1].sum, 4);
}

TEST(MergeSummaries, LineitemAddsEveryThreshold) {
  std::mt19937 rng(7);
  auto a = lineitem::empty_summary({10, 500});
  auto b = lineitem::empty_summary({10, 500});
  a.answers[0].sum_cents = lineitem::uint128{1} << 100;
  a.answers[0].rows = 3;
  b.answers[0].sum_cents = 5;
  b.answers[1].sum_cents = rng();
  b.answers[1].rows = 1;
  auto const both = lineitem::merge_summaries(a, b);
  EXPECT_TRUE(both.answers[0].sum_cents == (lineitem::uint128{1} << 100) + 5);
  EXPECT_EQ(both.answers[0].rows, 3u);
  EXPECT_TRUE(both.answers[1].sum_cents == b.answers[1].sum_cents);
  EXPECT_THROW(lineitem::merge_summaries(a, lineitem::empty_summary({10})), rowscan::error);
}

bool same(inputs::line_origin const& a, inputs::line_origin const& b) {
  if (a.empty || b.empty) return a.empty == b.empty;
  return a.first_source == b.first_source && a.last_source == b.last_source && a.lines_in_last == b.lines_in_last;
}

TEST(LineOrigin, IsAMonoidThatRestartsWithEachFile) {
  std::mt19937 rng(11);
  // Origins of consecutive pieces: each starts in the file where the one before ended, or a later one.
  std::uint64_t file = 0;
  auto next_origin = [&] {
    if (rng() % 5 == 0) return inputs::line_origin{};
    std::uint64_t const first = file + rng() % 2;
    file = first + rng() % 2;
    return inputs::line_origin{false, first, file, rng() % 100};
  };
  for (int trial = 0; trial < 2000; ++trial) {
    SCOPED_TRACE("trial " + std::to_string(trial));
    auto const a = next_origin(), b = next_origin(), c = next_origin();
    EXPECT_TRUE(same(then(then(a, b), c), then(a, then(b, c))));
    EXPECT_TRUE(same(then(a, inputs::line_origin{}), a));
    EXPECT_TRUE(same(then(inputs::line_origin{}, a), a));
  }
  // a.txt's 3 lines, then 4 more of a.txt: 7; then b.txt: it starts again.
  inputs::line_origin const a3{false, 0, 0, 3}, a4{false, 0, 0, 4}, b2{false, 1, 1, 2};
  EXPECT_EQ(then(a3, a4).lines_before(0), 7u);
  EXPECT_EQ(then(then(a3, a4), b2).lines_before(1), 2u);
  EXPECT_EQ(then(then(a3, a4), b2).lines_before(2), 0u);
}

TEST(InputOutcome, IsOrderedAndTheFirstStopWins) {
  auto piece = [](std::uint64_t lines, std::vector<std::uint64_t> const& bad, bool stop) {
    inputs::input_outcome o;
    o.lines = lines;
    o.bytes = lines * 10;
    for (std::uint64_t line : bad) {
      ++o.skipped;
      o.skip({"f", line, line * 10, "bad", 0, ""});
    }
    if (stop) o.stop = "f:" + std::to_string(lines) + ": stop";
    return o;
  };
  std::vector<inputs::input_outcome> const parts = {piece(3, {1, 2}, false), piece(4, {3, 4, 5}, false),
                                                 piece(2, {6}, true), piece(5, {7}, true)};
  std::mt19937 rng(3);
  for (int trial = 0; trial < 50; ++trial) {
    auto const merged = merge_bracketed(parts, 0, parts.size(), rng,
                                        [](inputs::input_outcome a, inputs::input_outcome const& b) { return then(std::move(a), b); });
    EXPECT_EQ(merged.skipped, 6u);
    ASSERT_EQ(merged.first_skipped.size(), 5u);
    EXPECT_EQ(merged.first_skipped[4].line, 5u);
    EXPECT_EQ(*merged.stop, "f:2: stop");
  }
}

TEST(ByteRange, EveryLineLandsInTheRangeWhereItStarts) {
  for (std::uint32_t seed = 1; seed <= 30; ++seed) {
    SCOPED_TRACE("seed " + std::to_string(seed));
    std::mt19937 rng(seed);
    std::string text;
    for (int lines = 1 + static_cast<int>(rng() % 40); lines > 0; --lines) {
      text += std::string(rng() % (rng() % 4 == 0 ? 200000 : 30), 'x');  // some lines longer than a 64 KiB read
      text += '\n';
    }
    if (rng() % 2) text += "last";
    support::temp_input file(text);
    std::uint64_t const size = text.size();
    auto reference = [&](std::uint64_t x) -> std::uint64_t {  // the first line start at or after x
      if (x == 0) return 0;
      for (std::uint64_t at = x; at < size; ++at) {
        if (text[at - 1] == '\n') return at;
      }
      return size;
    };
    for (int probe = 0; probe < 50; ++probe) {
      std::uint64_t const x = rng() % (size + 1);
      EXPECT_EQ(io::line_start_at_or_after(file.fd(), x, size, "t"), reference(x)) << "offset " << x;
    }
  }
}

TEST(Shares, PartitionTheInputInOrderForEveryRankCount) {
  std::mt19937 rng(5);
  for (int trial = 0; trial < 200; ++trial) {
    SCOPED_TRACE("trial " + std::to_string(trial));
    std::vector<inputs::input_source> sources;
    for (std::size_t n = rng() % 6; n > 0; --n) {
      std::uint64_t const size = rng() % 4 == 0 ? 0 : rng() % 1000;
      sources.push_back({"f" + std::to_string(sources.size()), size, size > 0 && rng() % 3 != 0});
    }
    int const ranks = 1 + static_cast<int>(rng() % 6);
    // Every byte of every source exactly once, in input order across ranks; unsplittable ones whole.
    std::vector<std::pair<std::size_t, std::uint64_t>> covered;  // (source, byte)
    std::vector<std::size_t> whole_seen(sources.size(), 0);
    for (int r = 0; r < ranks; ++r) {
      for (inputs::input_piece const& p : inputs::share_of(sources, r, ranks)) {
        if (!sources[p.source].splittable) {
          EXPECT_TRUE(p.whole);
          ++whole_seen[p.source];
        }
        EXPECT_EQ(p.whole, p.begin == 0 && p.end == sources[p.source].size);
        for (std::uint64_t b = p.begin; b < p.end; ++b) covered.emplace_back(p.source, b);
      }
    }
    std::vector<std::pair<std::size_t, std::uint64_t>> expected;
    for (std::size_t s = 0; s < sources.size(); ++s) {
      for (std::uint64_t b = 0; b < sources[s].size; ++b) expected.emplace_back(s, b);
      if (!sources[s].splittable) {
        EXPECT_EQ(whole_seen[s], 1u) << "source " << s;
      }
    }
    EXPECT_EQ(covered, expected);
  }
}

TEST(PartialWire, AnswersAndOutcomesRoundTrip) {
  stations::summary s;
  s.stations = {{"a;b", -999, 999, 12345678901, 7}, {"", 0, 0, 0, 1}};
  s.bytes = 10;
  s.lines = 2;
  s.fast_chunks = 3;
  s.times.add("sort", 0.25);
  lineitem::summary l = lineitem::empty_summary({1, 2});
  l.answers[1].sum_cents = (lineitem::uint128{1} << 90) + 1;
  l.rows = 9;
  inputs::input_outcome o;
  o.skipped = 2;
  o.skip({"x.txt", 3, 40, "why", 7, "\"line\""});
  o.stop = "x.txt:9: byte 90: stop";
  app::wire_writer out;
  encode(out, s);
  encode(out, l);
  encode(out, o);
  app::wire_reader in(out.bytes());
  stations::summary s2;
  lineitem::summary l2;
  inputs::input_outcome o2;
  decode(in, s2);
  decode(in, l2);
  decode(in, o2);
  EXPECT_TRUE(same(s2.stations, s.stations));
  EXPECT_EQ(s2.fast_chunks, 3u);
  EXPECT_EQ(s2.times.seconds("sort"), 0.25);
  EXPECT_TRUE(l2.answers[1].sum_cents == l.answers[1].sum_cents);
  EXPECT_EQ(l2.rows, 9u);
  EXPECT_EQ(o2.first_skipped[0].as_error().what(), std::string("x.txt:3:7: why: \"line\""));
  EXPECT_EQ(o2.first_skipped[0].byte, 40u);
  EXPECT_EQ(*o2.stop, *o.stop);
  app::wire_reader short_bytes(out.bytes().substr(0, 5));
  EXPECT_THROW(decode(short_bytes, s2), rowscan::error);
}

}  // namespace
