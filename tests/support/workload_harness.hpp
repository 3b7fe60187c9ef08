// SPDX-License-Identifier: Apache-2.0
// What the bad-input tests of every workload share: run the library on a text with job options, inject
// bad lines at random into valid text, and compare a --skip-invalid run with the workload's scalar
// reference (tests/reference/): the answer over the valid lines, the count of bad lines, and the first
// five of their positions and messages.
//
// A workload is a trait struct (stations_workload, lineitem_workload) that supplies:
//   label, min_chunk, empty_answer           the input's name in errors, its smallest chunk, "no lines"
//   query, default_query(), describe(query)  what the workload answers besides the text (stations: the
//                                            key width; lineitem: the thresholds)
//   valid_text(seed, rows, keys, key_bytes)  valid text from a seed
//   bad_lines()                              lines that break each rule, none longer than the reader carries
//   run(text, run_options, query)            the library's answer as a run_result
//   reference(text, query, skipped)          the reference's answer and, with skipped, its bad lines
// and the per-workload inputs of the shared tests (test_bad_input.cpp).
#pragma once

#include "reference/lineitem_reference.hpp"
#include "reference/stations_reference.hpp"
#include "rowscan/error.hpp"
#include "rowscan/lineitem/format.hpp"
#include "rowscan/lineitem/summarize.hpp"
#include "rowscan/stations/format.hpp"
#include "rowscan/stations/summarize.hpp"
#include "support/error_text.hpp"
#include "support/light_mode.hpp"
#include "support/lineitem_text.hpp"
#include "support/stations_text.hpp"
#include "support/temp_input.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <random>
#include <sstream>
#include <string>
#include <vector>

namespace support {

/// How a test runs the library, whatever the workload.
struct run_options {
  std::size_t chunk_size = 0;              ///< 0: the workload's default
  unsigned threads = 0;                    ///< reader threads; 0: the default
  bool skip_invalid = true;                ///< --skip-invalid
  std::size_t fail_allocations_above = 0;  ///< device arrays larger than this fail as on a full device; 0: never
};

/// What a run gives, whatever the workload: the printed answer and what --skip-invalid recorded.
struct run_result {
  std::string answer;
  std::uint64_t lines = 0;    ///< every line of the input, skipped ones included
  std::uint64_t records = 0;  ///< the valid lines the answer covers
  std::uint64_t skipped = 0;
  std::vector<reference::skipped_line> first;  ///< the first five skipped lines, as the run located them
  std::vector<std::string> messages;           ///< their messages
  std::size_t blocks = 0;                      ///< blocks the driver folded
};

/// The fields every workload's summary shares (job::run_report), copied into out.
template <class Summary>
void record_report(Summary const& s, run_result& out) {
  out.lines = s.lines;
  out.skipped = s.skipped.count();
  out.blocks = s.chunks;
  for (auto const& e : s.skipped.first()) {
    out.first.push_back({e.line(), e.byte_offset()});
    out.messages.push_back(e.what());
  }
}

template <class Options>
void set_job_options(run_options const& run, Options& options) {
  options.chunk_size = run.chunk_size;
  options.reader_threads = run.threads;
  options.skip_invalid = run.skip_invalid;
  options.fail_allocations_above = run.fail_allocations_above;
}

/// Valid text with bad lines mixed in: before each line, one of `bad` with probability one in `one_in`.
inline std::string with_bad_lines(std::uint32_t seed, std::string const& valid, unsigned one_in,
                                  std::vector<std::string> const& bad) {
  std::mt19937 rng(seed);
  std::string text;
  std::size_t start = 0;
  while (start < valid.size()) {
    if (rng() % one_in == 0) text += bad[rng() % bad.size()] + "\n";
    std::size_t const end = std::min(valid.find('\n', start), valid.size());
    text += valid.substr(start, end + 1 - start);
    start = end + 1;
  }
  return text;
}

/// The first lines of text that fit in `bytes` (all of it when it fits): a smaller input of the same shape.
inline std::string prefix_lines(std::string const& text, std::size_t bytes) {
  if (text.size() <= bytes) return text;
  std::size_t const newline = text.rfind('\n', bytes - 1);
  return newline == std::string::npos ? std::string() : text.substr(0, newline + 1);
}

// ---- the workloads -----------------------------------------------------------------------------------------

/// `rowscan stations`: 1BRC measurements, answered in the challenge's format.
struct stations_workload {
  static constexpr char const* name = "stations";
  static constexpr char const* label = "input.txt";
  static constexpr std::size_t min_chunk = rowscan::stations::min_chunk_size;
  static constexpr char const* empty_answer = "{}\n";

