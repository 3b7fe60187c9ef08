// SPDX-License-Identifier: Apache-2.0
// rowscan/lineitem/cents.hpp: exact money: integer cents in 128 bits, printed as dollars and cents.
#pragma once

#include "rowscan/hd.hpp"

#include <string>

namespace rowscan::lineitem {

/// Unsigned 128-bit integer (a GCC/Clang/nvcc builtin, host and device): wide enough for any sum of
/// fewer than 2^64 products below 2^64 (see query.hpp).
__extension__ typedef unsigned __int128 uint128;

/// Cents as dollars with two fractional digits: 12345 -> "123.45", 7 -> "0.07", 0 -> "0.00".
std::string format_cents(uint128 cents);

}  // namespace rowscan::lineitem
