// SPDX-License-Identifier: Apache-2.0
// The `rowscan group` answer's arithmetic and merge (rowscan/group/summary.hpp): plain C++.
#include "rowscan/group/summary.hpp"

#include "rowscan/error.hpp"
#include "rowscan/job/merge_reports.hpp"

#include <algorithm>
#include <utility>

namespace rowscan::group {

namespace {
__int128 power_of_ten(unsigned n) {
  __int128 p = 1;
  for (unsigned i = 0; i < n; ++i) p *= 10;
  return p;
}
/// floor(a / b) for b > 0.
__int128 floor_divide(__int128 a, __int128 b) {
  __int128 q = a / b;
  if (a % b != 0 && a < 0) --q;
  return q;
}
}  // namespace

value_stats rescaled(value_stats s, unsigned from, unsigned to) {
  if (to <= from) return s;
  __int128 const p = power_of_ten(to - from);
  s.sum *= p;
  s.min *= p;
  s.max *= p;
  return s;
}

value_stats combined(value_stats const& a, value_stats const& b) {
  value_stats out;
  out.count = a.count + b.count;
  out.missing = a.missing + b.missing;
  out.sum = a.sum + b.sum;
  if (a.count == 0) {
    out.min = b.min;
    out.max = b.max;
  } else if (b.count == 0) {
    out.min = a.min;
    out.max = a.max;
  } else {
    out.min = std::min(a.min, b.min);
    out.max = std::max(a.max, b.max);
  }
  return out;
}

__int128 rounded_mean(value_stats const& s) {
  // floor(sum / count + 1/2) = floor((2 sum + count) / (2 count)): half up, toward +infinity.
  auto const count = static_cast<__int128>(s.count);
  return floor_divide(2 * s.sum + count, 2 * count);
}

std::string decimal_text(__int128 value, unsigned scale) {
  bool const negative = value < 0;
  unsigned __int128 magnitude =
      negative ? static_cast<unsigned __int128>(-(value + 1)) + 1 : static_cast<unsigned __int128>(value);
  std::string digits;
  do {
    digits.push_back(static_cast<char>('0' + static_cast<int>(magnitude % 10)));
    magnitude /= 10;
  } while (magnitude != 0);
  while (digits.size() <= scale) digits.push_back('0');
  std::reverse(digits.begin(), digits.end());
  if (scale > 0) digits.insert(digits.end() - scale, '.');
  return negative ? "-" + digits : digits;
}

summary merge_summaries(summary a, summary const& b) {
  job::add_report(a, b);
  if (b.rows.empty() && b.scales.empty()) {
    a.records += b.records;
    a.keys_compared = a.keys_compared || b.keys_compared;
    return a;
  }
  std::size_t const columns = std::max(a.scales.size(), b.scales.size());
  std::vector<unsigned> scales(columns, 0);
  for (std::size_t j = 0; j < columns; ++j) {
    scales[j] = std::max(j < a.scales.size() ? a.scales[j] : 0u, j < b.scales.size() ? b.scales[j] : 0u);
  }
  auto lift = [&](group_row row, std::vector<unsigned> const& from) {
    row.values.resize(columns);
    for (std::size_t j = 0; j < columns; ++j)
      row.values[j] = rescaled(row.values[j], j < from.size() ? from[j] : 0, scales[j]);
    return row;
  };
  std::vector<group_row> rows;
  rows.reserve(a.rows.size() + b.rows.size());
  std::size_t i = 0, k = 0;
  while (i < a.rows.size() || k < b.rows.size()) {
    if (k == b.rows.size() || (i < a.rows.size() && a.rows[i].key < b.rows[k].key)) {
      rows.push_back(lift(std::move(a.rows[i++]), a.scales));
    } else if (i == a.rows.size() || b.rows[k].key < a.rows[i].key) {
      rows.push_back(lift(b.rows[k++], b.scales));
    } else {
      group_row row = lift(std::move(a.rows[i++]), a.scales);
      group_row const other = lift(b.rows[k++], b.scales);
      for (std::size_t j = 0; j < columns; ++j) row.values[j] = combined(row.values[j], other.values[j]);
      rows.push_back(std::move(row));
    }
  }
  a.rows = std::move(rows);
  a.scales = std::move(scales);
  a.records += b.records;
  a.keys_compared = a.keys_compared || b.keys_compared;
  return a;
}

}  // namespace rowscan::group
