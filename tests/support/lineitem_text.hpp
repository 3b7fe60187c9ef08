// SPDX-License-Identifier: Apache-2.0
// Generated lineitem.tbl text for the lineitem tests: dbgen-shaped tables and hand-made rows.
#pragma once

#include "rowscan/generate/lineitem.hpp"
#include "support/light_mode.hpp"

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <random>
#include <string>

namespace support {

/// The table `rowscan generate lineitem --scale scale --seed seed` writes (scale 0.001: 10 suppliers,
/// about 6,000 rows).
inline std::string generated_table(double scale, std::uint64_t seed) {
  std::FILE* file = std::tmpfile();
  rowscan::generate::write_lineitem(fileno(file), {scale, seed});
  std::string text(static_cast<std::size_t>(std::ftell(file)), '\0');
  std::rewind(file);
  std::size_t const got = std::fread(text.data(), 1, text.size(), file);
  std::fclose(file);
  text.resize(got);
  return text;
}

/// A generated table, or in light mode its first `light_rows` rows (a prefix keeps dbgen's shape).
inline std::string generated_table(double scale, std::uint64_t seed, std::size_t light_rows) {
  return light_lines(generated_table(scale, seed), light_rows);
}

/// One dbgen-shaped row with the three fields the query reads replaced (121 bytes with "5", "17",
/// "21168.23"; l_suppkey starts at byte 9).
inline std::string lineitem_row(std::string const& suppkey, std::string const& quantity, std::string const& price) {
  return "1|155190|" + suppkey + "|1|" + quantity + "|" + price +
         "|0.04|0.02|N|O|1996-03-13|1996-02-12|1996-03-22|DELIVER IN PERSON|TRUCK|egular courts above the|\n";
}

/// A dbgen-shaped row with random fields the query reads: l_suppkey of 1 to 6 digits, l_quantity of 1
/// or 2 digits (one in four as "NN.00"), l_extendedprice of 1 to 7 digits and cents.
inline std::string random_lineitem_row(std::mt19937& rng) {
  auto digits = [&](std::size_t n) {
    std::string d;
    for (std::size_t i = 0; i < n; ++i) d += static_cast<char>('0' + rng() % 10);
    return d;
  };
  std::string const suppkey = digits(1 + rng() % 6);
  std::string const quantity = rng() % 4 ? digits(1 + rng() % 2) : digits(2) + ".00";
  std::string const price = digits(1 + rng() % 7) + "." + digits(2);
  return lineitem_row(suppkey, quantity, price);
}

}  // namespace support
