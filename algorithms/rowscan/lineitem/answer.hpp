// SPDX-License-Identifier: Apache-2.0
// rowscan/lineitem/answer.hpp: the answer of `rowscan lineitem`, as the host holds it (no Thrust here).
#pragma once

#include "rowscan/lineitem/cents.hpp"

#include <cstdint>

namespace rowscan::lineitem {

/// SUM(l_quantity * l_extendedprice) over the rows with l_suppkey < suppkey_below.
struct threshold_answer {
  std::uint64_t suppkey_below;
  uint128 sum_cents;
  std::uint64_t rows;
};

}  // namespace rowscan::lineitem
