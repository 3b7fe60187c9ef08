// SPDX-License-Identifier: Apache-2.0
// `rowscan lineitem` (load + query) against the scalar reference, on generated tables, edge cases and
// malformed rows; and the fused query alone on random columns, including sums beyond 64 bits.
#include "reference/lineitem_reference.hpp"
#include "rowscan/context.hpp"
#include "rowscan/error.hpp"
#include "rowscan/lineitem/columns.hpp"
#include "rowscan/lineitem/query.hpp"
#include "rowscan/lineitem/format.hpp"
#include "rowscan/lineitem/summarize.hpp"
#include "rowscan/records.hpp"

#include "support/light_mode.hpp"
#include "support/lineitem_text.hpp"
#include "support/temp_input.hpp"
#include "support/workload_harness.hpp"

#include <gtest/gtest.h>
#include <thrust/device_vector.h>
#include <thrust/host_vector.h>

#include <algorithm>
#include <cstdio>
#include <limits>
#include <optional>
#include <random>
#include <string>
#include <vector>

namespace {

using rowscan::lineitem::summarize_options;
constexpr std::uint64_t no_limit = std::numeric_limits<std::uint64_t>::max();

using support::generated_table;
using support::light;
using support::temp_input;

rowscan::lineitem::summary run(std::string const& text, std::vector<std::uint64_t> const& thresholds,
                               std::size_t chunk_size = 0) {
  temp_input input(text);
  summarize_options options;
  options.suppkey_below = thresholds;
  options.chunk_size = chunk_size;
  return rowscan::lineitem::summarize(input.fd(), "lineitem.tbl", options);
}

/// Every chunk size gives the reference's sums and row counts, and the reference's printed answer.
void expect_reference_sums(std::string const& text, std::vector<std::uint64_t> const& thresholds,
                           std::vector<std::size_t> const& chunk_sizes = {0, 256, 4096}) {
  auto const expected = reference::lineitem_sums(text, thresholds);
  for (std::size_t chunk : chunk_sizes) {
    SCOPED_TRACE("chunk_size=" + std::to_string(chunk));
    auto const got = run(text, thresholds, chunk);
    ASSERT_EQ(got.answers.size(), expected.size());
    for (std::size_t i = 0; i < expected.size(); ++i) {
      SCOPED_TRACE("suppkey_below=" + std::to_string(thresholds[i]));
      EXPECT_EQ(got.answers[i].suppkey_below, thresholds[i]);
      EXPECT_TRUE(got.answers[i].sum_cents == expected[i].sum_cents)
          << rowscan::lineitem::format_cents(got.answers[i].sum_cents) << " != "
          << reference::cents_text(expected[i].sum_cents);
      EXPECT_EQ(got.answers[i].rows, expected[i].rows);
    }
    EXPECT_EQ(rowscan::lineitem::format_text(got), reference::lineitem_answer(text, thresholds));
  }
}

/// One dbgen-shaped row with the three fields the query reads replaced.
std::string row(std::string const& suppkey, std::string const& quantity, std::string const& price) {
  return support::lineitem_row(suppkey, quantity, price);
}

// ---- generated tables ----------------------------------------------------------------------------------

TEST(Lineitem, GeneratedTablesMatchTheReference) {
  for (std::uint64_t seed : light<std::vector<std::uint64_t>>({1, 2, 3}, {1})) {
    SCOPED_TRACE("scale=0.001 seed=" + std::to_string(seed));
    std::string const text = generated_table(0.001, seed, 40);  // 10 suppliers, about 6,000 rows (light: 40)
    expect_reference_sums(text, {0, 1, 2, 5, 10, 11, 4, no_limit});
    expect_reference_sums(text, {5});
  }
}

TEST(Lineitem, ScaleOneHundredthAllThresholdCounts) {
  SCOPED_TRACE("scale=0.01 seed=7");
  std::string const text = generated_table(0.01, 7, 2000);  // 100 suppliers, about 60,000 rows (light: 2,000)
  // 1, 2, 3..4, 5..8 and 11 thresholds: every accumulator width, and a second pass past eight.
  std::vector<std::uint64_t> const all = {50, 0, 101, 1, 99, 37, 100, 2, no_limit, 64, 73};
  for (std::size_t n : {1, 2, 3, 6, 11}) {
    SCOPED_TRACE("thresholds=" + std::to_string(n));
    expect_reference_sums(text, std::vector<std::uint64_t>(all.begin(), all.begin() + n), {0, 65536});
  }
}

TEST(Lineitem, SumsAndCountsAddUp) {
  std::string const text = generated_table(0.001, 4);
  auto const s = run(text, {0, 6, no_limit});
  EXPECT_EQ(s.answers[0].rows, 0u);
  EXPECT_TRUE(s.answers[0].sum_cents == 0);
  EXPECT_EQ(s.answers[2].rows, s.rows);
  EXPECT_LT(s.answers[1].rows, s.rows);
  EXPECT_EQ(s.bytes, text.size());
}

// ---- edge cases ----------------------------------------------------------------------------------------

TEST(Lineitem, EmptyInputSumsToZero) {
  auto const s = run("", {0, 5000});
  EXPECT_EQ(s.rows, 0u);
  EXPECT_EQ(rowscan::lineitem::format_text(s), "0.00\n0.00\n");
}

TEST(Lineitem, OneRowAndThresholdsAroundItsKey) {
  std::string const text = row("7706", "17", "21168.23");
  auto const s = run(text, {7706, 7707, 0, no_limit});
  EXPECT_EQ(rowscan::lineitem::format_text(s), "0.00\n359859.91\n0.00\n359859.91\n");  // 17 x 21168.23
  expect_reference_sums(text, {7706, 7707});
}

TEST(Lineitem, LastLineWithoutNewlineAndOtherSpellings) {
  std::string text = row("3", "17.00", "0.05") + row("000004", "0", "1.00") + row("0", "050", "00012.30");
  text.pop_back();  // no final '\n'
  expect_reference_sums(text, {0, 1, 4, 5, no_limit});
  EXPECT_EQ(rowscan::lineitem::format_text(run(text, {no_limit})), "615.85\n");  // 0.85 + 0 + 615.00
}

TEST(Lineitem, SumsBeyondSixtyFourBitsStayExact) {
  // Each row is (2^32 - 1)^2 cents, just below 2^64; five of them overflow any 64-bit accumulator.
  std::string text;
  for (int i = 0; i < 5; ++i) text += row("1", "4294967295", "42949672.95");
  auto const s = run(text, {2});
  EXPECT_EQ(rowscan::lineitem::format_text(s), "922337203255980851.25\n");
  expect_reference_sums(text, {0, 2});
}

/// The input_error that `call` throws; none (and the caller's ASSERT fails) if it returns.
template <class F>
std::optional<rowscan::input_error> input_error_of(F&& call) {
  try {
    call();
  } catch (rowscan::input_error const& e) {
    return e;
  }
  return std::nullopt;
}

TEST(Lineitem, LineLongerThanTheChunk) {
  std::string const text = row("1", "1", "1.00") + "1|2|3|4|5|6.00|" + std::string(2000, 'x') + "|\n" + row("1", "1", "1.00");
  auto const e = input_error_of([&] { run(text, {5}, 256); });
  ASSERT_TRUE(e) << "expected an input_error";
  EXPECT_EQ(e->line(), 2u);
  EXPECT_NE(std::string(e->what()).find("line longer than the chunk size (256 bytes)"), std::string::npos) << e->what();
}

// ---- malformed rows ------------------------------------------------------------------------------------

struct bad_case {
  char const* name;
  std::string bad_row;
  char const* message;  ///< a part of the expected message
};

TEST(Lineitem, MalformedRowsNameLineAndByteLikeTheReference) {
  std::string const good = row("5", "17", "21168.23");
  std::string const fifteen = "1|2|3|4|5|6.00|0.04|0.02|N|O|1996-03-13|1996-02-12|1996-03-22|NONE|TRUCK\n";
  std::vector<bad_case> const cases = {
      {"15 fields", "1|2|3|4|5|6.00|0.04|0.02|N|O|1996-03-13|1996-02-12|1996-03-22|NONE|TRUCK|\n", "16 fields"},
      {"17 fields", "1|2|3|4|5|6.00|0.04|0.02|N|O|1996-03-13|1996-02-12|1996-03-22|NONE|TRUCK|c|x|\n", "after the 16th"},
      {"missing trailing |", fifteen.substr(0, fifteen.size() - 1) + "|comment\n", "16 fields"},
      {"empty line", "\n", "16 fields"},
      {"CRLF", row("5", "17", "21168.23").insert(row("5", "17", "21168.23").size() - 1, "\r"), "CR LF"},
      {"bytes and CR", row("5", "17", "21168.23").insert(row("5", "17", "21168.23").size() - 1, "x\r"), "after the 16th"},
      {"abc quantity", row("5", "abc", "21168.23"), "l_quantity"},
      {"fractional quantity", row("5", "1.50", "21168.23"), "l_quantity"},
      {"huge quantity", row("5", "4294967296", "1.00"), "l_quantity"},
      {"price 12.3", row("5", "17", "12.3"), "l_extendedprice"},
      {"price 12.345", row("5", "17", "12.345"), "l_extendedprice"},
      {"empty price", row("5", "17", ""), "l_extendedprice"},
      {"price .50", row("5", "17", ".50"), "l_extendedprice"},
      {"huge price", row("5", "17", "42949672.96"), "l_extendedprice"},
      {"negative suppkey", row("-5", "17", "1.00"), "l_suppkey"},
      {"empty suppkey", row("", "17", "1.00"), "l_suppkey"},
  };
  for (std::size_t turn = 0; turn < cases.size(); ++turn) {
    bad_case const& c = cases[turn];
    for (std::size_t chunk : support::in_turn<std::size_t>({0, 256}, turn)) {  // light: one chunk size in turn
      SCOPED_TRACE(std::string(c.name) + " chunk_size=" + std::to_string(chunk));
      std::string const text = good + good + c.bad_row + good;
      std::uint64_t expected_line = 0, expected_byte = 0;
      try {
        reference::lineitem_sums(text, {10});
        ADD_FAILURE() << "the reference accepts it";
      } catch (reference::bad_input const& e) {
        expected_line = e.line;
        expected_byte = e.byte_offset;
      }
      try {
        run(text, {10}, chunk);
        ADD_FAILURE() << "accepted";
      } catch (rowscan::input_error const& e) {
        EXPECT_EQ(e.line(), 3u);
        EXPECT_EQ(e.line(), expected_line);
        EXPECT_EQ(e.byte_offset(), expected_byte);
        std::string const what = e.what();
        EXPECT_EQ(what.rfind(support::position_of("lineitem.tbl", 3, text, expected_byte), 0), 0u) << what;
        EXPECT_EQ(e.quote(), support::quote_of(text, expected_byte)) << what;
        EXPECT_NE(what.find(c.message), std::string::npos) << what;
      }
    }
  }
}

// The one-walk parse of the fast path (parse_rows_walking) against the '|' list's (find_fields +
// parse_rows, what --explain shows) and the host's scalar parse_row, row by row, on random rows: dbgen's
// shape with random fields, and rows with a '|' dropped or added, a byte changed, a '\r' before the
// '\n', an empty line, and a last line without its '\n'.
TEST(LineitemParse, OneWalkPerRowAgreesWithThePipeListAndTheScalarParse) {
  namespace li = rowscan::lineitem;
  for (unsigned seed = 1; seed <= 12; ++seed) {
    SCOPED_TRACE("seed=" + std::to_string(seed));
    std::mt19937 rng(seed);
    std::string text;
    std::size_t const rows = 100 + rng() % 300;
    for (std::size_t i = 0; i < rows; ++i) {
      std::string r = support::random_lineitem_row(rng);
      std::size_t const at = rng() % (r.size() - 1);  // a byte of the row before its '\n'
      switch (rng() % 16) {
        case 0: r.erase(r.find('|', at) == std::string::npos ? at : r.find('|', at), 1); break;
        case 1: r.insert(at, "|"); break;
        case 2: r[at] = "|.0a-\r\n9"[rng() % 9]; break;
        case 3: r.insert(r.size() - 1, "\r"); break;
        case 4: r = "\n"; break;
        case 5: r.insert(r.size() - 1, "x|"); break;
        default: break;
      }
      text += r;
    }
    if (rng() % 2) text.pop_back();  // the last line without its '\n'
    rowscan::context ctx;
    // The padding the walk may read, of '|' bytes that it must not count.
    std::string const padded = text + std::string(li::walk_padding_bytes, '|');
    thrust::device_vector<char> const device_text(padded.begin(), padded.end());
    char const* const t = thrust::raw_pointer_cast(device_text.data());
    li::chunk_buffers listed, walked;
    li::column_store by_list, by_walk;
    rowscan::find_lines(t, text.size(), listed.records, ctx);
    walked.records = listed.records;
    li::find_fields(t, text.size(), listed, ctx);
    li::chunk_check const list_check = li::parse_rows(t, listed, by_list, ctx);
    li::chunk_check const walk_check = li::parse_rows_walking(t, walked, by_walk, ctx);
    ASSERT_EQ(walk_check.ok, list_check.ok);
    ASSERT_EQ(walk_check.bad_row, list_check.bad_row);

    thrust::host_vector<rowscan::record_range> const records = walked.records;
    thrust::host_vector<std::uint8_t> const statuses = walked.statuses;
    thrust::host_vector<std::uint8_t> const list_statuses = listed.statuses;
    thrust::host_vector<std::uint32_t> const suppkey = by_walk.suppkey, quantity = by_walk.quantity,
                                            cents = by_walk.price_cents;
    for (std::size_t r = 0; r < records.size(); ++r) {
      std::string line = text.substr(records[r].begin, records[r].size());
      if (!line.empty() && line.back() == '\n') line.pop_back();
      li::parsed_row const expected = li::parse_row(line.data(), static_cast<std::uint32_t>(line.size()));
      ASSERT_EQ(statuses[r], static_cast<std::uint8_t>(expected.status)) << "row " << r << ": '" << line << "'";
      ASSERT_EQ(list_statuses[r], statuses[r]) << "row " << r << ": '" << line << "'";
      if (expected.status != li::row_status::ok) continue;
      ASSERT_EQ(suppkey[r], expected.suppkey) << "row " << r << ": '" << line << "'";
      ASSERT_EQ(quantity[r], expected.quantity) << "row " << r << ": '" << line << "'";
      ASSERT_EQ(cents[r], expected.price_cents) << "row " << r << ": '" << line << "'";
    }
  }
}

TEST(Lineitem, ByteOffsetsPointAtTheField) {
  std::string const good = row("5", "17", "21168.23");  // suppkey at byte 9, quantity at 13, price at 16
  auto offset_of = [&](std::string const& bad) {
    try {
      run(good + bad, {10});
    } catch (rowscan::input_error const& e) {
      return e.byte_offset();
    }
    return std::uint64_t{0};
  };
  EXPECT_EQ(offset_of(row("5", "17", "12.3")), good.size() + 16);
  EXPECT_EQ(offset_of(row("5", "x", "12.30")), good.size() + 13);
  EXPECT_EQ(offset_of(row("y", "1", "12.30")), good.size() + 9);
  std::string const short_row = "1|2|3|\n";
  EXPECT_EQ(offset_of(short_row), good.size() + 6);  // where the 4th '|' should be: the end of the line
}

TEST(Lineitem, ThresholdLists) {
  using rowscan::lineitem::parse_thresholds;
  EXPECT_EQ(parse_thresholds("5000"), (std::vector<std::uint64_t>{5000}));
  EXPECT_EQ(parse_thresholds("0,18446744073709551615,7"), (std::vector<std::uint64_t>{0, no_limit, 7}));
  for (char const* bad : {"", ",", "1,", ",1", "1,,2", "-1", "abc", "1.5", "18446744073709551616", " 1"}) {
    EXPECT_THROW(parse_thresholds(bad), rowscan::error) << bad;
  }
}

TEST(Lineitem, CentsText) {
  using rowscan::lineitem::format_cents;
  EXPECT_EQ(format_cents(0), "0.00");
  EXPECT_EQ(format_cents(7), "0.07");
  EXPECT_EQ(format_cents(123), "1.23");
  EXPECT_EQ(format_cents(static_cast<rowscan::lineitem::uint128>(no_limit) * 1000), "184467440737095516150.00");
  EXPECT_EQ(format_cents(~rowscan::lineitem::uint128{0}), "3402823669209384634633746074317682114.55");
}

// ---- --skip-invalid --------------------------------------------------------------------------------------

// The workload-independent --skip-invalid and out-of-memory tests run for every workload in
// test_bad_input.cpp; these are about lineitem's own limits.

/// A run with skip_invalid (through the shared harness).
support::run_result run_skipping(std::string const& text, std::vector<std::uint64_t> const& thresholds,
                                 std::size_t chunk_size) {
  support::run_options options;
  options.chunk_size = chunk_size;
  return support::lineitem_workload::run(text, options, thresholds);
}

/// A valid row whose comment makes it `bytes` long, its '\n' counted.
std::string row_of_length(std::size_t bytes) {
  std::string r = row("1", "1", "1.00");
  r.insert(r.size() - 2, bytes - r.size(), 'x');  // inside the comment, before its final "|\n"
  return r;
}

TEST(Lineitem, RowLongerThanTheReaderCarriesFailsAlikeForEveryChunkSize) {
  // 70,000 bytes from byte 10,092: across two blocks of 96 KiB chunks (the reader stops at it), inside
  // one block of 128 KiB and of the default chunks (load stops at it). A row of 65,536 bytes, its '\n'
  // counted, is read.
  std::string head;
  while (head.size() < 10000) head += row("1", "1", "1.00");
  ASSERT_EQ(row_of_length(70000).size(), 70000u);
  std::string const text = head + row_of_length(70000) + row("1", "1", "1.00");
  std::uint64_t const line = std::count(head.begin(), head.end(), '\n') + 1;
  for (bool skip : {false, true}) {
    for (std::size_t chunk : {std::size_t{0}, std::size_t{96} << 10, std::size_t{128} << 10}) {
      SCOPED_TRACE("chunk_size=" + std::to_string(chunk) + " skip_invalid=" + std::to_string(skip));
      auto const e = input_error_of([&] { skip ? (void)run_skipping(text, {5}, chunk) : (void)run(text, {5}, chunk); });
      ASSERT_TRUE(e) << "expected an input_error";
      EXPECT_EQ(e->line(), line);
      EXPECT_EQ(e->byte_offset(), head.size());
      EXPECT_NE(std::string(e->what()).find("line longer than 65536 bytes"), std::string::npos) << e->what();
    }
  }
  std::string const longest = head + row_of_length(65536) + row("1", "1", "1.00");
  expect_reference_sums(longest, {5}, {0, std::size_t{96} << 10, std::size_t{128} << 10});
}

TEST(LineitemSkipInvalid, RowLongerThanTheChunkIsNeverSkipped) {
  // It may be a valid row: skipping it would make the sums depend on the chunk size.
  std::string const text = row("1", "1", "1.00") + "x\n" + "1|2|3|4|5|6.00|" + std::string(2000, 'x') + "|\n" +
                           row("1", "1", "1.00");
  auto const e = input_error_of([&] { run_skipping(text, {5}, 256); });
  ASSERT_TRUE(e) << "expected an input_error";
  EXPECT_EQ(e->line(), 3u);
  EXPECT_NE(std::string(e->what()).find("line longer than the chunk size (256 bytes)"), std::string::npos) << e->what();
}

// ---- the query alone -------------------------------------------------------------------------------------

TEST(LineitemQuery, RandomColumnsMatchALoop) {
  for (std::uint32_t seed : {11u, 12u}) {
    SCOPED_TRACE("seed=" + std::to_string(seed));
    std::mt19937 rng(seed);
    std::size_t const n = light<std::size_t>(100000, 10000);
    std::vector<std::uint32_t> key(n), quantity(n), cents(n);
    for (std::size_t i = 0; i < n; ++i) {
      key[i] = rng() % 1000;
      bool const extreme = rng() % 100 == 0;  // some products near 2^64
      quantity[i] = extreme ? 0xffffffffu - rng() % 7 : 1 + rng() % 50;
      cents[i] = extreme ? 0xffffffffu - rng() % 7 : rng() % 10494950;
    }
    rowscan::lineitem::column_store store;
    store.suppkey = key;
    store.quantity = quantity;
    store.price_cents = cents;
    std::vector<std::uint64_t> const thresholds = {500, 0, 1000, 1, 999, 250, 750, 100, 2000};
    auto const got = rowscan::lineitem::sums_below(store, thresholds);
    ASSERT_EQ(got.size(), thresholds.size());
    for (std::size_t t = 0; t < thresholds.size(); ++t) {
      reference::uint128 sum = 0;
      std::uint64_t rows = 0;
      for (std::size_t i = 0; i < n; ++i) {
        if (key[i] < thresholds[t]) {
          sum += static_cast<reference::uint128>(quantity[i]) * cents[i];
          ++rows;
        }
      }
      EXPECT_EQ(got[t].suppkey_below, thresholds[t]);
      EXPECT_TRUE(got[t].sum_cents == sum) << "threshold " << thresholds[t];
      EXPECT_EQ(got[t].rows, rows);
    }
  }
}

}  // namespace
