// SPDX-License-Identifier: Apache-2.0
// The text of `rowscan lineitem` (rowscan/lineitem/format.hpp): thresholds in, sums out.
#include "rowscan/lineitem/format.hpp"

#include "rowscan/error.hpp"
#include "rowscan/lineitem/cents.hpp"

#include <algorithm>
#include <cstdio>
#include <limits>

namespace rowscan::lineitem {

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
    out += ", \"load_seconds\": " + seconds(s.load_seconds) + ", \"query_seconds\": " + seconds(s.query_seconds) +
           ", \"queried_rows\": " + std::to_string(s.queried_rows);
    out += ", \"workers\": [";  // each worker's share of the blocks (rowscan/job/driver.hpp)
    for (std::size_t i = 0; i < s.shares.size(); ++i) {
      auto const& w = s.shares[i];
      out += (i > 0 ? ", " : "") + std::string("{\"processor\": \"") + (w.on_gpu ? "gpu" : "host") +
             "\", \"blocks\": " + std::to_string(w.blocks) +
             ", \"bytes\": " + std::to_string(w.bytes) + ", \"busy_seconds\": " + seconds(w.busy_seconds) +
             ", \"first_block_at\": " + seconds(w.first_block_at) + "}";
    }
    out += "]";
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
