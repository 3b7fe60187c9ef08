// SPDX-License-Identifier: Apache-2.0
// Bad input for every workload, through one harness (support/workload_harness.hpp): --skip-invalid
// against the scalar references on random mixes of valid and bad lines and on edge cases, and the
// retry in halves when the device runs out of memory. Each test runs for stations and for lineitem;
// `inputs<W>` holds what differs between them.
#include "support/long_comments.hpp"
#include "support/workload_harness.hpp"

#include "rowscan/error.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace {

using support::light;
using support::lineitem_workload;
using support::no_limit;
using support::run_options;
using support::run_result;
using support::stations_workload;

/// Valid text with bad lines of workload W mixed in: each line is bad with probability one in `one_in`.
template <class W>
std::string with_bad_lines(std::uint32_t seed, std::string const& valid, unsigned one_in) {
  return support::with_bad_lines(seed, valid, one_in, W::bad_lines());
}

/// A random mix: valid text from a seed, with bad lines one in `one_in`, checked at these settings.
template <class W>
struct random_mix {
  std::string shape;                                  ///< for the trace
  std::function<std::string(std::uint32_t)> valid;    ///< the valid text for a seed
  unsigned one_in;
  std::vector<std::size_t> chunk_sizes;
  std::vector<unsigned> threads;
  std::vector<typename W::query> queries;
};

/// A text whose bad lines fall across chunk boundaries, and the chunk sizes that cut them.
template <class W>
struct boundary_case {
  std::string what;
  std::string text;
  std::vector<std::size_t> chunk_sizes;
  std::vector<unsigned> threads;
  std::vector<typename W::query> queries;
};

/// A run whose blocks fail to allocate above halves_fit bytes, and whose halves do not; and a limit
/// that the halves fail too.
template <class W>
struct out_of_memory_case {
  std::string valid;
  std::uint32_t mix_seed;
  unsigned one_in;
  std::size_t chunk_size;
  std::size_t halves_fit;   ///< fail_allocations_above at which a block fails and its halves fit
  std::size_t halves_fail;  ///< fail_allocations_above at which the halves fail too
  typename W::query query;
};

template <class W>
struct inputs;

template <>
struct inputs<stations_workload> {
  using W = stations_workload;

  static std::vector<random_mix<W>> random_mixes() {
    struct shape { std::size_t stations, rows; unsigned one_in; };
    // Light mode: every shape over fewer rows and one seed, each at one of the four thread counts and key
    // widths in turn.
    std::vector<shape> const shapes = light<std::vector<shape>>(
        {{5, 300, 3}, {40, 3000, 50}, {300, 6000, 7}, {20, 2000, 1000}},
        {{5, 20, 3}, {40, 20, 50}, {300, 20, 7}, {20, 20, 1000}});
    std::vector<random_mix<W>> mixes;
    for (std::size_t turn = 0; turn < shapes.size(); ++turn) {
      shape const s = shapes[turn];
      mixes.push_back({"stations=" + std::to_string(s.stations) + " rows=" + std::to_string(s.rows),
                       [s](std::uint32_t seed) { return support::random_measurements(seed + 100, s.stations, s.rows, 30); },
                       s.one_in, light<std::vector<std::size_t>>({0, 128, 1000, 4096}, {0, 128, 1000}),
                       support::in_turn<unsigned>({1, 2}, turn), support::in_turn<unsigned>({64, 2}, turn / 2)});
    }
    return mixes;
  }

  static constexpr std::size_t all_bad_lines = 500;
  static constexpr std::size_t valid_rows = 3000;       // ValidInputIsUnchanged: about 80 KB
  static constexpr std::size_t rows_before_empty = 2000;  // EmptyLinesAndManyShortLines: about 24 KB
  static constexpr std::size_t rows_after_empty = 500;
  static std::string two_good_lines() { return "a;1.0\nb;-2.0\n"; }

  /// A bad last line without '\n' after two_good_lines(): the answer and where the reference puts it.
  struct last_line_example {
    std::string text, answer;
    reference::skipped_line at;
  };
  static last_line_example last_line() {
    return {two_good_lines() + "x;1.23", "{a=1.0/1.0/1.0, b=-2.0/-2.0/-2.0}\n", {3, 15}};
  }