  using query = unsigned;  ///< bits of the name hash used as keys: fewer force the exact fallback
  static query default_query() { return 64; }
  static std::string describe(query bits) { return "key_bits=" + std::to_string(bits); }

  /// `rows` lines over `keys` stations whose names have at most `key_bytes` bytes.
  static std::string valid_text(std::uint32_t seed, std::size_t rows, std::size_t keys, std::size_t key_bytes) {
    return random_measurements(seed, keys, rows, key_bytes);
  }

  /// Lines that break each rule (none longer than the reader carries).
  static std::vector<std::string> const& bad_lines() {
    static std::vector<std::string> const lines = {
        "no separator", "", ";12.0", "x;", "x;1.", "x;.5", "x;+1.0", "x;100.0", "x;1.23", "x;1.0;2.0",
        "x;1.0\r", "x;1.23\r", std::string(101, 'n') + ";1.0", std::string(300, 'n'), "n;" + std::string(200, '1'),
        std::string("\x01\x02\xff;9", 5), std::string(1, '\0')};
    return lines;
  }

  static run_result run(std::string const& text, run_options const& run, query bits = 64) {
    rowscan::stations::summarize_options options;
    set_job_options(run, options);
    options.key_bits = bits;
    temp_input input(text);
    auto const s = rowscan::stations::summarize(input.fd(), label, options);
    run_result out;
    std::ostringstream answer;
    rowscan::stations::write_onebrc(answer, s.stations);
    out.answer = answer.str();
    for (auto const& station : s.stations) out.records += static_cast<std::uint64_t>(station.count);
    record_report(s, out);
    return out;
  }

  static std::string reference(std::string const& text, query, std::vector<reference::skipped_line>* skipped) {
    return reference::stations_answer(text, skipped);
  }
};

/// `rowscan lineitem`: dbgen's lineitem.tbl, answered with one exact sum per l_suppkey threshold.
struct lineitem_workload {
  static constexpr char const* name = "lineitem";
  static constexpr char const* label = "lineitem.tbl";
  static constexpr std::size_t min_chunk = rowscan::lineitem::min_chunk_size;
  static constexpr char const* empty_answer = "0.00\n";  // for the default query

  using query = std::vector<std::uint64_t>;  ///< the thresholds Z of l_suppkey < Z
  static query default_query() { return {10}; }
  static std::string describe(query const& thresholds) {
    std::string text = "suppkey_below=";
    for (std::size_t i = 0; i < thresholds.size(); ++i) text += (i == 0 ? "" : ",") + std::to_string(thresholds[i]);
    return text;
  }

  /// The first `rows` rows of the table at scale 0.001 (10 suppliers, about 6,000 rows); dbgen decides
  /// the keys and their widths, so `keys` and `key_bytes` do not apply.
  static std::string valid_text(std::uint32_t seed, std::size_t rows, std::size_t /*keys*/, std::size_t /*key_bytes*/) {
    std::string const table = generated_table(0.001, seed);
    std::size_t end = 0;
    for (std::size_t r = 0; r < rows && end < table.size(); ++r) end = table.find('\n', end) + 1;
    return table.substr(0, end);
  }

