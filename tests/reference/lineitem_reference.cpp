// SPDX-License-Identifier: Apache-2.0
#include "reference/lineitem_reference.hpp"

#include <regex>

namespace reference {
namespace {

constexpr std::uint64_t max_u32 = 4294967295u;

/// The value of a string of decimal digits if it is at most 2^32 - 1, else false.
bool small_number(std::string const& digits, std::uint64_t& value) {
  std::size_t first = digits.find_first_not_of('0');
  std::string const significant = first == std::string::npos ? "0" : digits.substr(first);
  if (significant.size() > 10) return false;
  value = std::stoull(significant);
  return value <= max_u32;
}

}  // namespace

std::vector<lineitem_sum> lineitem_sums(std::string_view text, std::vector<std::uint64_t> const& thresholds,
                                        std::vector<skipped_line>* skipped) {
  static std::regex const key("[0-9]+");
  static std::regex const quantity("([0-9]+)(\\.00)?");
  static std::regex const price("([0-9]+)\\.([0-9][0-9])");
  std::vector<lineitem_sum> sums;
  for (std::uint64_t z : thresholds) sums.push_back({z, 0, 0});

  std::size_t line_start = 0;
  std::uint64_t line_number = 0;
  while (line_start < text.size()) {
    ++line_number;
    std::size_t line_end = text.find('\n', line_start);
    if (line_end == std::string_view::npos) line_end = text.size();
    std::string const line(text.substr(line_start, line_end - line_start));
    std::size_t const next_start = line_end + 1;
    // A bad row: thrown, or skipped.
    auto bad = [&](std::size_t offset_in_line) {
      if (skipped == nullptr) throw bad_input(line_number, line_start + offset_in_line);
      skipped->push_back({line_number, line_start + offset_in_line});
      line_start = next_start;
    };

    std::vector<std::string> fields;
    std::vector<std::size_t> field_starts;
    std::size_t field_start = 0;
    for (std::size_t i = 0; i < line.size(); ++i) {
      if (line[i] == '|') {
        fields.push_back(line.substr(field_start, i - field_start));
        field_starts.push_back(field_start);
        field_start = i + 1;
      }
    }
    if (fields.size() < 16) {
      bad(line.size());
      continue;
    }
    std::size_t const after_16th = field_starts[15] + fields[15].size() + 1;
    if (after_16th != line.size()) {
      bad(after_16th);
      continue;
    }

    std::smatch m;
    std::uint64_t suppkey = 0, q = 0, dollars = 0;
    if (!std::regex_match(fields[2], key) || !small_number(fields[2], suppkey)) {
      bad(field_starts[2]);
      continue;
    }
    if (!std::regex_match(fields[4], m, quantity) || !small_number(m[1].str(), q)) {
      bad(field_starts[4]);
      continue;
    }
    if (!std::regex_match(fields[5], m, price) || !small_number(m[1].str(), dollars) ||
        dollars * 100 + std::stoull(m[2].str()) > max_u32) {
      bad(field_starts[5]);
      continue;
    }
    std::uint64_t const cents = dollars * 100 + std::stoull(m[2].str());

    for (auto& s : sums) {
      if (suppkey < s.suppkey_below) {
        s.sum_cents += static_cast<uint128>(q) * cents;
        s.rows += 1;
      }
    }
    line_start = next_start;
  }
  return sums;
}

std::string cents_text(uint128 cents) {
  std::string whole;
  uint128 dollars = cents / 100;
  do {
    whole.insert(whole.begin(), static_cast<char>('0' + static_cast<int>(dollars % 10)));
    dollars /= 10;
  } while (dollars != 0);
  int const fraction = static_cast<int>(cents % 100);
  return whole + "." + static_cast<char>('0' + fraction / 10) + static_cast<char>('0' + fraction % 10);
}

std::string lineitem_answer(std::string_view text, std::vector<std::uint64_t> const& thresholds,
                            std::vector<skipped_line>* skipped) {
  std::string out;
  for (auto const& s : lineitem_sums(text, thresholds, skipped)) out += cents_text(s.sum_cents) + "\n";
  return out;
}

}  // namespace reference
