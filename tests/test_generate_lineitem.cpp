// SPDX-License-Identifier: Apache-2.0
// Tests of the lineitem.tbl generator: the specification's domains, dbgen's format, determinism and
// thread independence.
#include "rowscan/generate/lineitem.hpp"

#include <gtest/gtest.h>
#include <omp.h>

#include <cstdio>
#include <regex>
#include <set>
#include <stdexcept>
#include <string>
#include <vector>

namespace {

using rowscan::generate::lineitem_table_sizes;
using rowscan::generate::retail_price_cents;
using rowscan::generate::supplier_of;
using rowscan::generate::write_lineitem;

std::string generated(double scale, std::uint64_t seed, std::uint64_t* rows = nullptr) {
  std::FILE* file = std::tmpfile();
  std::uint64_t const written = write_lineitem(fileno(file), {scale, seed});
  if (rows != nullptr) *rows = written;
  std::string text(static_cast<std::size_t>(std::ftell(file)), '\0');
  std::rewind(file);
  text.resize(std::fread(text.data(), 1, text.size(), file));
  std::fclose(file);
  return text;
}

std::vector<std::string> split(std::string const& line, char separator) {
  std::vector<std::string> out(1);
  for (char c : line) {
    if (c == separator) {
      out.emplace_back();
    } else {
      out.back() += c;
    }
  }
  return out;
}

std::uint64_t cents(std::string const& decimal) {
  std::size_t const dot = decimal.find('.');
  return std::stoull(decimal.substr(0, dot)) * 100 + std::stoull(decimal.substr(dot + 1));
}

TEST(GenerateLineitem, TableSizesFollowTheScaleFactor) {
  auto const one = lineitem_table_sizes(1);
  EXPECT_EQ(one.orders, 1500000u);
  EXPECT_EQ(one.parts, 200000u);
  EXPECT_EQ(one.suppliers, 10000u);
  auto const small = lineitem_table_sizes(0.01);
  EXPECT_EQ(small.orders, 15000u);
  EXPECT_EQ(small.suppliers, 100u);
  EXPECT_THROW(lineitem_table_sizes(0), std::invalid_argument);
  EXPECT_THROW(lineitem_table_sizes(-1), std::invalid_argument);
  EXPECT_THROW(lineitem_table_sizes(1e6), std::invalid_argument);
}

TEST(GenerateLineitem, SpecificationFormulas) {
  EXPECT_EQ(retail_price_cents(1), 90100u);        // 901.00
  EXPECT_EQ(retail_price_cents(155190), 124519u);  // 1245.19: dbgen's first row has 17 x 1245.19 = 21168.23
  EXPECT_EQ(17 * retail_price_cents(155190), 2116823u);
  EXPECT_EQ(supplier_of(155190, 0, 10000), 5191u);
  EXPECT_EQ(supplier_of(155190, 1, 10000), 7706u);  // dbgen's first row: 1|155190|7706|1|17|21168.23|...
  for (std::uint64_t pk : {1u, 2u, 199999u, 200000u}) {
    std::set<std::uint64_t> suppliers;
    for (std::uint64_t i = 0; i < 4; ++i) suppliers.insert(supplier_of(pk, i, 10000));
    EXPECT_EQ(suppliers.size(), 4u) << pk;  // four distinct suppliers per part
    for (std::uint64_t s : suppliers) EXPECT_TRUE(s >= 1 && s <= 10000);
  }
}

TEST(GenerateLineitem, RowsFollowTheDomains) {
  SCOPED_TRACE("scale=0.01 seed=5");
  std::uint64_t rows = 0;
  std::string const text = generated(0.01, 5, &rows);
  auto const sizes = lineitem_table_sizes(0.01);
  static std::regex const price("[0-9]+\\.[0-9][0-9]");
  static std::regex const date("(199[2-8])-(0[1-9]|1[0-2])-(0[1-9]|[12][0-9]|3[01])");
  std::set<std::string> const instructs = {"DELIVER IN PERSON", "COLLECT COD", "NONE", "TAKE BACK RETURN"};
  std::set<std::string> const modes = {"REG AIR", "AIR", "RAIL", "SHIP", "TRUCK", "MAIL", "FOB"};
  std::set<std::uint64_t> orders, suppkeys;
  std::uint64_t lines = 0, previous_order = 0;
  ASSERT_EQ(text.back(), '\n');
  for (std::string const& line : split(text.substr(0, text.size() - 1), '\n')) {
    ++lines;
    auto const f = split(line, '|');
    ASSERT_EQ(f.size(), 17u) << line;  // 16 fields, each followed by '|'
    ASSERT_EQ(f[16], "") << line;
    std::uint64_t const order = std::stoull(f[0]), part = std::stoull(f[1]), supp = std::stoull(f[2]);
    std::uint64_t const quantity = std::stoull(f[4]);
    EXPECT_GE(order, previous_order);
    previous_order = order;
    EXPECT_TRUE((order - 1) % 32 < 8) << line;  // sparse keys
    orders.insert(order);
    suppkeys.insert(supp);
    EXPECT_TRUE(part >= 1 && part <= sizes.parts) << line;
    EXPECT_TRUE(supp >= 1 && supp <= sizes.suppliers) << line;
    bool supplies = false;
    for (std::uint64_t i = 0; i < 4; ++i) supplies |= supplier_of(part, i, sizes.suppliers) == supp;
    EXPECT_TRUE(supplies) << line;
    EXPECT_TRUE(std::stoull(f[3]) >= 1 && std::stoull(f[3]) <= 7) << line;
    EXPECT_TRUE(quantity >= 1 && quantity <= 50) << line;
    EXPECT_TRUE(std::regex_match(f[5], price)) << line;
    EXPECT_EQ(cents(f[5]), quantity * retail_price_cents(part)) << line;
    EXPECT_LE(cents(f[6]), 10u);
    EXPECT_LE(cents(f[7]), 8u);
    for (int d : {10, 11, 12}) EXPECT_TRUE(std::regex_match(f[d], date)) << line;
    EXPECT_LT(f[10], f[12]);  // shipped before received (ISO dates compare as text)
    EXPECT_EQ(f[9], f[10] > "1995-06-17" ? "O" : "F") << line;
    EXPECT_TRUE(f[12] <= "1995-06-17" ? (f[8] == "R" || f[8] == "A") : f[8] == "N") << line;
    EXPECT_EQ(instructs.count(f[13]), 1u) << line;
    EXPECT_EQ(modes.count(f[14]), 1u) << line;
    EXPECT_TRUE(f[15].size() >= 10 && f[15].size() <= 43) << line;
  }
  EXPECT_EQ(lines, rows);
  EXPECT_EQ(orders.size(), sizes.orders);
  EXPECT_EQ(suppkeys.size(), sizes.suppliers);  // 60,000 rows reach all 100 suppliers
  // 1..7 lines per order: 4 on average.
  EXPECT_NEAR(static_cast<double>(rows) / static_cast<double>(sizes.orders), 4.0, 0.1);
}

TEST(GenerateLineitem, SameBytesForTheSameOptionsWhateverTheThreads) {
  int const threads = omp_get_max_threads();
  omp_set_num_threads(1);
  std::string const one_thread = generated(0.02, 9);  // several blocks of orders
  omp_set_num_threads(3);
  std::string const three_threads = generated(0.02, 9);
  omp_set_num_threads(threads);
  EXPECT_EQ(one_thread, three_threads);
  EXPECT_EQ(generated(0.001, 9), generated(0.001, 9));
  EXPECT_NE(generated(0.001, 9), generated(0.001, 10));
}

}  // namespace
