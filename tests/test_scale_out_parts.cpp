// SPDX-License-Identifier: Apache-2.0
// The parts of the scale-out, each against a plain reference: the stations and lineitem
// answers merged in any grouping, the tallies of pieces across files (job::tally), the byte ranges moved to
// line starts, the shares of the input, and the bytes partial answers travel as.
#include "rowscan/group/workload.hpp"
#include "rowscan/io/byte_range.hpp"
#include "rowscan/lineitem/merge_summaries.hpp"
#include "rowscan/lineitem/workload.hpp"
#include "rowscan/stations/merge_summaries.hpp"
#include "rowscan/stations/workload.hpp"

#include "rowscan/inputs/outcome.hpp"
#include "rowscan/job/tally.hpp"
#include "rowscan/skipped_lines.hpp"
#include "rowscan/inputs/sources.hpp"
#include "rowscan/inputs/partial_wire.hpp"

#include "support/stations_text.hpp"
#include "support/temp_input.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <functional>
#include <map>
#include <optional>
#include <random>
#include <string>
#include <vector>

namespace {

using namespace rowscan;
using inputs::decode;
using inputs::encode;

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

/// A file of the list, line by line: each line's bytes (its '\n' included) and whether it is good,
/// left out (--skip-invalid) or ends the run.
enum class line_kind { good, skipped, stop };
struct listed_file {
  std::uint64_t bom = 0;  // a byte order mark before the first line: 0 or 3 bytes
  std::vector<std::pair<std::uint64_t, line_kind>> lines;
};

/// The tally of lines [from, to) of file `f` as a worker reports it: positions from the piece's
/// start, the first piece of a file (`opens`) counting the byte order mark before it.
job::tally piece_tally(listed_file const& file, std::uint64_t f, std::size_t from, std::size_t to, bool opens) {
  job::tally t;
  t.source = f;
  t.opens_source = opens;
  t.bytes = opens ? file.bom : 0;
  for (std::size_t i = from; i < to && !t.stopped(); ++i) {
    auto const [bytes, kind] = file.lines[i];
    job::bad_line const here{t.lines, t.bytes, "bad", 1, "", f};
    if (kind == line_kind::skipped) {
      ++t.skipped;
      t.skip(here);
    }
    if (kind == line_kind::stop) t.stop = here;
    t.lines += 1;
    t.bytes += bytes;
  }
  return t;
}

TEST(TallyAcrossInputs, PlacesEveryBadLineInItsFileInAnyBracketing) {
  for (std::uint32_t seed = 1; seed <= 300; ++seed) {
    SCOPED_TRACE("seed " + std::to_string(seed));
    std::mt19937 rng(seed);
    std::vector<listed_file> files(1 + rng() % 5);
    for (listed_file& file : files) {
      file.bom = rng() % 3 == 0 ? 3 : 0;
      for (std::size_t n = rng() % 12; n > 0; --n) {
        std::uint32_t const roll = rng() % 20;
        file.lines.emplace_back(1 + rng() % 30, roll == 0 ? line_kind::stop : roll < 5 ? line_kind::skipped : line_kind::good);
      }
    }
    // The reference: one walk over the list, positions counted in each file from its byte 0.
    std::vector<job::bad_line> skipped;
    std::optional<job::bad_line> stop;
    std::uint64_t all_lines = 0, all_bytes = 0;
    for (std::uint64_t f = 0; f < files.size() && !stop; ++f) {
      std::uint64_t byte = files[f].bom;
      all_bytes += files[f].bom;
      for (std::uint64_t line = 0; line < files[f].lines.size() && !stop; ++line) {
        auto const [bytes, kind] = files[f].lines[line];
        if (kind == line_kind::skipped) skipped.push_back({line, byte, "bad", 1, "", f});
        if (kind == line_kind::stop) stop = job::bad_line{line, byte, "bad", 1, "", f};
        byte += bytes;
        all_bytes += bytes;
        all_lines += 1;
      }
    }
    // Pieces: each file cut at random lines, empty pieces (a range inside one line) included; only
    // the first piece of a file opens it.
    std::vector<job::tally> pieces;
    for (std::uint64_t f = 0; f < files.size(); ++f) {
      std::size_t from = 0;
      bool opens = true;
      do {
        std::size_t const to = from + rng() % (files[f].lines.size() - from + 1);
        pieces.push_back(piece_tally(files[f], f, from, to, opens));
        from = to;
        opens = false;
      } while (from < files[f].lines.size());
    }
    for (int bracketing = 0; bracketing < 5; ++bracketing) {
      job::tally const merged = merge_bracketed(pieces, 0, pieces.size(), rng,
                                                  [](job::tally a, job::tally const& b) { return job::merge(std::move(a), b); });
      EXPECT_EQ(merged.skipped, skipped.size());
      ASSERT_EQ(merged.first_skipped.size(), std::min(skipped.size(), job::tally::kept));
      for (std::size_t i = 0; i < merged.first_skipped.size(); ++i) {
        EXPECT_EQ(merged.first_skipped[i].source, skipped[i].source) << "skipped line " << i;
        EXPECT_EQ(merged.first_skipped[i].line, skipped[i].line) << "skipped line " << i;
        EXPECT_EQ(merged.first_skipped[i].byte, skipped[i].byte) << "skipped line " << i;
      }
      ASSERT_EQ(merged.stop.has_value(), stop.has_value());
      if (stop) {
        EXPECT_EQ(merged.stop->source, stop->source);
        EXPECT_EQ(merged.stop->line, stop->line);
        EXPECT_EQ(merged.stop->byte, stop->byte);
      } else {
        EXPECT_EQ(merged.all_lines(), all_lines);
        EXPECT_EQ(merged.all_bytes(), all_bytes);
      }
    }
  }
}

/// The tally of pieces in input order, merged left to right.
job::tally merged_in_order(std::vector<job::tally> const& tallies) {
  job::tally out;
  for (job::tally const& t : tallies) out = job::merge(std::move(out), t);
  return out;
}

TEST(TallyAcrossInputs, WordsTheStopAndTheSkippedLinesInTheirOwnFiles) {
  // a.txt's lines 0..2 in one piece, 3..6 in the next; b.txt (a byte order mark, then 10-byte lines)
  // in two pieces, the second's first line bad.
  std::vector<inputs::input_source> const sources = {{"a.txt", 90, true}, {"b.txt", 43, true}};
  job::tally a1, a2, b1, b2;
  a1.opens_source = true;
  a1.lines = 3;
  a1.bytes = 40;
  a2.lines = 4;
  a2.bytes = 50;
  a2.skipped = 1;
  a2.skip({1, 12, "bad", 2, "\"q\"", 0});
  b1.source = b2.source = 1;
  b1.opens_source = true;
  b1.lines = 2;
  b1.bytes = 3 + 20;
  b2.stop = job::bad_line{0, 4, "too hot", 5, "\"x;99\"", 1};
  job::tally const all = merged_in_order({a1, a2, b1, b2});
  EXPECT_EQ(inputs::stop_message(all, sources).value_or(""), "b.txt:3:5: too hot: \"x;99\"");
  skipped_lines const skipped = inputs::skipped_record(all, sources);
  ASSERT_EQ(skipped.first().size(), 1u);
  EXPECT_EQ(std::string(skipped.first()[0].what()), "a.txt:5:2: bad: \"q\"");
  EXPECT_EQ(skipped.first()[0].byte_offset(), 52u);
  // Whatever follows the stop never happened; a failure worded in full ends the run as well.
  job::tally failed;
  failed.source = 1;
  failed.failure = "b.txt: cannot decompress";
  EXPECT_EQ(inputs::stop_message(merged_in_order({a1, failed, b2}), sources).value_or(""), "b.txt: cannot decompress");
  EXPECT_FALSE(inputs::stop_message(merged_in_order({a1, a2, b1}), sources).has_value());
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
  s.general_chunks = 5;
  s.over_limit_chunks = 4;
  s.times.add("sort", 0.25);
  lineitem::summary l = lineitem::empty_summary({1, 2});
  l.answers[1].sum_cents = (lineitem::uint128{1} << 90) + 1;
  l.rows = 9;
  job::tally o;
  o.skipped = 2;
  o.skip({3, 40, "why", 7, "\"line\"", 1});
  o.stop = job::bad_line{9, 90, "stop", 0, "", 1};
  o.failure = "also";
  o.source = 4;
  o.opens_source = true;
  o.earlier_bytes = 1234;
  o.earlier_lines = 56;
  wire_writer out;
  stations::workload::encode(out, s);
  lineitem::workload::encode(out, l);
  encode(out, o);
  wire_reader in(out.bytes());
  stations::summary s2;
  lineitem::summary l2;
  job::tally o2;
  stations::workload::decode(in, s2);
  lineitem::workload::decode(in, l2);
  decode(in, o2);
  EXPECT_TRUE(same(s2.stations, s.stations));
  EXPECT_EQ(s2.fast_chunks, 3u);
  EXPECT_EQ(s2.general_chunks, 5u);
  EXPECT_EQ(s2.over_limit_chunks, 4u);
  EXPECT_EQ(s2.times.seconds("sort"), 0.25);
  EXPECT_TRUE(l2.answers[1].sum_cents == l.answers[1].sum_cents);
  EXPECT_EQ(l2.rows, 9u);
  EXPECT_EQ(job::located(o2.first_skipped[0], "x.txt").what(), std::string("x.txt:4:7: why: \"line\""));
  EXPECT_EQ(o2.first_skipped[0].byte, 40u);
  EXPECT_EQ(o2.first_skipped[0].source, 1u);
  ASSERT_TRUE(o2.stop.has_value());
  EXPECT_EQ(o2.stop->line, 9u);
  EXPECT_EQ(o2.stop->source, 1u);
  EXPECT_EQ(o2.failure, o.failure);
  EXPECT_EQ(o2.all_bytes(), o.all_bytes());
  EXPECT_EQ(o2.all_lines(), o.all_lines());
  EXPECT_EQ(o2.source, 4u);
  EXPECT_TRUE(o2.opens_source);
  wire_reader short_bytes(out.bytes().substr(0, 5));
  EXPECT_THROW(stations::workload::decode(short_bytes, s2), rowscan::error);
}

TEST(PartialWire, GroupAnswersRoundTripAndMergeAtTheLargerScale) {
  group::summary a;
  a.scales = {1, 0};
  a.rows = {{"k", {{2, 1, -15, -10, -5}, {1, 0, 7, 7, 7}}},
            {std::string("x\0y", 3), {{1, 0, (__int128{1} << 100), (__int128{1} << 100), (__int128{1} << 100)}, {}}}};
  a.records = 4;
  a.bytes = 30;
  wire_writer out;
  group::workload::encode(out, a);
  wire_reader in(out.bytes());
  group::summary a2;
  group::workload::decode(in, a2);
  ASSERT_EQ(a2.rows.size(), 2u);
  EXPECT_EQ(a2.rows[1].key, a.rows[1].key);
  EXPECT_TRUE(a2.rows[1].values[0].sum == a.rows[1].values[0].sum);
  EXPECT_EQ(a2.rows[0].values[0].missing, 1u);
  EXPECT_EQ(a2.scales, a.scales);
  EXPECT_EQ(a2.records, 4u);
  EXPECT_EQ(a2.bytes, 30u);

  // b has column 0 at scale 2: a's figures are lifted (times 10) before they combine.
  group::summary b;
  b.scales = {2, 0};
  b.rows = {{"a", {{0, 2, 0, 0, 0}, {0, 0, 0, 0, 0}}}, {"k", {{1, 0, 125, 125, 125}, {0, 1, 0, 0, 0}}}};  // key order
  group::summary const ab = group::merge_summaries(a, b);
  group::summary const ba = group::merge_summaries(b, a);
  ASSERT_EQ(ab.rows.size(), 3u);
  EXPECT_EQ(ab.rows[0].key, "a");
  EXPECT_EQ(ab.scales, (std::vector<unsigned>{2, 0}));
  group::value_stats const k = ab.rows[1].values[0];
  EXPECT_EQ(k.count, 3u);
  EXPECT_EQ(k.missing, 1u);
  EXPECT_TRUE(k.sum == -150 + 125 && k.min == -100 && k.max == 125);
  EXPECT_EQ(group::decimal_text(group::rounded_mean(k), 2), "-0.08");  // -25 / 3 = -8.33, half up
  for (std::size_t i = 0; i < ab.rows.size(); ++i) {
    EXPECT_EQ(ab.rows[i].key, ba.rows[i].key);
    EXPECT_TRUE(ab.rows[i].values[0].sum == ba.rows[i].values[0].sum);
  }
  EXPECT_EQ(group::decimal_text(-5, 3), "-0.005");
  EXPECT_EQ(group::decimal_text(0, 0), "0");
  EXPECT_EQ(group::rounded_mean({2, 0, -5, 0, 0}), -2);  // -2.5: half up is -2
  EXPECT_EQ(group::rounded_mean({2, 0, 5, 0, 0}), 3);
}

}  // namespace
