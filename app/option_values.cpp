// SPDX-License-Identifier: Apache-2.0
#include "option_values.hpp"

#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <algorithm>
#include <limits>
#include <vector>

namespace rowscan::app {
namespace {

[[noreturn]] void bad_value(char const* option, std::string const& text, std::string const& what) {
  throw usage_error(std::string("--") + option + ": '" + text + "' " + what);
}

/// The digits of text (all of it), or nothing on a non-digit, an empty text or an overflow.
bool whole_number(std::string const& text, std::uint64_t& value) {
  if (text.empty()) return false;
  value = 0;
  for (char c : text) {
    if (c < '0' || c > '9') return false;
    auto const digit = static_cast<std::uint64_t>(c - '0');
    if (value > (std::numeric_limits<std::uint64_t>::max() - digit) / 10) return false;
    value = value * 10 + digit;
  }
  return true;
}

}  // namespace

std::string format_size(std::uint64_t bytes) {
  for (auto const& [shift, suffix] : {std::pair{30, "G"}, std::pair{20, "M"}, std::pair{10, "K"}}) {
    std::uint64_t const unit = std::uint64_t{1} << shift;
    if (bytes >= unit && bytes % unit == 0) return std::to_string(bytes / unit) + suffix;
  }
  return std::to_string(bytes);
}

std::uint64_t parse_size(char const* option, std::string const& text, std::uint64_t min, std::uint64_t max) {
  std::size_t digits = 0;
  while (digits < text.size() && text[digits] >= '0' && text[digits] <= '9') ++digits;
  std::string const suffix = text.substr(digits);
  int shift = -1;
  if (suffix.empty()) shift = 0;
  std::string lower;
  for (char c : suffix) lower += static_cast<char>(c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c);
  for (auto const& [s, letter] : {std::pair{10, 'k'}, std::pair{20, 'm'}, std::pair{30, 'g'}}) {
    // K, KiB and KB are one unit, 1024 bytes: every suffix is binary, as memory sizes are.
    for (std::string const& form : {std::string(1, letter), std::string(1, letter) + "ib", std::string(1, letter) + "b"}) {
      if (lower == form) shift = s;
    }
  }
  std::uint64_t value = 0;
  if (shift < 0 || !whole_number(text.substr(0, digits), value)) {
    bad_value(option, text, "is not a size (bytes, or with K, M or G: 64M; 1K is 1024)");
  }
  bool const overflows = value > (std::numeric_limits<std::uint64_t>::max() >> shift);
  value <<= shift;
  if (overflows || value < min || value > max) {
    bad_value(option, text, "is out of range (" + format_size(min) + " to " + format_size(max) + " bytes)");
  }
  return value;
}

std::uint64_t parse_whole_number(char const* option, std::string const& text, std::uint64_t min, std::uint64_t max) {
  std::uint64_t value = 0;
  if (!whole_number(text, value)) {
    bad_value(option, text, "is not a whole number");
  }
  if (value < min || value > max) {
    bad_value(option, text, "is out of range (" + std::to_string(min) + " to " + std::to_string(max) + ")");
  }
  return value;
}

std::uint64_t parse_count(char const* option, std::string const& text, std::uint64_t min, std::uint64_t max) {
  std::size_t const e = text.find_first_of("eE");
  if (e == std::string::npos) return parse_whole_number(option, text, min, max);
  // MANTISSAeEXPONENT: digits with at most one '.', times a power of ten, exactly, and whole.
  std::string const mantissa = text.substr(0, e);
  std::string const exponent_text = text.substr(e + 1);
  std::size_t const point = mantissa.find('.');
  std::string digits = mantissa;
  std::uint64_t exponent = 0;
  std::size_t fraction_digits = 0;
  if (point != std::string::npos) {
    digits.erase(point, 1);
    fraction_digits = mantissa.size() - point - 1;
  }
  std::uint64_t value = 0;
  bool const formed = !digits.empty() && mantissa != "." && whole_number(digits, value) &&
                      whole_number(exponent_text, exponent) && exponent <= 30;
  if (!formed) bad_value(option, text, "is not a whole number (digits, or such as 1e9 or 2.5e6)");
  // Times 10^(exponent - fraction_digits): down only where the dropped digits are zeros.
  for (; fraction_digits > exponent; --fraction_digits) {
    if (value % 10 != 0) bad_value(option, text, "is not a whole number");
    value /= 10;
  }
  bool too_large = false;
  for (std::uint64_t i = fraction_digits; i < exponent && !too_large; ++i) {
    too_large = value > max / 10;
    value *= 10;
  }
  if (too_large || value < min || value > max) {
    bad_value(option, text, "is out of range (" + std::to_string(min) + " to " + std::to_string(max) + ")");
  }
  return value;
}

double parse_decimal(char const* option, std::string const& text, double min, double max) {
  char* end = nullptr;
  errno = 0;
  double const value = text.empty() || std::isspace(static_cast<unsigned char>(text[0])) ? 0.0 : std::strtod(text.c_str(), &end);
  if (end == nullptr || *end != '\0' || !std::isfinite(value) || errno == ERANGE) {
    bad_value(option, text, "is not a number");
  }
  if (!(value >= min && value <= max)) {
    auto shortest = [](double v) {
      std::string s = std::to_string(v);
      s.erase(s.find_last_not_of('0') + 1);
      if (s.back() == '.') s.pop_back();
      return s;
    };
    bad_value(option, text, "is out of range (" + shortest(min) + " to " + shortest(max) + ")");
  }
  return value;
}

std::size_t edit_distance(std::string const& a, std::string const& b) {
  std::vector<std::size_t> row(b.size() + 1);
  for (std::size_t j = 0; j <= b.size(); ++j) row[j] = j;
  for (std::size_t i = 1; i <= a.size(); ++i) {
    std::size_t diagonal = row[0];
    row[0] = i;
    for (std::size_t j = 1; j <= b.size(); ++j) {
      std::size_t const above = row[j];
      row[j] = std::min({row[j] + 1, row[j - 1] + 1, diagonal + (a[i - 1] == b[j - 1] ? 0 : 1)});
      diagonal = above;
    }
  }
  return row[b.size()];
}

std::string did_you_mean(std::string const& word, std::vector<std::string> const& candidates,
                         std::string const& quote_prefix) {
  std::string best;
  std::size_t best_distance = std::max<std::size_t>(1, word.size() / 3) + 1;
  for (std::string const& c : candidates) {
    std::size_t const d = edit_distance(word, c);
    if (d < best_distance) {
      best_distance = d;
      best = c;
    }
  }
  return best.empty() ? "" : "; did you mean '" + quote_prefix + best + "'?";
}

std::string did_you_mean(std::string const& word, std::initializer_list<char const*> candidates,
                         std::string const& quote_prefix) {
  return did_you_mean(word, std::vector<std::string>(candidates.begin(), candidates.end()), quote_prefix);
}

std::string parse_choice(char const* option, std::string const& text, std::initializer_list<char const*> choices) {
  std::string list;
  for (char const* c : choices) {
    if (text == c) return text;
    list += (list.empty() ? "" : ", ") + std::string(c);
  }
  bad_value(option, text, "is not one of " + list);
}

}  // namespace rowscan::app
