// SPDX-License-Identifier: Apache-2.0
// Generated `name;temperature` text for the stations tests: random UTF-8 names, every temperature.
#pragma once

#include <cstddef>
#include <cstdint>
#include <random>
#include <set>
#include <string>
#include <vector>

namespace support {

/// A UTF-8 name of 1..max_bytes bytes mixing 1-, 2-, 3- and 4-byte characters, including the bytes the
/// output format uses (' ', '=', ',', '{', '}', '/', '"').
inline std::string random_name(std::mt19937& rng, std::size_t max_bytes) {
  static std::vector<std::string> const alphabet = {"a", "Z", " ", "=", ",", "{", "}", "/", "\"", "'", "-", "0",
                                                    "é", "ß", "Ж", "λ", "東", "京", "서", "😀", "\x7f", "\t"};
  std::size_t const target = 1 + rng() % max_bytes;
  std::string name;
  while (name.size() < target) {
    std::string const& c = alphabet[rng() % alphabet.size()];
    if (name.size() + c.size() > max_bytes) break;
    name += c;
  }
  return name.empty() ? "x" : name;
}

/// Tenths as the challenge writes them: "-12.3", "0.5".
inline std::string tenths_text(int tenths) {
  std::string s = tenths < 0 ? "-" : "";
  int const m = tenths < 0 ? -tenths : tenths;
  return s + std::to_string(m / 10) + "." + std::to_string(m % 10);
}

/// `rows` valid lines over `stations` random names of at most `max_name_bytes` bytes; every seventh
/// station only ever reads below zero.
inline std::string random_measurements(std::uint32_t seed, std::size_t stations, std::size_t rows,
                                       std::size_t max_name_bytes, bool final_newline = true) {
  std::mt19937 rng(seed);
  std::set<std::string> unique;
  while (unique.size() < stations) unique.insert(random_name(rng, max_name_bytes));
  std::vector<std::string> const names(unique.begin(), unique.end());
  std::string text;
  for (std::size_t r = 0; r < rows; ++r) {
    std::size_t const s = rng() % names.size();
    bool const negative_station = s % 7 == 0;  // some stations only ever read below zero
    int const tenths = negative_station ? -static_cast<int>(rng() % 1000) : static_cast<int>(rng() % 1999) - 999;
    text += names[s] + ";" + tenths_text(tenths) + "\n";
  }
  if (!final_newline && !text.empty()) text.pop_back();
  return text;
}

}  // namespace support