  /// Rows that break each rule (none longer than the reader carries). The CR LF row keeps its '\n', so
  /// an empty line, bad too, follows it.
  static std::vector<std::string> const& bad_lines() {
    auto unterminated = [](std::string const& row) { return row.substr(0, row.size() - 1); };
    std::string const good = lineitem_row("5", "17", "21168.23");
    static std::vector<std::string> const rows = {
        "", "1|2|3|", "1|2|3|4|5|6.00|0.04|0.02|N|O|1996-03-13|1996-02-12|1996-03-22|NONE|TRUCK|c|x|",
        std::string(good).insert(good.size() - 1, "\r").substr(0, 130),
        unterminated(lineitem_row("5", "abc", "1.00")), unterminated(lineitem_row("-5", "17", "1.00")),
        unterminated(lineitem_row("5", "17", "12.345")), unterminated(lineitem_row("5", "4294967296", "1.00")),
        "garbage \x01\x02"};
    return rows;
  }

  static run_result run(std::string const& text, run_options const& run, query const& thresholds = {10}) {
    rowscan::lineitem::summarize_options options;
    set_job_options(run, options);
    options.suppkey_below = thresholds;
    temp_input input(text);
    auto const s = rowscan::lineitem::summarize(input.fd(), label, options);
    run_result out;
    out.answer = rowscan::lineitem::format_text(s);
    out.records = s.rows;
    record_report(s, out);
    return out;
  }

  static std::string reference(std::string const& text, query const& thresholds,
                               std::vector<reference::skipped_line>* skipped) {
    return reference::lineitem_answer(text, thresholds, skipped);
  }
};

constexpr std::uint64_t no_limit = std::numeric_limits<std::uint64_t>::max();

/// Names the typed suites' instances after their workload: SkipInvalid/stations.AllLinesBad.
struct workload_names {
  template <class W>
  static std::string GetName(int) {
    return W::name;
  }
};

// ---- the comparison ------------------------------------------------------------------------------------------

/// Every chunk size, reader thread count and query gives the reference's answer over the valid lines,
/// the reference's count of bad lines, and its first five positions, in messages that start with
/// "LABEL:LINE:COLUMN: " and end with the line's quote; the valid and the skipped lines add up to the input's lines.
template <class W>
void expect_reference_skipping(std::string const& text, std::vector<std::size_t> const& chunk_sizes,
                               std::vector<unsigned> const& threads = {1, 2},
                               std::vector<typename W::query> const& queries = std::vector<typename W::query>(1, W::default_query())) {
  for (auto const& query : queries) {
    std::vector<reference::skipped_line> all;
    std::string const expected = W::reference(text, query, &all);
    std::vector<reference::skipped_line> const first(all.begin(), all.begin() + std::min<std::size_t>(all.size(), 5));
    for (std::size_t chunk : chunk_sizes) {
      for (unsigned t : threads) {
        SCOPED_TRACE("chunk_size=" + std::to_string(chunk) + " threads=" + std::to_string(t) + " " + W::describe(query));
        run_options options;
        options.chunk_size = chunk;
        options.threads = t;
        run_result const got = W::run(text, options, query);
        EXPECT_EQ(got.answer, expected);
        EXPECT_EQ(got.skipped, all.size());
        EXPECT_EQ(got.records + got.skipped, got.lines);
        ASSERT_EQ(got.first.size(), first.size());
        for (std::size_t i = 0; i < first.size(); ++i) {
          EXPECT_EQ(got.first[i].line, first[i].line) << got.messages[i];
          EXPECT_EQ(got.first[i].byte_offset, first[i].byte_offset) << got.messages[i];
          std::string const prefix = support::position_of(W::label, first[i].line, text, first[i].byte_offset);
          std::string const quote = ": " + support::quote_of(text, first[i].byte_offset);
          EXPECT_EQ(got.messages[i].rfind(prefix, 0), 0u) << got.messages[i];
          EXPECT_EQ(got.messages[i].size() >= quote.size() ? got.messages[i].substr(got.messages[i].size() - quote.size()) : "",
                    quote)
              << got.messages[i];
        }
      }
    }
  }
}

/// The chunk sizes most skipping tests sweep: the default, the smallest, and two in between.
template <class W>
std::vector<std::size_t> skipping_chunk_sizes() {
  return {0, W::min_chunk, 1000, 4096};
}

}  // namespace support
