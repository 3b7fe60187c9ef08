// SPDX-License-Identifier: Apache-2.0
// rowscan/generate/lineitem.hpp: synthesizes TPC-H lineitem.tbl files (dbgen's format) on the host.
#pragma once

#include "rowscan/io/write_all.hpp"

#include <cstdint>

namespace rowscan::generate {

/// What write_lineitem produces: the same options always give the same bytes.
struct lineitem_options {
  double scale = 1.0;      ///< TPC-H scale factor, 0.0001 .. 100000; fractions (0.01) give small tables
  std::uint64_t seed = 1;
};

/// The table sizes a scale factor implies (TPC-H 4.2.5), each at least 1.
struct lineitem_sizes {
  std::uint64_t orders;     ///< SF x 1,500,000; each has 1..7 lineitems, so about SF x 6,000,000 rows
  std::uint64_t parts;      ///< SF x 200,000: l_partkey is in 1..parts
  std::uint64_t suppliers;  ///< SF x 10,000: l_suppkey is in 1..suppliers
};

/// The sizes for options.scale; throws std::invalid_argument outside 0.0001 .. 100000.
lineitem_sizes lineitem_table_sizes(double scale);

/// p_retailprice of a part in cents, by TPC-H 4.2.3: 90000 + ((partkey / 10) mod 20001) + 100 * (partkey mod 1000).
constexpr std::uint64_t retail_price_cents(std::uint64_t partkey) {
  return 90000 + (partkey / 10) % 20001 + 100 * (partkey % 1000);
}

/// The supplier of a part's i-th (0..3) partsupp row, by TPC-H 4.2.3, for `suppliers` suppliers.
constexpr std::uint64_t supplier_of(std::uint64_t partkey, std::uint64_t i, std::uint64_t suppliers) {
  return (partkey + i * (suppliers / 4 + (partkey - 1) / suppliers)) % suppliers + 1;
}

/// Writes lineitem rows "f1|f2|...|f16|\n" to the file descriptor, in orderkey order, following TPC-H
/// 4.2.3: sparse order keys (8 of every 32), 1..7 lines per order, l_partkey uniform in 1..parts,
/// l_suppkey = supplier_of(partkey, uniform 0..3), l_quantity uniform 1..50 (printed as an integer, as
/// dbgen does), l_extendedprice = quantity x retail_price_cents(partkey) with two decimals, discount
/// 0.00..0.10, tax 0.00..0.08, the spec's date rules and flags, shipinstruct and shipmode from the
/// spec's lists, and a 10..43 byte comment cut from a generated text (never '|'). Orders are generated
/// in fixed blocks, each with its own random stream, in parallel with OpenMP: the output is byte-identical
/// for the same options whatever the number of threads. Returns the number of rows written. Throws
/// std::invalid_argument for a bad scale and rowscan::io::write_error (a std::system_error with errno) on write failure.
/// progress, if given, hears of each batch written (io::write_blocks).
std::uint64_t write_lineitem(int fd, lineitem_options const& options, io::write_progress const& progress = {});

}  // namespace rowscan::generate
