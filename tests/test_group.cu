// SPDX-License-Identifier: Apache-2.0
// The group workload's compositions against the scalar reference (reference/group_reference.hpp): the
// quote-parity scan's algebra (bytes and 32-byte words), find_records, and whole blocks folded by a worker.
#include "reference/group_reference.hpp"
#include "rowscan/context.hpp"
#include "rowscan/generate/sales.hpp"
#include "rowscan/group/records.hpp"
#include "rowscan/group/worker.hpp"

#include <gtest/gtest.h>
#include <thrust/device_vector.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <functional>
#include <random>
#include <string>
#include <tuple>
#include <vector>

namespace {

using rowscan::group::quote_interval;
using rowscan::group::quote_interval_plus;
using rowscan::group::record_span;
using rowscan::group::records_found;

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

/// Every text of up to 7 bytes over quote, newline and a letter, cut into three runs every way: the
/// two groupings agree with each other and with the left-to-right fold.
TEST(GroupRecords, QuoteIntervalPlusIsAssociativeOnEveryShortText) {
  static char const alphabet[] = {'"', '\n', 'a'};
  quote_interval_plus const plus;
  for (std::size_t n = 0; n <= 7; ++n) {
    std::size_t texts = 1;
    for (std::size_t k = 0; k < n; ++k) texts *= 3;
    for (std::size_t code = 0; code < texts; ++code) {
      std::string text(n, 'a');
      for (std::size_t k = 0, c = code; k < n; ++k, c /= 3) text[k] = alphabet[c % 3];
      quote_interval const whole = fold_of(text, 0, n);
      for (std::size_t i = 0; i <= n; ++i) {
        for (std::size_t j = i; j <= n; ++j) {
          quote_interval const a = fold_of(text, 0, i), b = fold_of(text, i, j), c = fold_of(text, j, n);
          ASSERT_TRUE(same(plus(plus(a, b), c), whole)) << "text of code " << code << ", runs at " << i << ", " << j;
          ASSERT_TRUE(same(plus(a, plus(b, c)), whole)) << "text of code " << code << ", runs at " << i << ", " << j;
        }
      }
    }
  }
}

/// The interval of text[begin, end) combined in a random bracketing (a random split, each half
/// recursively), as a parallel scan may group it.
quote_interval randomly_bracketed(std::string const& text, std::size_t begin, std::size_t end,
                                  std::mt19937_64& random) {
  if (end - begin == 1) return rowscan::group::position_interval{text.data(), '"'}(static_cast<std::uint32_t>(begin));
  std::size_t const middle = begin + 1 + random() % (end - begin - 1);
  quote_interval const left = randomly_bracketed(text, begin, middle, random);
  return quote_interval_plus{}(left, randomly_bracketed(text, middle, end, random));
}

TEST(GroupRecords, AnyBracketingOfALongTextGivesTheFold) {
  for (std::uint64_t seed = 1; seed <= 40; ++seed) {
    std::mt19937_64 random(seed);
    std::string const text = random_text(random, 1 + random() % 5000);
    EXPECT_TRUE(same(randomly_bracketed(text, 0, text.size(), random), fold_of(text, 0, text.size())))
        << "seed " << seed << ", " << text.size() << " bytes";
  }
}

/// Why the whole text's interval comes from the scan and never from a reduce: the combine is not
/// commutative, and a GPU reduce combines positions in another order (records.hpp).
TEST(GroupRecords, QuoteIntervalPlusIsNotCommutative) {
  std::string const text = "\"\na";
  quote_interval const quote = fold_of(text, 0, 1), rest = fold_of(text, 1, 3);
  EXPECT_EQ(quote_interval_plus{}(quote, rest).starts[0], 0u);  // the '\n' is quoted: it ends nothing
  EXPECT_EQ(quote_interval_plus{}(rest, quote).starts[0], 1u);
}

/// find_records against the reference's records, checked record by record.
void expect_reference_records(std::string const& text, char quote, thrust::device_vector<record_span>& records,
                              thrust::device_vector<records_found>& found, std::string const& what,
                              std::size_t offset = 0) {
  rowscan::context ctx;
  // The text `offset` bytes into an aligned buffer, so that its words start at any byte of it.
  thrust::device_vector<char> device(offset + text.size(), 'x');
  thrust::copy(text.begin(), text.end(), device.begin() + static_cast<std::ptrdiff_t>(offset));
  records_found const got_whole = rowscan::group::find_records(thrust::raw_pointer_cast(device.data()) + offset,
                                                               text.size(), quote, records, found, ctx);
  std::vector<record_span> got(records.size());
  if (!got.empty()) thrust::copy(records.begin(), records.end(), got.begin());
  auto const expected = reference::split_records(text, quote);
  ASSERT_EQ(got.size(), expected.size()) << what;
  for (std::size_t r = 0; r < got.size(); ++r) {
    ASSERT_EQ(got[r].begin, expected[r].begin) << what << ", record " << r;
    ASSERT_EQ(got[r].end, expected[r].end) << what << ", record " << r;
    ASSERT_EQ(got[r].line, expected[r].line) << what << ", record " << r;
  }
  EXPECT_EQ(got_whole.records, expected.size()) << what;
  EXPECT_EQ(got_whole.lines, static_cast<std::uint32_t>(std::count(text.begin(), text.end(), '\n'))) << what;
  auto const quotes = quote == 0 ? 0 : std::count(text.begin(), text.end(), quote);
  EXPECT_EQ(got_whole.open_quote, static_cast<std::uint32_t>(quotes % 2)) << what;
#if !ROWSCAN_HAS_CUB
  // The host worker's walk over the same words, with the parity in hand.
  records_found const walked = rowscan::group::find_records_walking(thrust::raw_pointer_cast(device.data()) + offset,
                                                                    text.size(), quote, records, ctx);
  got.assign(records.size(), record_span{});
  if (!got.empty()) thrust::copy(records.begin(), records.end(), got.begin());
  ASSERT_EQ(got.size(), expected.size()) << what << ", walking";
  for (std::size_t r = 0; r < got.size(); ++r) {
    ASSERT_EQ(got[r].begin, expected[r].begin) << what << ", walking, record " << r;
    ASSERT_EQ(got[r].end, expected[r].end) << what << ", walking, record " << r;
    ASSERT_EQ(got[r].line, expected[r].line) << what << ", walking, record " << r;
  }
  EXPECT_EQ(walked.records, got_whole.records) << what << ", walking";
  EXPECT_EQ(walked.lines, got_whole.lines) << what << ", walking";
  EXPECT_EQ(walked.open_quote, got_whole.open_quote) << what << ", walking";
#endif
}

/// A generated sales CSV (quoted fields, doubled quotes, the odd quoted newline) of `rows` records.
std::string sales_text(std::uint64_t rows, std::uint64_t seed, std::uint32_t customers = 1000) {
  std::FILE* file = std::tmpfile();
  rowscan::generate::write_sales(fileno(file), {rows, customers, seed});
  std::string text(static_cast<std::size_t>(std::ftell(file)), '\0');
  std::rewind(file);
  text.resize(std::fread(text.data(), 1, text.size(), file));
  std::fclose(file);
  return text;
}

/// Texts of many scan tiles on a GPU (and several of its reduce's): generated sales files, and random
/// quotes and newlines, found in turn with the same arrays (a larger block's records left in them).
TEST(GroupRecords, FindRecordsOnTextsOfManyTiles) {
  thrust::device_vector<record_span> records;
  thrust::device_vector<records_found> whole;
  for (std::uint64_t rows : {20000u, 1000u, 30u}) {
    std::string const text = sales_text(rows, rows);
    expect_reference_records(text, '"', records, whole, "sales, " + std::to_string(rows) + " rows");
    expect_reference_records(text, '\0', records, whole, "sales without quoting, " + std::to_string(rows) + " rows");
  }
  for (std::uint64_t seed = 1; seed <= 6; ++seed) {
    std::mt19937_64 random(seed);
    std::string const text = random_text(random, std::size_t{1} << (12 + seed));
    expect_reference_records(text, '"', records, whole, "random text, seed " + std::to_string(seed));
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
      records_found const whole =
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

/// A text whose bytes at and next to every word boundary (for words that start `offset` bytes into an
/// aligned buffer) are quotes, newlines or CRs more often than elsewhere.
std::string boundary_text(std::mt19937_64& random, std::size_t size, std::size_t offset) {
  static char const edges[] = "\"\"\"\n\n\r,a";
  std::string text = random_text(random, size);
  std::size_t const word = rowscan::group::quote_word_bytes;
  for (std::size_t i = 0; i < size; ++i) {
    std::size_t const in_word = (offset + i) % word;
    if ((in_word == 0 || in_word == word - 1 || in_word == 1) && random() % 2 == 0)
      text[i] = edges[random() % (sizeof edges - 1)];
  }
  return text;
}

/// Each word's interval, computed from its bit masks, equals the fold of its bytes' intervals: for texts
/// at every offset into a word (a partial first word), of sizes that are and are not whole words.
TEST(GroupRecords, WordIntervalIsTheFoldOfItsBytes) {
  std::size_t const word = rowscan::group::quote_word_bytes;
  for (std::uint64_t seed = 1; seed <= 200; ++seed) {
    std::mt19937_64 random(seed);
    std::size_t const offset = random() % word;
    std::size_t const size = 1 + random() % (4 * word + 3);
    std::string const text = boundary_text(random, size, offset);
    char const quote = seed % 5 == 0 ? '\0' : '"';
    thrust::device_vector<char> device(offset + size, 'x');
    thrust::copy(text.begin(), text.end(), device.begin() + static_cast<std::ptrdiff_t>(offset));
    char const* const data = thrust::raw_pointer_cast(device.data()) + offset;
    std::size_t const words = rowscan::group::quote_word_count(data, size);
    thrust::device_vector<quote_interval> own(words), scanned(words);
    rowscan::context ctx;
    rowscan::group::scan_quote_intervals(data, size, quote, thrust::raw_pointer_cast(own.data()),
                                         thrust::raw_pointer_cast(scanned.data()), ctx);
    std::vector<quote_interval> got(words), got_scanned(words);
    thrust::copy(own.begin(), own.end(), got.begin());
    thrust::copy(scanned.begin(), scanned.end(), got_scanned.begin());
    std::uint32_t const head = rowscan::group::quote_word_head(data);
    ASSERT_EQ(words, (head + size + word - 1) / word) << "seed " << seed;
    rowscan::group::position_interval const at{text.data(), quote};
    quote_interval before = rowscan::group::text_start();
    for (std::size_t w = 0; w < words; ++w) {
      std::int64_t const first = static_cast<std::int64_t>(w * word) - head;
      std::size_t const begin = static_cast<std::size_t>(std::max<std::int64_t>(first, 0));
      std::size_t const end =
          std::min<std::size_t>(static_cast<std::size_t>(first + static_cast<std::int64_t>(word)), size);
      quote_interval expected{{0, 0}, {0, 0}, {0, 0}, 0, 0};
      for (std::size_t i = begin; i < end; ++i)
        expected = quote_interval_plus{}(expected, at(static_cast<std::uint32_t>(i)));
      ASSERT_TRUE(same(got[w], expected)) << "seed " << seed << ", offset " << offset << ", word " << w;
      ASSERT_TRUE(same(got_scanned[w], before)) << "seed " << seed << ", offset " << offset << ", word " << w;
      before = quote_interval_plus{}(before, expected);
    }
  }
}

/// The word-level find_records against the reference's parity walk, with quotes, newlines and CRs
/// crowded at word boundaries, texts at every offset into a word and of sizes around whole words.
TEST(GroupRecords, FindRecordsAtWordBoundaries) {
  std::size_t const word = rowscan::group::quote_word_bytes;
  thrust::device_vector<record_span> records;
  thrust::device_vector<records_found> found;
  for (std::uint64_t seed = 1; seed <= 300; ++seed) {
    std::mt19937_64 random(seed);
    std::size_t const offset = random() % word;
    std::size_t const words = random() % 6;
    std::size_t const size = words * word + (random() % 3 == 0 ? 0 : random() % word) + (seed % 7 == 0 ? word - 1 : 0);
    std::string const text = boundary_text(random, size, offset);
    for (char quote : {'"', '\0'}) {
      expect_reference_records(text, quote, records, found,
                               "seed " + std::to_string(seed) + ", offset " + std::to_string(offset) + ", " +
                                   std::to_string(size) + " bytes, quote " + std::to_string(int(quote)),
                               offset);
    }
  }
}

/// Named word-boundary cases: a quoted newline as a word's last byte, a record-ending one as its first,
/// a doubled quote split by a boundary, a text of exactly one word and one more byte.
TEST(GroupRecords, NamedWordBoundaryCases) {
  thrust::device_vector<record_span> records;
  thrust::device_vector<records_found> found;
  std::size_t const word = rowscan::group::quote_word_bytes;
  std::string quoted_newline_last = "\"" + std::string(word - 2, 'a') + "\n\"\n";  // '\n' at word - 1, quoted
  std::string ending_newline_first = std::string(word, 'b') + "\nc\n";             // '\n' at word, ends one
  std::string doubled_across = std::string(word - 1, 'd');
  doubled_across[0] = '"';
  doubled_across += "\"\"\"\n\n";  // `""` split by the boundary, then the closing quote
  std::string one_word_and_a_byte = std::string(word, 'e') + "\n";
  std::string open_at_end = std::string(word - 1, 'f') + "\"\n" + std::string(word, 'g');
  for (std::string const& text :
       {quoted_newline_last, ending_newline_first, doubled_across, one_word_and_a_byte, open_at_end}) {
    for (std::size_t offset : {std::size_t{0}, std::size_t{1}, word - 1}) {
      expect_reference_records(text, '"', records, found, "named case at offset " + std::to_string(offset), offset);
    }
  }
}

/// The answer of `text` (whole records) folded by a worker in blocks of about `block_records` records,
/// each block padded as the driver pads it: the rows, the scales and how many blocks took the fast path.
struct folded {
  std::vector<rowscan::group::group_row> rows;
  std::vector<unsigned> scales;
  std::size_t fast_blocks = 0;
};

folded fold_in_blocks(std::string const& text, rowscan::group::text_format const& format, std::size_t block_records,
                      bool explained, std::uint64_t key_mask = ~std::uint64_t{0}) {
  rowscan::context ctx;
  rowscan::group::worker w(ctx, {format, key_mask}, explained);
  auto const records = reference::split_records(text, format.quote);
  for (std::size_t first = 0; first < records.size(); first += block_records) {
    std::size_t const last = std::min(records.size(), first + block_records) - 1;
    std::string const block = text.substr(records[first].begin, records[last].end - records[first].begin);
    thrust::device_vector<char> device(block.size() + rowscan::group::key_padding_bytes, 'x');
    thrust::copy(block.begin(), block.end(), device.begin());
    auto const t = w.fold(thrust::raw_pointer_cast(device.data()), block.size());
    EXPECT_FALSE(t.stop.has_value()) << "block at record " << first;
  }
  w.finish();
  return {rowscan::group::rows_of(w.partial(), ctx), w.scales(), w.paths().fast_blocks()};
}

/// The same rows: keys and every figure.
void expect_same_rows(folded const& got, folded const& expected, std::string const& what) {
  ASSERT_EQ(got.scales, expected.scales) << what;
  ASSERT_EQ(got.rows.size(), expected.rows.size()) << what;
  for (std::size_t r = 0; r < got.rows.size(); ++r) {
    auto const& a = got.rows[r];
    auto const& b = expected.rows[r];
    ASSERT_EQ(a.key, b.key) << what << ", row " << r;
    ASSERT_EQ(a.values.size(), b.values.size()) << what << ", row " << r;
    for (std::size_t j = 0; j < a.values.size(); ++j) {
      EXPECT_EQ(a.values[j].count, b.values[j].count) << what << ", key " << a.key << ", column " << j;
      EXPECT_EQ(a.values[j].missing, b.values[j].missing) << what << ", key " << a.key << ", column " << j;
      EXPECT_TRUE(a.values[j].sum == b.values[j].sum) << what << ", key " << a.key << ", column " << j;
      if (a.values[j].count > 0) {
        EXPECT_TRUE(a.values[j].min == b.values[j].min) << what << ", key " << a.key << ", column " << j;
        EXPECT_TRUE(a.values[j].max == b.values[j].max) << what << ", key " << a.key << ", column " << j;
      }
    }
  }
}

/// Blocks whose keys the worker's table holds take the dense-id fast path (known_keys.hpp): in order
/// on one thread, and sorted by id (the GPU's composition, which --explain's worker runs on any system).
/// Both give the rows of one block folded whole, which the general path groups alone.
TEST(GroupKnownKeys, FastPathsGiveTheGeneralPathsRows) {
  rowscan::group::text_format sales;
  sales.keys = {1};       // customer
  sales.values = {5, 6};  // quantity, price
  std::string const generated = sales_text(2000, 7, 30);
  std::string const text = generated.substr(generated.find('\n') + 1);  // the header left out

  // Values whose digits grow along the file: the table's columns are lifted to a later block's scale.
  rowscan::group::text_format growing;
  growing.delimiter = ';';
  growing.keys = {0};
  growing.values = {1};
  std::string grown;
  for (int i = 0; i < 3000; ++i) {
    grown += "key " + std::to_string(i % 37) + ";" + std::to_string(i % 101 - 50);
    if (i >= 1000) grown += "." + std::to_string(i % 10);
    if (i >= 2000) grown += std::to_string(i % 7) + "5";
    grown += i % 53 == 0 ? ";x\n" : "\n";
  }
  grown += "\"a \"\"quoted\"\" key\";1\n;2\n";  // a doubled quote and an empty key: the general path's

  for (auto const& [what, input, format] :
       {std::make_tuple("sales", text, sales), std::make_tuple("growing", grown, growing)}) {
    folded const whole = fold_in_blocks(input, format, std::size_t{1} << 30, false);
    for (std::size_t block_records : {97u, 500u}) {
      std::string const label = std::string(what) + ", blocks of " + std::to_string(block_records);
      folded const in_order = fold_in_blocks(input, format, block_records, false);
      folded const sorted = fold_in_blocks(input, format, block_records, true);
      folded const few_bits = fold_in_blocks(input, format, block_records, false, 0x3);
      EXPECT_GT(in_order.fast_blocks, 0u) << label;
      EXPECT_GT(sorted.fast_blocks, 0u) << label;
      expect_same_rows(in_order, whole, label + ", in order");
      expect_same_rows(sorted, whole, label + ", sorted");
      expect_same_rows(few_bits, whole, label + ", two key bits");
    }
  }
}

}  // namespace