  static std::vector<boundary_case<W>> boundary_cases() {
    return {
        // A 120-byte bad line that starts 100 bytes in: every chunk size below cuts it.
        {"a long bad line",
         std::string("a;1.0\n") + std::string(94, 'n') + std::string(120, 'x') + "\n" +
             support::random_measurements(45, 10, light(400, 10), 20),
         {128, 129, 150, 200, 255, 1000},
         {1, 2},
         {64}},
        // Bad lines one in three across the boundaries of the smallest chunks (about 4 KB).
        {"one line in three bad",
         with_bad_lines<W>(3, support::random_measurements(9, 50, light(60, 15), 100), 3),
         {128, 129, 150, 255},
         {1, 2},
         {64}},
    };
  }

  static out_of_memory_case<W> out_of_memory() {
    // 64 KiB chunks are two 32 KiB slots of about 2,600 lines: their 8-byte keys and records need about
    // 21 KB, half of them about 10 KB. A chunk fails at 16 KB and its halves do not; at 4 KB they fail too.
    return {support::random_measurements(50, 40, 20000, 10), 51, 20, 65536, 16000, 4000, 64};
  }
  static std::string second_failure_text() { return support::random_measurements(52, 40, 20000, 10); }
  static W::query second_failure_query() { return 64; }
};

template <>
struct inputs<lineitem_workload> {
  using W = lineitem_workload;

  static std::vector<random_mix<W>> random_mixes() {
    std::vector<random_mix<W>> mixes;
    for (unsigned one_in : {2u, 30u, 2000u}) {
      mixes.push_back({"scale=0.001 seed=8",  // light: its first 20 rows
                       [](std::uint32_t) { return support::generated_table(0.001, 8, 20); }, one_in,
                       {0, 256, 1000, 65536}, {0}, {{0, 5, 11, no_limit}}});
    }
    return mixes;
  }

  static constexpr std::size_t all_bad_lines = 300;
  static constexpr std::size_t valid_rows = 600;         // about the bytes of stations' 3,000 lines
  static constexpr std::size_t rows_before_empty = 200;  // about the bytes of stations' 2,000 lines
  static constexpr std::size_t rows_after_empty = 50;
  static std::string good() { return support::lineitem_row("5", "17", "21168.23"); }
  static std::string two_good_lines() { return good() + good(); }

  struct last_line_example {
    std::string text, answer;
    reference::skipped_line at;
  };
  static last_line_example last_line() {
    // Two rows of 17 x 21168.23 below 10; the bad price of the third starts at byte 2 x 121 + 16.
    std::string const bad = support::lineitem_row("5", "17", "12.345");
    return {two_good_lines() + bad.substr(0, bad.size() - 1), "719719.82\n", {3, 258}};
  }

  static std::vector<boundary_case<W>> boundary_cases() {
    return {
        // A bad row across every chunk boundary of 256 bytes: rows are about 130 bytes (light: 10 of them).
        {"one row in three bad", with_bad_lines<W>(3, support::generated_table(0.0002, 9, 10), 3),
         {256, 257, 300, 511},
         {0},
         {{3, no_limit}}},
        // A 220-byte bad row that starts at byte 121: every chunk size below cuts it.
        {"a long bad row",
         good() + std::string(100, 'n') + std::string(120, 'x') + "\n" + W::valid_text(45, light(40, 10), 0, 0),
         {256, 257, 300, 400, 511, 1000},
         {1, 2},
         {{3, no_limit}}},
    };
  }

  static out_of_memory_case<W> out_of_memory() {
    // 64 KiB chunks of about 510 rows: a block's record ranges take room for a row every 64 bytes, 8
    // bytes each (find_lines_in_one_scan): about 8 KB, so a block fails at 5,000 bytes and its halves
    // (about 4 KB) fit. The block's columns (2 KB each) fit too; at 1,500 bytes the halves fail too.
    // A valid block is summed in one pass that allocates nothing, so one row in 100 has a comment too
    // long for it: every block then takes the composition that does. Light mode: 1,000 rows, two chunks.
    return {long_comments(support::generated_table(0.001, 10, 1000)), 4, 50, 65536, 5000, 1500, {5, no_limit}};
  }
  static std::string second_failure_text() { return long_comments(support::generated_table(0.001, 10)); }
  static std::string long_comments(std::string const& table) { return support::with_long_comments(table, 100, 1100); }
  static W::query second_failure_query() { return {5}; }
};

using workloads = ::testing::Types<stations_workload, lineitem_workload>;

// ---- --skip-invalid ------------------------------------------------------------------------------------------

template <class W>
class SkipInvalid : public ::testing::Test {};
TYPED_TEST_SUITE(SkipInvalid, workloads, support::workload_names);

