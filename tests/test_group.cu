// SPDX-License-Identifier: Apache-2.0
// The group workload's compositions against the scalar reference (reference/group_reference.hpp): the
// quote-parity scan's algebra, find_records, and whole blocks folded by a worker.
#include "reference/group_reference.hpp"
#include "rowscan/context.hpp"
#include "rowscan/group/records.hpp"

#include <gtest/gtest.h>
#include <thrust/device_vector.h>

#include <algorithm>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

namespace {

using rowscan::group::quote_interval;
using rowscan::group::quote_interval_plus;
using rowscan::group::record_span;

/// A text of quotes, newlines, delimiters and letters, each likely enough to meet the others.
std::string random_text(std::mt19937_64& random, std::size_t size) {
  static char const alphabet[] = "\"\"\n\n,,abcx\r";
  std::string text(size, 'a');
  for (char& c : text) c = alphabet[random() % (sizeof alphabet - 1)];
  return text;
}

/// The interval of text[begin, end) by folding its positions left to right (on the host).
quote_interval fold_of(std::string const& text, std::size_t begin, std::size_t end) {
  rowscan::group::position_interval const at{text.data(), '"'};
  quote_interval out{{0, 0}, {0, 0}, {0, 0}, 0, 0};
  for (std::size_t i = begin; i < end; ++i) out = quote_interval_plus{}(out, at(static_cast<std::uint32_t>(i)));
  return out;
}

bool same(quote_interval const& a, quote_interval const& b) {
  for (int s = 0; s < 2; ++s) {
    if (a.starts[s] != b.starts[s] || a.lines_before[s] != b.lines_before[s]) return false;
    if (a.starts[s] > 0 && a.start[s] != b.start[s]) return false;  // start means nothing without a start
  }
  return a.lines == b.lines && a.quotes == b.quotes;
}

TEST(GroupRecords, QuoteIntervalPlusIsAssociativeOnRandomTriples) {
  for (std::uint64_t seed = 1; seed <= 300; ++seed) {
    std::mt19937_64 random(seed);
    std::string const text = random_text(random, 1 + random() % 40);
    // Three adjacent runs [0, i), [i, j), [j, n), each possibly empty.
    std::size_t const n = text.size();
    std::size_t i = random() % (n + 1), j = random() % (n + 1);
    if (i > j) std::swap(i, j);
    quote_interval const a = fold_of(text, 0, i), b = fold_of(text, i, j), c = fold_of(text, j, n);
    quote_interval_plus const plus;
    EXPECT_TRUE(same(plus(plus(a, b), c), plus(a, plus(b, c)))) << "seed " << seed << ", runs at " << i << ", " << j;
    EXPECT_TRUE(same(plus(plus(a, b), c), fold_of(text, 0, n))) << "seed " << seed;
  }
}

TEST(GroupRecords, FindRecordsMatchesTheParityReference) {
  rowscan::context ctx;
  for (std::uint64_t seed = 1; seed <= 200; ++seed) {
    std::mt19937_64 random(seed);
    std::string const text = random_text(random, random() % 300);
    for (char quote : {'"', '\0'}) {
      thrust::device_vector<char> device(text.begin(), text.end());
      thrust::device_vector<record_span> records;
      quote_interval const whole =
          rowscan::group::find_records(thrust::raw_pointer_cast(device.data()), text.size(), quote, records, ctx);
      std::vector<record_span> got(records.size());
      thrust::copy(records.begin(), records.end(), got.begin());
      auto const expected = reference::split_records(text, quote);
      ASSERT_EQ(got.size(), expected.size()) << "seed " << seed << ", quote " << int(quote);
      for (std::size_t r = 0; r < got.size(); ++r) {
        EXPECT_EQ(got[r].begin, expected[r].begin) << "seed " << seed << ", record " << r;
        EXPECT_EQ(got[r].end, expected[r].end) << "seed " << seed << ", record " << r;
        EXPECT_EQ(got[r].line, expected[r].line) << "seed " << seed << ", record " << r;
      }
      EXPECT_EQ(whole.lines, static_cast<std::uint32_t>(std::count(text.begin(), text.end(), '\n'))) << "seed " << seed;
    }
  }
}

TEST(GroupRecords, NamedCases) {
  rowscan::context ctx;
  auto spans = [&](std::string const& text) {
    thrust::device_vector<char> device(text.begin(), text.end());
    thrust::device_vector<record_span> records;
    rowscan::group::find_records(thrust::raw_pointer_cast(device.data()), text.size(), '"', records, ctx);
    std::vector<record_span> got(records.size());
    thrust::copy(records.begin(), records.end(), got.begin());
    std::string shown;
    for (auto const& r : got)
      shown += "[" + std::to_string(r.begin) + "," + std::to_string(r.end) + ")@" + std::to_string(r.line) + " ";
    return shown;
  };
  EXPECT_EQ(spans("a,\"x\ny\"\nb\n"), "[0,8)@0 [8,10)@2 ");  // the header's worked example
  EXPECT_EQ(spans(""), "");
  EXPECT_EQ(spans("\n"), "[0,1)@0 ");
  EXPECT_EQ(spans("\"\"\"\n\"\n"), "[0,6)@0 ");        // a doubled quote, then a quoted newline
  EXPECT_EQ(spans("a\r\nb\r\n"), "[0,3)@0 [3,6)@1 ");  // CR LF
  EXPECT_EQ(spans("\"open\nno end"), "[0,12)@0 ");     // an open quote runs to the end
}

}  // namespace
