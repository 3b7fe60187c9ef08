// SPDX-License-Identifier: Apache-2.0
#include "option_values.hpp"

#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <limits>

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
  for (auto const& [s, names] : {std::pair{10, "kK"}, std::pair{20, "mM"}, std::pair{30, "gG"}}) {
    for (char const* n = names; *n != '\0'; ++n) {
      if (suffix == std::string(1, *n) || suffix == std::string(1, *n) + "iB") shift = s;
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

std::string parse_choice(char const* option, std::string const& text, std::initializer_list<char const*> choices) {
  std::string list;
  for (char const* c : choices) {
    if (text == c) return text;
    list += (list.empty() ? "" : ", ") + std::string(c);
  }
  bad_value(option, text, "is not one of " + list);
}

}  // namespace rowscan::app