/// Chunk sizes below this fold only the first small_chunk_passes chunks' bytes of a random mix.
constexpr std::size_t small_chunk_below = 4096;
constexpr std::size_t small_chunk_passes = 64;

TYPED_TEST(SkipInvalid, RandomMixesMatchTheReference) {
  // Every block of a mix holds bad lines, so each takes the general path with count_if, find_if and
  // remove_if: a dozen synchronizations, 10-20 us each on a GPU. Over whole mixes at every setting the
  // stations mixes were 40,876 blocks, 34,748 of them 64-byte blocks of 128-byte chunks (past 200 s on
  // the GPU under -j8). So, with the same mixes, seeds, chunk sizes and key widths:
  // - a chunk size below small_chunk_below folds the mix's first small_chunk_passes x chunk size bytes
  //   of lines (the same shape and density of bad lines); the default and the larger chunk sizes fold
  //   all of it;
  // - reader thread counts vary at the default chunk size only: the other chunk sizes' blocks are under
  //   64 KiB, which the reader reads inline whatever its thread count (chunked_reader's
  //   min_threaded_block), so each thread count was the same run again.
  // That is 3,966 blocks in 80 runs for stations (was 40,876 in 128) and 852 in 24 runs for lineitem
  // (was 24,035). Light mode is unchanged, 43 and 48 blocks in 12 runs each: its mixes fit in the
  // prefixes, and each already ran at one thread count.
  using W = TypeParam;
  for (random_mix<W> const& mix : inputs<W>::random_mixes()) {
    for (std::uint32_t seed : light<std::vector<std::uint32_t>>({1, 2}, {1})) {
      SCOPED_TRACE("seed=" + std::to_string(seed) + " " + mix.shape + " one_in=" + std::to_string(mix.one_in));
      std::string const text = with_bad_lines<W>(seed, mix.valid(seed), mix.one_in);
      std::vector<std::size_t> whole_text;  // besides the default
      for (std::size_t chunk : mix.chunk_sizes) {
        if (chunk == 0) {
          support::expect_reference_skipping<W>(text, {0}, mix.threads, mix.queries);
        } else if (chunk < small_chunk_below) {
          support::expect_reference_skipping<W>(support::prefix_lines(text, small_chunk_passes * chunk), {chunk},
                                                {mix.threads.front()}, mix.queries);
        } else {
          whole_text.push_back(chunk);
        }
      }
      support::expect_reference_skipping<W>(text, whole_text, {mix.threads.front()}, mix.queries);
    }
  }
}

TYPED_TEST(SkipInvalid, ValidInputIsUnchanged) {
  using W = TypeParam;
  std::string const text = W::valid_text(44, light(inputs<W>::valid_rows, inputs<W>::valid_rows / 10), 30, 40);
  std::vector<reference::skipped_line> skipped;
  run_options options;
  options.chunk_size = 1000;
  run_result const got = W::run(text, options, W::default_query());
  EXPECT_EQ(got.answer, W::reference(text, W::default_query(), &skipped));
  EXPECT_TRUE(skipped.empty());
  EXPECT_EQ(got.skipped, 0u);
  EXPECT_TRUE(got.first.empty());
  EXPECT_EQ(got.records, got.lines);
}

TYPED_TEST(SkipInvalid, AllLinesBad) {
  using W = TypeParam;
  std::vector<std::string> const& bad = W::bad_lines();
  std::size_t const lines = light<std::size_t>(inputs<W>::all_bad_lines, 2 * bad.size());  // light: each kind twice
  std::string text;
  for (std::size_t i = 0; i < lines; ++i) text += bad[i % bad.size()] + "\n";
  support::expect_reference_skipping<W>(text, support::skipping_chunk_sizes<W>());
  run_options options;
  options.chunk_size = W::min_chunk;
  run_result const got = W::run(text, options, W::default_query());
  // A bad line may hold a '\n' of its own (lineitem's CR LF row): then an empty bad line follows it.
  auto const newlines = static_cast<std::uint64_t>(std::count(text.begin(), text.end(), '\n'));
  EXPECT_EQ(got.answer, W::empty_answer);
  EXPECT_EQ(got.skipped, newlines);
  EXPECT_EQ(got.lines, newlines);
  EXPECT_EQ(got.records, 0u);
}

