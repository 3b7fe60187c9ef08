// SPDX-License-Identifier: Apache-2.0
// Host-side text of `rowscan lineitem`: thresholds in, sums out, and the words of its errors.
#include "rowscan/error.hpp"
#include "rowscan/lineitem/cents.hpp"
#include "rowscan/lineitem/row_format.hpp"
#include "rowscan/lineitem/summarize.hpp"

#include <algorithm>
#include <cstdio>
#include <limits>

namespace rowscan::lineitem {

char const* describe(row_status status) {
  switch (status) {
    case row_status::ok: return "valid row";
    case row_status::missing_fields: return "expected 16 fields, each followed by '|' (the last one too)";
    case row_status::extra_fields: return "bytes after the 16th '|': a row has 16 fields, each followed by '|'";
    case row_status::carriage_return:
      return "line ends with CR LF (a Windows line ending); convert the file to LF line endings";
    case row_status::bad_suppkey: return "l_suppkey must be a whole number from 0 to 4294967295";
    case row_status::bad_quantity: return "l_quantity must be a whole number from 0 to 4294967295, like 17 or 17.00";
    case row_status::bad_price:
      return "l_extendedprice must be a decimal with exactly two fractional digits, like 21168.23, "
             "from 0.00 to 42949672.95";
  }
  return "invalid row";
}

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

std::vector<std::uint64_t> parse_thresholds(std::string const& list) {
  std::vector<std::uint64_t> out;
  std::size_t start = 0;
  while (true) {
    std::size_t const comma = std::min(list.find(',', start), list.size());
    std::string const item = list.substr(start, comma - start);
    bool ok = !item.empty();
    std::uint64_t value = 0;
    for (char c : item) {
      std::uint64_t const digit = static_cast<std::uint64_t>(c - '0');
      if (c < '0' || c > '9' || value > (std::numeric_limits<std::uint64_t>::max() - digit) / 10) {
        ok = false;
        break;
      }
      value = value * 10 + digit;
    }
    if (!ok) {
      throw error("--suppkey-below: '" + item + "' is not a whole number from 0 to 18446744073709551615 (the list is Z1,Z2,...)");
    }
    out.push_back(value);
    if (comma == list.size()) break;
    start = comma + 1;
  }
  return out;
}

std::string format_text(summary const& s) {
  std::string out;
  for (auto const& a : s.answers) out += format_cents(a.sum_cents) + "\n";
  return out;
}

std::string format_json(summary const& s, bool with_timings) {
  auto seconds = [](double value) {
    char text[32];
    std::snprintf(text, sizeof text, "%.6f", value);
    return std::string(text);
  };
  std::string out = "{\"rows\": " + std::to_string(s.rows) + ", \"bytes\": " + std::to_string(s.bytes);
  if (with_timings) {
    out += ", \"load_seconds\": " + seconds(s.times.load) + ", \"query_seconds\": " + seconds(s.times.query);
  }
  out += ", \"results\": [";
  for (std::size_t i = 0; i < s.answers.size(); ++i) {
    auto const& a = s.answers[i];
    out += (i > 0 ? ",\n  " : "\n  ");
    // The sum as a string: its up to 39 digits are exact, where a JSON number would become a double.
    out += "{\"suppkey_below\": " + std::to_string(a.suppkey_below) + ", \"sum\": \"" + format_cents(a.sum_cents) +
           "\", \"rows\": " + std::to_string(a.rows) + "}";
  }
  return out + "]}\n";
}

}  // namespace rowscan::lineitem
