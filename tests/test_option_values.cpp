// SPDX-License-Identifier: Apache-2.0
// The option value parsers (app/option_values.hpp): sizes with binary suffixes, whole numbers, decimals.
#include "option_values.hpp"

#include <gtest/gtest.h>

namespace {

using namespace rowscan::app;

TEST(OptionValues, SizesWithBinarySuffixes) {
  constexpr std::uint64_t any = ~std::uint64_t{0};
  EXPECT_EQ(parse_size("s", "0", 0, any), 0u);
  EXPECT_EQ(parse_size("s", "1K", 0, any), 1024u);
  EXPECT_EQ(parse_size("s", "3k", 0, any), 3072u);
  EXPECT_EQ(parse_size("s", "64M", 0, any), 64u << 20);
  EXPECT_EQ(parse_size("s", "64MiB", 0, any), 64u << 20);
  EXPECT_EQ(parse_size("s", "2G", 0, any), std::uint64_t{2} << 30);
  EXPECT_EQ(parse_size("s", "18446744073709551615", 0, any), any);
  // KB, MB and GB are the same binary units; "1KB" was a bad size before.
  EXPECT_EQ(parse_size("s", "1KB", 0, any), 1024u);
  EXPECT_EQ(parse_size("s", "64MB", 0, any), 64u << 20);
  EXPECT_EQ(parse_size("s", "64mb", 0, any), 64u << 20);
  EXPECT_EQ(parse_size("s", "2GB", 0, any), std::uint64_t{2} << 30);
  for (char const* bad : {"", "K", "1.5K", "1e6", "1 K", " 1", "1KiBB", "1kbit", "1T", "1TB", "-1", "18446744073709551616", "0x10"}) {
    EXPECT_THROW(parse_size("s", bad, 0, any), usage_error) << bad;
  }
  EXPECT_THROW(parse_size("s", "17179869184G", 0, any), usage_error);  // 2^64 bytes: out of range
  try {
    parse_size("chunk-size", "127", 128, std::uint64_t{1} << 31);
    ADD_FAILURE();
  } catch (usage_error const& e) {
    EXPECT_STREQ(e.what(), "--chunk-size: '127' is out of range (128 to 2G bytes)");
  }
}

TEST(OptionValues, WholeNumbersAndDecimals) {
  EXPECT_EQ(parse_whole_number("n", "42", 0, 100), 42u);
  EXPECT_THROW(parse_whole_number("n", "101", 0, 100), usage_error);
  EXPECT_THROW(parse_whole_number("n", "+1", 0, 100), usage_error);
  EXPECT_DOUBLE_EQ(parse_decimal("x", "0.01", 0.0001, 100000), 0.01);
  EXPECT_DOUBLE_EQ(parse_decimal("x", "1e3", 0.0001, 100000), 1000.0);
  for (char const* bad : {"", " 1", "1x", "inf", "nan", "1e999"}) {
    EXPECT_THROW(parse_decimal("x", bad, 0.0001, 100000), usage_error) << bad;
  }
  EXPECT_EQ(parse_choice("f", "json", {"text", "json"}), "json");
  EXPECT_THROW(parse_choice("f", "JSON", {"text", "json"}), usage_error);
  EXPECT_EQ(format_size(1536), "1536");
  EXPECT_EQ(format_size(2048), "2K");
}

}  // namespace