TYPED_TEST(SkipInvalid, BadLastLineWithoutNewline) {
  using W = TypeParam;
  for (std::size_t i = 0; i < W::bad_lines().size(); ++i) {
    std::string const& bad = W::bad_lines()[i];
    if (bad.empty()) continue;
    SCOPED_TRACE("last line: '" + bad + "'");
    support::expect_reference_skipping<W>(inputs<W>::two_good_lines() + bad,
                                          support::in_turn<std::size_t>({0, W::min_chunk}, i));  // light: in turn
  }
  auto const example = inputs<W>::last_line();
  run_options options;
  run_result const got = W::run(example.text, options, W::default_query());
  EXPECT_EQ(got.answer, example.answer);
  ASSERT_EQ(got.first.size(), 1u);
  EXPECT_EQ(got.first[0], example.at);
}

TYPED_TEST(SkipInvalid, BadLinesAcrossChunkBoundaries) {
  using W = TypeParam;
  for (boundary_case<W> const& c : inputs<W>::boundary_cases()) {
    SCOPED_TRACE(c.what);
    support::expect_reference_skipping<W>(c.text, c.chunk_sizes, c.threads, c.queries);
  }
}

TYPED_TEST(SkipInvalid, EmptyLinesAndManyShortLines) {
  // More lines than a block's valid lines could be: stations' fast path cannot hold them, and every
  // workload must count and drop them all. Light mode: 200 empty lines, still more than a block's rows.
  using W = TypeParam;
  std::size_t const before = inputs<W>::rows_before_empty, after = inputs<W>::rows_after_empty;
  std::string const text = W::valid_text(47, light(before, before * 3 / 100), 5, 8) +
                           std::string(light(3000, 200), '\n') + W::valid_text(48, light(after, after * 6 / 100), 5, 8);
  support::expect_reference_skipping<W>(text, {0, W::min_chunk, 1024, 4096});
}

// ---- device out of memory ------------------------------------------------------------------------------------

template <class W>
class OutOfMemory : public ::testing::Test {};
TYPED_TEST_SUITE(OutOfMemory, workloads, support::workload_names);

TYPED_TEST(OutOfMemory, ARetryInHalvesGivesTheSameAnswer) {
  using W = TypeParam;
  out_of_memory_case<W> const c = inputs<W>::out_of_memory();
  run_options options;
  options.chunk_size = c.chunk_size;
  options.fail_allocations_above = c.halves_fit;
  for (bool skip : {false, true}) {
    SCOPED_TRACE("valid input, skip_invalid=" + std::to_string(skip));
    options.skip_invalid = skip;
    EXPECT_EQ(W::run(c.valid, options, c.query).answer, W::reference(c.valid, c.query, nullptr));
  }
  SCOPED_TRACE("bad lines one in " + std::to_string(c.one_in) + ", seed=" + std::to_string(c.mix_seed));
  std::string const mixed = with_bad_lines<W>(c.mix_seed, c.valid, c.one_in);
  std::vector<reference::skipped_line> skipped;
  std::string const expected = W::reference(mixed, c.query, &skipped);
  options.skip_invalid = true;
  run_result const got = W::run(mixed, options, c.query);
  EXPECT_EQ(got.answer, expected);
  EXPECT_EQ(got.skipped, skipped.size());
  ASSERT_EQ(got.first.size(), std::min<std::size_t>(skipped.size(), 5));
  for (std::size_t i = 0; i < got.first.size(); ++i) EXPECT_EQ(got.first[i], skipped[i]) << got.messages[i];
}

TYPED_TEST(OutOfMemory, ASecondFailureIsAClearError) {
  using W = TypeParam;
  std::string const text = inputs<W>::second_failure_text();
  for (bool skip : {false, true}) {
    SCOPED_TRACE("skip_invalid=" + std::to_string(skip));
    run_options options;
    options.chunk_size = inputs<W>::out_of_memory().chunk_size;
    options.fail_allocations_above = inputs<W>::out_of_memory().halves_fail;
    options.skip_invalid = skip;
    try {
      W::run(text, options, inputs<W>::second_failure_query());
      ADD_FAILURE() << "expected a device_error";
    } catch (rowscan::device_error const& e) {
      // The memory of the system that folded: the device's under CUDA, the host's on the host systems (this
      // .cpp cannot read rowscan/config.hpp under CUDA; test_cli_inputs holds the CPU build to "host").
      std::string const what = e.what();
      EXPECT_TRUE(what.rfind(std::string(W::label) + ": out of host memory for the ", 0) == 0 ||
                  what.rfind(std::string(W::label) + ": out of device memory for the ", 0) == 0)
          << what;
      EXPECT_NE(std::string(e.what()).find("and again for half of it; give a smaller --chunk-size"), std::string::npos)
          << e.what();
    }
  }
}

}  // namespace
