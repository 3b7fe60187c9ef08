// SPDX-License-Identifier: Apache-2.0
// A scalar reference for `rowscan lineitem`: split each line with std::string, match the fields with
// std::regex, sum in 128 bits. Written to be obviously right and to share no code with the compositions.
#pragma once

#include "reference/stations_reference.hpp"  // reference::bad_input

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace reference {

__extension__ typedef unsigned __int128 uint128;

/// SUM(l_quantity * l_extendedprice) in cents and the row count over rows with l_suppkey < suppkey_below.
struct lineitem_sum {
  std::uint64_t suppkey_below;
  uint128 sum_cents;
  std::uint64_t rows;
};

/// One lineitem_sum per threshold, in order. Throws bad_input at the first bad row: the 1-based line and
/// the byte offset of the faulty field (or of the end of a line with fewer than 16 '|', or of the byte
/// after the 16th '|' when more follows). With skipped (--skip-invalid), bad rows are left out of the
/// sums and appended to *skipped instead, all of them, in order.
std::vector<lineitem_sum> lineitem_sums(std::string_view text, std::vector<std::uint64_t> const& thresholds,
                                        std::vector<skipped_line>* skipped = nullptr);

/// Cents as "dollars.cc", the way `rowscan lineitem` prints a sum.
std::string cents_text(uint128 cents);

/// What `rowscan lineitem --suppkey-below Z1,Z2,...` prints: one cents_text line per threshold.
std::string lineitem_answer(std::string_view text, std::vector<std::uint64_t> const& thresholds,
                            std::vector<skipped_line>* skipped = nullptr);

}  // namespace reference
