// SPDX-License-Identifier: Apache-2.0
#include "reference/stations_reference.hpp"

#include <cstdio>
#include <map>
#include <regex>

namespace reference {
namespace {

struct stats {
  long long min = 0, max = 0, sum = 0, count = 0;
};

std::string one_decimal(long long tenths) {
  char text[64];
  std::snprintf(text, sizeof text, "%.1f", static_cast<double>(tenths) / 10.0);
  return text;
}

long long mean_half_up(long long sum, long long count) {
  long long const num = 2 * sum + count, den = 2 * count;
  long long q = num / den;
  if (num % den < 0) q -= 1;  // C++ division truncates; we want the floor
  return q;
}

}  // namespace

std::string stations_answer(std::string_view text, std::vector<skipped_line>* skipped) {
  static std::regex const temperature("-?[0-9]{1,2}\\.[0-9]");
  std::map<std::string, stats> table;
  std::size_t line_start = 0;
  std::uint64_t line_number = 0;
  while (line_start < text.size()) {
    ++line_number;
    std::size_t line_end = text.find('\n', line_start);
    if (line_end == std::string_view::npos) line_end = text.size();
    std::string const line(text.substr(line_start, line_end - line_start));
    bool const has_newline = line_end < text.size();
    std::size_t const next_start = line_end + 1;

    // A bad line: thrown, or skipped (unless it is longer than the reader carries).
    auto bad = [&](std::size_t offset_in_line) {
      if (skipped == nullptr || line.size() + (has_newline ? 1 : 0) > 4096) {
        throw bad_input(line_number, line_start + offset_in_line);
      }
      skipped->push_back({line_number, line_start + offset_in_line});
      line_start = next_start;
    };
    std::size_t const semicolon = line.find(';');
    if (semicolon == std::string::npos || semicolon > 100 || semicolon == 0) {
      bad(0);
      continue;
    }
    std::string const value = line.substr(semicolon + 1);
    if (!std::regex_match(value, temperature)) {
      // A good temperature followed by '\r' (a CR LF line ending) is reported at the '\r'.
      bool const crlf = !value.empty() && value.back() == '\r' &&
                        std::regex_match(value.substr(0, value.size() - 1), temperature);
      bad(crlf ? line.size() - 1 : semicolon + 1);
      continue;
    }

    std::string digits;
    for (char c : value) {
      if (c != '.') digits += c;
    }
    long long const tenths = std::stoll(digits);
    stats& s = table[line.substr(0, semicolon)];
    if (s.count == 0) {
      s.min = s.max = tenths;
    }
    s.min = std::min(s.min, tenths);
    s.max = std::max(s.max, tenths);
    s.sum += tenths;
    s.count += 1;
    line_start = next_start;
  }

  std::string answer = "{";
  bool first = true;
  for (auto const& [name, s] : table) {  // std::string orders like memcmp: by unsigned bytes
    if (!first) answer += ", ";
    first = false;
    answer += name + "=" + one_decimal(s.min) + "/" + one_decimal(mean_half_up(s.sum, s.count)) + "/" +
              one_decimal(s.max);
  }
  return answer + "}\n";
}

}  // namespace reference
