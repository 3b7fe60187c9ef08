// SPDX-License-Identifier: Apache-2.0
// rowscan/generate/sales.hpp: synthesizes a sales CSV (RFC 4180) for `rowscan group` on the host.
#pragma once

#include "rowscan/io/write_all.hpp"

#include <cstdint>

namespace rowscan::generate {

/// What write_sales produces: the same options always give the same bytes.
struct sales_options {
  std::uint64_t rows = 0;
  std::uint32_t customers = 100000;  ///< distinct customer names (the key), 1 .. 10,000,000
  std::uint64_t seed = 1;
};

/// Writes `order_id,customer,product,city,note,quantity,price` and `rows` records after it, each ending
/// in LF. customer is drawn log-uniformly from `customers` names (a few are met often, most seldom; a
/// seventh of them are "Surname, Given N", quoted for their comma); product and city come from lists
/// that hold commas and doubled quotes; note is mostly empty, sometimes quoted text with commas or
/// doubled quotes, and about one record in 2,000 holds a newline in it; quantity is 1 to 20 and price
/// 0.50 to 999.99 with two decimals, each empty in about one record in 50 and 100. Records are made in
/// fixed blocks, each with its own random stream, in parallel: the bytes are the same for any thread
/// count. Returns the bytes written. Throws rowscan::io::write_error on a write failure.
/// progress, if given, hears of each batch written (io::write_blocks).
std::uint64_t write_sales(int fd, sales_options const& options, io::write_progress const& progress = {});

}  // namespace rowscan::generate
