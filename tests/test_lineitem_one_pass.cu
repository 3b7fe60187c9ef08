// SPDX-License-Identifier: Apache-2.0
// The lineitem one pass (rowscan/lineitem/one_pass.hpp) against the scalar reference: the same sums and
// row count for a block of valid rows, and no answer for a block with a row it must leave to the
// step-by-step composition (bad, or longer than its limit), wherever the rows fall on its 128-byte
// stretches and however the text is aligned.
#include "reference/lineitem_reference.hpp"
#include "rowscan/context.hpp"
#include "rowscan/lineitem/columns.hpp"
#include "rowscan/lineitem/one_pass.hpp"

#include "support/lineitem_text.hpp"
#include "support/long_comments.hpp"

#include <gtest/gtest.h>
#include <thrust/device_vector.h>

#include <cstdint>
#include <optional>
#include <random>
#include <string>
#include <vector>

namespace {

namespace li = rowscan::lineitem;

/// sums_in_one_pass over text placed `misalignment` bytes past an aligned address in device memory,
/// followed by the walk's padding of '|' and '\n' bytes that it must not read as the text's.
std::optional<li::one_pass_result> one_pass(std::string const& text, std::vector<std::uint64_t> const& thresholds,
                                            std::size_t misalignment, std::uint32_t stretch_bytes) {
  std::string const placed = std::string(misalignment, '\n') + text + "|\n|\n|\n|\n";
  thrust::device_vector<char> const device_text(placed.begin(), placed.end());
  return li::sums_in_one_pass(thrust::raw_pointer_cast(device_text.data()) + misalignment, text.size(), thresholds,
                              rowscan::context{}, stretch_bytes);
}

std::size_t lines_of(std::string const& text) {
  std::size_t lines = 0;
  for (char c : text) lines += c == '\n';
  return lines + (!text.empty() && text.back() != '\n');
}

/// Stretches of a GPU's size, a host's, smaller and odd sizes, and a byte.
constexpr std::uint32_t stretch_sizes[] = {512, 65536, 128, 100, 1};

/// The one pass's answer is the reference's, or none where the reference skips a row or a row is longer
/// than the pass walks; for every stretch size.
void expect_like_the_reference(std::string const& text, std::vector<std::uint64_t> const& thresholds,
                               std::size_t misalignment) {
  std::vector<reference::skipped_line> skipped;
  auto const expected = reference::lineitem_sums(text, thresholds, &skipped);
  std::size_t longest = 0;  // the longest row, without its '\n'
  for (std::size_t begin = 0; begin < text.size();) {
    std::size_t const newline = text.find('\n', begin);
    std::size_t const end = newline == std::string::npos ? text.size() : newline;
    longest = std::max(longest, end - begin);
    begin = end + 1;
  }
  if (longest == li::one_pass_row_limit) return;  // a row of exactly the limit may go either way: both are right
  bool const taken = skipped.empty() && longest < li::one_pass_row_limit && thresholds.size() <= li::max_thresholds;
  for (std::uint32_t stretch : stretch_sizes) {
    SCOPED_TRACE("stretch_bytes=" + std::to_string(stretch));
    auto const got = one_pass(text, thresholds, misalignment, stretch);
    if (!taken) {
      EXPECT_FALSE(got.has_value()) << skipped.size() << " bad rows, longest " << longest;
      continue;
    }
    ASSERT_TRUE(got.has_value());
    EXPECT_EQ(got->rows, lines_of(text));
    ASSERT_EQ(got->sums.size(), expected.size());
    for (std::size_t k = 0; k < expected.size(); ++k) {
      EXPECT_EQ(got->sums[k].suppkey_below, thresholds[k]);
      EXPECT_TRUE(got->sums[k].sum_cents == expected[k].sum_cents) << "threshold " << thresholds[k];
      EXPECT_EQ(got->sums[k].rows, expected[k].rows) << "threshold " << thresholds[k];
    }
  }
}

TEST(LineitemOnePass, RandomTextsMatchTheReferenceOrGiveNoAnswer) {
  for (std::uint32_t seed = 1; seed <= 60; ++seed) {
    SCOPED_TRACE("seed=" + std::to_string(seed));
    std::mt19937 rng(seed);
    bool const clean = seed % 3 != 0;  // two texts in three are all valid rows
    std::string text;
    std::size_t const rows = 1 + rng() % 400;
    for (std::size_t i = 0; i < rows; ++i) {
      std::string r = support::random_lineitem_row(rng);
      std::size_t const comment = r.rfind('|', r.size() - 3) + 1;  // the last field, before its '|'
      r.replace(comment, r.size() - 2 - comment, std::string(rng() % 113, 'c'));  // 0 to 112 bytes
      std::size_t const at = rng() % (r.size() - 1);
      switch (clean ? 99 : rng() % 24) {
        case 0: r.erase(r.find('|', at) == std::string::npos ? at : r.find('|', at), 1); break;
        case 1: r.insert(at, "|"); break;
        case 2: r[at] = "|.0a-\r\n9"[rng() % 8]; break;
        case 3: r.insert(r.size() - 1, "\r"); break;
        case 4: r = "\n"; break;
        case 5: r.insert(r.size() - 2, 1100, 'c'); break;  // valid, longer than the pass walks
        default: break;
      }
      text += r;
    }
    if (rng() % 2) text.pop_back();  // the last line without its '\n'
    std::vector<std::uint64_t> thresholds;
    std::size_t const count = 1 + rng() % 9;  // nine is more than one pass answers
    for (std::size_t k = 0; k < count; ++k) thresholds.push_back(rng() % 3 ? rng() % 1000000 : UINT64_MAX);
    expect_like_the_reference(text, thresholds, rng() % 8);
  }
}

TEST(LineitemOnePass, GeneratedTablesAtEveryAlignment) {
  std::string const table = support::generated_table(0.001, 21, 300);
  for (std::size_t misalignment = 0; misalignment < 8; ++misalignment) {
    SCOPED_TRACE("misalignment=" + std::to_string(misalignment));
    expect_like_the_reference(table, {5, 8, 11}, misalignment);
  }
}

TEST(LineitemOnePass, RowsOnTheStretchesEdges) {
  std::string row128 = support::lineitem_row("7", "3", "12.34");
  row128.insert(row128.size() - 2, 128 - row128.size(), 'c');  // a GPU's stretch
  ASSERT_EQ(row128.size(), 128u);
  std::string rows128;  // every row starts at a stretch's first byte, its '\n' the stretch's last
  for (int i = 0; i < 20; ++i) rows128 += row128;
  expect_like_the_reference(rows128, {8}, 0);
  expect_like_the_reference(rows128, {8}, 3);
  expect_like_the_reference(rows128.substr(0, rows128.size() - 1), {8}, 0);  // the last without '\n'
  // Rows one byte shorter and longer: a stretch with two rows starting in it, and one with none.
  expect_like_the_reference(std::string(row128).erase(row128.size() - 3, 1) + rows128, {8}, 0);
  expect_like_the_reference(std::string(row128).insert(row128.size() - 3, "c") + rows128, {8}, 0);
  expect_like_the_reference(row128.substr(0, 60), {8}, 0);  // one short bad row, shorter than a stretch
  expect_like_the_reference(rows128 + "\n" + rows128, {8}, 0);  // an empty line
  expect_like_the_reference(support::with_long_comments(rows128, 7, 1100), {8}, 0);
  expect_like_the_reference(std::string(), {8}, 0);
}

}  // namespace
