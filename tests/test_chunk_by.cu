// SPDX-License-Identifier: Apache-2.0
// chunk_by against a sequential walk, and the algebra of its scan element.
#include "reference/chunk_by_reference.hpp"
#include "rowscan/chunk_by.hpp"
#include "rowscan/lines.hpp"
#include "rowscan/records.hpp"

#include "support/light_mode.hpp"

#include <gtest/gtest.h>
#include <thrust/copy.h>
#include <thrust/device_vector.h>
#include <thrust/host_vector.h>

#include <algorithm>
#include <cstdint>
#include <random>
#include <string>
#include <utility>
#include <vector>

namespace {

using rowscan::index_range;
using chunks = std::vector<std::pair<std::size_t, std::size_t>>;

/// Equal neighbours stay together (runs of equal values).
struct equal_to {
  ROWSCAN_HD bool operator()(int a, int b) const { return a == b; }
};
/// Non-decreasing runs.
struct not_greater {
  ROWSCAN_HD bool operator()(int a, int b) const { return a <= b; }
};
/// Neighbours closer than 3 stay together.
struct close_to {
  ROWSCAN_HD bool operator()(int a, int b) const { return (a > b ? a - b : b - a) < 3; }
};
struct always {
  ROWSCAN_HD bool operator()(int, int) const { return true; }
};
struct never {
  ROWSCAN_HD bool operator()(int, int) const { return false; }
};

template <class Index, class Predicate>
chunks device_chunk_by(std::vector<int> const& values, Predicate pred) {
  rowscan::context ctx;
  thrust::device_vector<int> const d(values.begin(), values.end());
  std::size_t const count = rowscan::count_chunks<Index>(d.begin(), d.end(), pred, ctx);
  thrust::device_vector<index_range<Index>> out(count);
  auto const end = rowscan::chunk_by(d.begin(), d.end(), pred, out.begin(), ctx);
  EXPECT_EQ(static_cast<std::size_t>(end - out.begin()), count);
  thrust::host_vector<index_range<Index>> const h = out;
  chunks result;
  for (auto const& r : h) result.push_back({r.begin, r.end});
  return result;
}

template <class Predicate>
void expect_matches_reference(std::vector<int> const& values, Predicate pred) {
  auto const expected = reference::chunk_by(values, pred);
  EXPECT_EQ(device_chunk_by<std::uint32_t>(values, pred), expected);
  EXPECT_EQ(device_chunk_by<std::uint64_t>(values, pred), expected);
}

std::vector<int> random_values(std::size_t n, int range, std::uint32_t seed) {
  std::mt19937 rng(seed);
  std::uniform_int_distribution<int> dist(0, range - 1);
  std::vector<int> v(n);
  for (auto& x : v) x = dist(rng);
  return v;
}

TEST(ChunkBy, RandomValuesAndPredicates) {
  std::vector<std::size_t> const sizes = {1, 2, 31, 32, 33, 1000, 4097, 200000};
  for (std::size_t turn = 0; turn < sizes.size(); ++turn) {
    std::size_t const n = sizes[turn];
    for (int range : support::in_turn<int>({2, 5, 1000}, turn)) {  // light: every size, with one range in turn
      std::uint32_t const seed = static_cast<std::uint32_t>(n * 131 + static_cast<std::size_t>(range));
      SCOPED_TRACE("n=" + std::to_string(n) + " range=" + std::to_string(range) + " seed=" + std::to_string(seed));
      auto const values = random_values(n, range, seed);
      expect_matches_reference(values, equal_to{});
      expect_matches_reference(values, not_greater{});
      expect_matches_reference(values, close_to{});
    }
  }
}

TEST(ChunkBy, Empty) {
  expect_matches_reference({}, equal_to{});
  EXPECT_TRUE(device_chunk_by<std::uint32_t>({}, equal_to{}).empty());
}

TEST(ChunkBy, OneElement) { EXPECT_EQ(device_chunk_by<std::uint32_t>({7}, never{}), (chunks{{0, 1}})); }

TEST(ChunkBy, AllEqualIsOneChunk) {
  std::vector<int> const values(100000, 4);
  EXPECT_EQ(device_chunk_by<std::uint32_t>(values, equal_to{}), (chunks{{0, 100000}}));
  EXPECT_EQ(device_chunk_by<std::uint32_t>(values, always{}), (chunks{{0, 100000}}));
}

TEST(ChunkBy, AllDifferentIsOneChunkPerElement) {
  std::vector<int> values(5000);
  for (std::size_t i = 0; i < values.size(); ++i) values[i] = static_cast<int>(i);
  auto const result = device_chunk_by<std::uint32_t>(values, equal_to{});
  ASSERT_EQ(result.size(), values.size());
  for (std::size_t i = 0; i < result.size(); ++i) EXPECT_EQ(result[i], std::make_pair(i, i + 1));
  EXPECT_EQ(device_chunk_by<std::uint32_t>(random_values(777, 9, 3), never{}).size(), 777u);
}

TEST(ChunkBy, RejectsPositionsTooWideForTheIndex) {
  auto const many = thrust::counting_iterator<std::uint64_t>(0);
  thrust::device_vector<index_range<std::uint8_t>> out(1);
  EXPECT_THROW(rowscan::chunk_by(many, many + 300, always{}, out.begin()), rowscan::error);
}

// ---- the scan element ------------------------------------------------------------------------------

using interval = rowscan::interval<std::uint32_t>;

bool same(interval const& a, interval const& b) {
  return a.flag == b.flag && a.index == b.index && a.end == b.end && (!a.flag || a.start == b.start);
}

interval random_interval(std::mt19937& rng) {
  std::uniform_int_distribution<std::uint32_t> dist(0, 1000);
  bool const flag = dist(rng) % 2 == 0;
  return {flag, flag ? 1 + dist(rng) : 0, dist(rng), dist(rng)};
}

TEST(IntervalPlus, IsAssociativeOnRandomTriples) {
  std::mt19937 rng(2024);
  rowscan::interval_plus<std::uint32_t> plus;
  for (int trial = 0; trial < 100000; ++trial) {
    interval const a = random_interval(rng), b = random_interval(rng), c = random_interval(rng);
    ASSERT_TRUE(same(plus(plus(a, b), c), plus(a, plus(b, c)))) << "trial " << trial << " of seed 2024";
  }
}

TEST(IntervalPlus, IsNotCommutative) {
  interval const a{true, 1, 0, 3}, b{true, 1, 3, 5};
  EXPECT_FALSE(same(rowscan::interval_plus<std::uint32_t>{}(a, b), rowscan::interval_plus<std::uint32_t>{}(b, a)));
}

/// The combine exactly as the podcast states it: the flag, and whether to count a new chunk, come
/// from the right operand alone. Folding left to right it works; regrouped, it loses chunks.
TEST(IntervalPlus, ThePodcastsRightFlagCombineIsNotAssociative) {
  struct podcast_interval { bool continues; int index, start, end; };
  auto combine = [](podcast_interval l, podcast_interval r) {
    return podcast_interval{r.continues, r.continues ? l.index + r.index : l.index + r.index + 1,
                            r.continues ? l.start + r.start : l.end, l.end + r.end};
  };
  podcast_interval const a{true, 0, 0, 1}, b{false, 0, 0, 1}, c{true, 0, 0, 1};  // "x|yz": b starts a chunk
  EXPECT_EQ(combine(combine(a, b), c).index, 1);
  EXPECT_EQ(combine(a, combine(b, c)).index, 0);  // the chunk started by b is lost
}

// ---- lines --------------------------------------------------------------------------------------------

chunks lines_of(std::string const& text) {
  rowscan::context ctx;
  thrust::device_vector<char> const d(text.begin(), text.end());
  thrust::device_vector<rowscan::record_range> records;
  rowscan::find_lines(thrust::raw_pointer_cast(d.data()), d.size(), records, ctx);
  thrust::host_vector<rowscan::record_range> const h = records;
  chunks result;
  for (auto const& r : h) result.push_back({r.begin, r.end});
  return result;
}

TEST(FindLines, WorkedExampleOfTheHeader) { EXPECT_EQ(lines_of("ab\nc\nde"), (chunks{{0, 3}, {3, 5}, {5, 7}})); }

TEST(FindLines, EdgeCases) {
  EXPECT_EQ(lines_of(""), chunks{});
  EXPECT_EQ(lines_of("\n"), (chunks{{0, 1}}));
  EXPECT_EQ(lines_of("a;1.0\n"), (chunks{{0, 6}}));
  EXPECT_EQ(lines_of("a;1.0"), (chunks{{0, 5}}));
  EXPECT_EQ(lines_of("\n\n\n"), (chunks{{0, 1}, {1, 2}, {2, 3}}));
}

TEST(FindLines, RandomTextMatchesSplittingOnNewlines) {
  std::mt19937 rng(77);
  for (std::size_t n : {1u, 100u, 10000u, 300000u}) {
    SCOPED_TRACE("n=" + std::to_string(n) + " seed=77");
    std::string text(n, 'x');
    for (auto& c : text) c = rng() % 8 == 0 ? '\n' : static_cast<char>('a' + rng() % 26);
    std::vector<char> const bytes(text.begin(), text.end());
    auto const expected = reference::chunk_by(bytes, [](char a, char) { return a != '\n'; });
    EXPECT_EQ(lines_of(text), expected);
  }
}

/// find_lines on text placed at every offset 0..15 from a 16-byte boundary, against the byte-per-element
/// chunk_by and the reference: the first and last words are partial in every way.
TEST(FindLines, MisalignedTextMatchesTheBytewiseChunkBy) {
  std::mt19937 rng(78);
  rowscan::context ctx;
  for (std::size_t n : {1u, 15u, 16u, 17u, 33u, 1000u, 65537u}) {
    std::string text(n, 'x');
    for (auto& c : text) c = rng() % 5 == 0 ? '\n' : static_cast<char>('a' + rng() % 26);
    std::vector<char> const bytes(text.begin(), text.end());
    auto const expected = reference::chunk_by(bytes, [](char a, char) { return a != '\n'; });
    for (std::size_t shift = 0; shift < rowscan::text_word_bytes; ++shift) {
      if (!support::light_picks(shift + n, 3)) continue;  // light: a third of the pairs, every shift with 2-3 sizes
      SCOPED_TRACE("n=" + std::to_string(n) + " shift=" + std::to_string(shift) + " seed=78");
      thrust::device_vector<char> d(shift + n);
      thrust::copy(text.begin(), text.end(), d.begin() + static_cast<std::ptrdiff_t>(shift));
      char const* at = thrust::raw_pointer_cast(d.data()) + shift;
      thrust::device_vector<rowscan::record_range> fast, bytewise;
      rowscan::find_lines(at, n, fast, ctx);
      rowscan::find_lines_bytewise(at, n, bytewise, ctx);
      thrust::host_vector<rowscan::record_range> const f = fast, b = bytewise;
      chunks got, got_bytewise;
      for (auto const& r : f) got.push_back({r.begin, r.end});
      for (auto const& r : b) got_bytewise.push_back({r.begin, r.end});
      EXPECT_EQ(got, expected);
      EXPECT_EQ(got_bytewise, expected);
      EXPECT_EQ(rowscan::count_lines(at, n, ctx), expected.size());
    }
  }
}

/// find_lines_in_one_scan gives find_lines' records whether the room it makes holds every line or not:
/// lines of 1 to 2 * mean bytes against rooms for lines of 1, mean / 2, mean and 4 * mean bytes (the last
/// too small: the text is scanned again), each with records left from a longer text before it; on the
/// host systems find_lines_walking too (its room doubles instead).
TEST(FindLines, OneScanMatchesTheReferenceWhetherItsRoomHoldsTheLinesOrNot) {
  std::mt19937 rng(79);
  rowscan::context ctx;
  thrust::device_vector<std::uint32_t> count(1);
  for (std::size_t mean : {3u, 20u, 120u}) {
    for (std::size_t n : {0u, 1u, 17u, 5000u, 200000u}) {
      std::string text;
      while (text.size() < n) text += std::string(1 + rng() % (2 * mean), 'x') + "\n";
      text.resize(n);  // the last line may lack its '\n'
      std::vector<char> const bytes(text.begin(), text.end());
      auto const expected = reference::chunk_by(bytes, [](char a, char) { return a != '\n'; });
      thrust::device_vector<char> const d(text.begin(), text.end());
      for (std::size_t usual : {std::size_t{1}, mean / 2 + 1, mean, 4 * mean}) {
        SCOPED_TRACE("mean=" + std::to_string(mean) + " n=" + std::to_string(n) + " usual=" + std::to_string(usual) +
                     " seed=79");
        thrust::device_vector<rowscan::record_range> records(n + 7, rowscan::record_range{99, 99});  // stale rows
        rowscan::find_lines_in_one_scan(thrust::raw_pointer_cast(d.data()), d.size(), usual, records,
                                        thrust::raw_pointer_cast(count.data()), ctx);
        thrust::host_vector<rowscan::record_range> const h = records;
        chunks got;
        for (auto const& r : h) got.push_back({r.begin, r.end});
        EXPECT_EQ(got, expected);
#if !ROWSCAN_HAS_CUB
        // The host workers' walk, whose room doubles where the scan's would be counted again.
        thrust::device_vector<rowscan::record_range> walked(n + 7, rowscan::record_range{99, 99});
        rowscan::find_lines_walking(text.data(), text.size(), usual, walked, ctx);
        thrust::host_vector<rowscan::record_range> const w = walked;
        chunks got_walking;
        for (auto const& r : w) got_walking.push_back({r.begin, r.end});
        EXPECT_EQ(got_walking, expected);
#endif
      }
    }
  }
}

/// for_each_line reports the line count through its device counter, also for an empty text.
TEST(ForEachLine, CountsLinesIntoTheDeviceCounter) {
  rowscan::context ctx;
  for (std::string const text : {"", "a", "a\n", "\n\n", "ab\ncd\ne\nfgh"}) {
    SCOPED_TRACE("text='" + text + "'");
    thrust::device_vector<char> const d(text.begin(), text.end());
    thrust::device_vector<std::uint32_t> count(1, 12345);
    thrust::device_vector<rowscan::record_range> records(text.size() + 1);
    rowscan::for_each_line(thrust::raw_pointer_cast(d.data()), d.size(),
                           rowscan::store_record{thrust::raw_pointer_cast(records.data())},
                           thrust::raw_pointer_cast(count.data()), ctx);
    std::vector<char> const bytes(text.begin(), text.end());
    EXPECT_EQ(static_cast<std::uint32_t>(count[0]),
              reference::chunk_by(bytes, [](char a, char) { return a != '\n'; }).size());
  }
}

/// The 8-byte line_interval_plus is associative: (a+b)+c == a+(b+c) over random triples.
TEST(LineIntervalPlus, IsAssociative) {
  std::mt19937 rng(79);
  rowscan::line_interval_plus plus;
  auto random_interval = [&] {
    std::uint32_t const lines = rng() % 3;
    return rowscan::line_interval{lines, lines == 0 ? 0u : static_cast<std::uint32_t>(rng() % 1000)};
  };
  for (int i = 0; i < 10000; ++i) {
    auto const a = random_interval(), b = random_interval(), c = random_interval();
    auto const left = plus(plus(a, b), c), right = plus(a, plus(b, c));
    ASSERT_EQ(left.lines, right.lines) << "seed=79 i=" << i;
    if (left.lines != 0) {
      ASSERT_EQ(left.start, right.start) << "seed=79 i=" << i;
    }
  }
}

}  // namespace

/// whole_lines_through rounds a position up to the end of the line that holds the byte before it.
TEST(WholeLinesThrough, RoundsUpToTheEndOfALine) {
  std::string const text = "ab\ncde\nf";
  EXPECT_EQ(rowscan::whole_lines_through(text.data(), text.size(), 0), 0u);
  EXPECT_EQ(rowscan::whole_lines_through(text.data(), text.size(), 1), 3u);
  EXPECT_EQ(rowscan::whole_lines_through(text.data(), text.size(), 3), 3u);  // byte 2 is the '\n'
  EXPECT_EQ(rowscan::whole_lines_through(text.data(), text.size(), 4), 7u);
  EXPECT_EQ(rowscan::whole_lines_through(text.data(), text.size(), 8), 8u);  // the unterminated last line
  EXPECT_EQ(rowscan::whole_lines_through(text.data(), text.size(), 100), 8u);
}
