// SPDX-License-Identifier: Apache-2.0
// Exact cents as decimal text (rowscan/lineitem/cents.hpp).
#include "rowscan/lineitem/cents.hpp"

#include <algorithm>
#include <string>

namespace rowscan::lineitem {

std::string format_cents(uint128 cents) {
  std::string digits;
  do {  // at least three digits, so that there is a whole part and two decimals
    digits += static_cast<char>('0' + static_cast<int>(cents % 10));
    cents /= 10;
  } while (cents != 0 || digits.size() < 3);
  std::reverse(digits.begin(), digits.end());
  digits.insert(digits.size() - 2, 1, '.');
  return digits;
}

}  // namespace rowscan::lineitem
