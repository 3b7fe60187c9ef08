// SPDX-License-Identifier: Apache-2.0
// Stations a worker knows, and random lines over them, for the tests of the fast path's parse (its
// read from a line's start, and its lines read a stretch a thread). Compiled for each Thrust system.
#pragma once

#include "rowscan/context.hpp"
#include "rowscan/stations/dictionary.hpp"
#include "rowscan/stations/line_format.hpp"
#include "rowscan/stations/table.hpp"
#include "rowscan/strings/column.hpp"

#include <cstdint>
#include <cstdlib>
#include <map>
#include <random>
#include <string>
#include <vector>

namespace support {

using rowscan::stations::dictionary_view;
using rowscan::stations::max_name_bytes;
using rowscan::stations::station_dictionary;
using rowscan::stations::station_id;
using rowscan::stations::station_table;

/// A dictionary of `names` (station i is names[i]), as a worker's table would give it.
struct known_names {
  rowscan::context ctx;
  station_table table;
  station_dictionary dictionary;
  std::map<std::string, station_id> ids;

  /// key_mask: the lookup keys' bits kept (few bits: names share keys and buckets, so lookups walk them).
  explicit known_names(std::vector<std::string> const& names, std::uint64_t key_mask = ~std::uint64_t{0})
      : dictionary(key_mask) {
    table.names = rowscan::make_strings_column(names);
    table.keys.resize(names.size());
    for (std::size_t i = 0; i < names.size(); ++i) ids.emplace(names[i], static_cast<station_id>(i));
  }
  dictionary_view view() { return dictionary.view(table, ctx); }
};

/// Names of every length that matters to the word-at-a-time search (1, 7-9, 15-17, 23-25, 100 bytes),
/// of any byte but ';' and '\n'. A quarter are an earlier name with one byte changed, cut or added, so
/// that names share their first words and differ only in a later one, or only in their size (a 0 byte
/// added: zero-padded words cannot tell them apart).
inline std::vector<std::string> random_names(std::mt19937& rng, std::size_t count) {
  std::vector<std::uint32_t> const sizes = {1, 2, 7, 8, 9, 15, 16, 17, 23, 24, 25, 31, 32, 33, 99, 100};
  auto random_byte = [&rng] {
    char const c = static_cast<char>(rng() % 4 == 0 ? rng() % 256 : 'a' + rng() % 26);
    return c == ';' || c == '\n' ? 'x' : c;
  };
  std::map<std::string, int> seen;
  std::vector<std::string> names;
  while (names.size() < count) {
    std::string name;
    if (!names.empty() && rng() % 4 == 0) {
      name = names[rng() % names.size()];
      switch (rng() % 3) {
        case 0: name[rng() % name.size()] = random_byte(); break;
        case 1: if (name.size() > 1) name.pop_back(); break;
        default: if (name.size() < max_name_bytes) name += rng() % 4 ? random_byte() : '\0';  // the same words
      }
    } else {
      std::uint32_t const size = rng() % 2 ? sizes[rng() % sizes.size()] : 1 + rng() % 30;
      for (std::uint32_t i = 0; i < size; ++i) name += random_byte();
    }
    if (seen.emplace(name, 0).second) names.push_back(name);
  }
  return names;
}

inline std::string random_temperature(std::mt19937& rng) {
  int const tenths = static_cast<int>(rng() % 1999) - 999;
  std::string t = tenths < 0 ? "-" : "";
  t += std::to_string(std::abs(tenths) / 10) + "." + std::to_string(std::abs(tenths) % 10);
  return t;
}

/// One line: mostly a known station's valid line, else one that breaks a rule near where the parse looks.
inline std::string random_line(std::mt19937& rng, std::vector<std::string> const& names) {
  std::string const name = names[rng() % names.size()];
  std::string const temperature = random_temperature(rng);
  switch (rng() % 24) {
    case 0: return "unknown station;" + temperature;
    case 1: return ";" + temperature;
    case 2: return name + temperature;  // no ';'
    case 3: return name + ";" + temperature + "\r";
    case 4: return name + ";" + temperature + "0";
    case 5: return name + ";+" + temperature;
    case 6: return name + ";--1.0";
    case 7: return name + ";1.";
    case 8: return name + ";.5";
    case 9: return name + ";123.4";
    case 10: return name + ";1,5";
    case 11: return name + ";" + temperature + ";" + temperature;
    case 12: return name + "x;" + temperature;
    case 13: return name.substr(0, name.size() / 2) + ";" + temperature;
    case 14: return std::string(101 + rng() % 20, 'n') + ";1.0";
    case 15: return name + ";-" + std::string(1, static_cast<char>(rng() % 256)) + ".0";
    case 16: return name + ";" + std::string(1, static_cast<char>('0' + rng() % 10)) +
                    std::string(1, static_cast<char>(rng() % 256)) + "5";
    case 17: return "";
    case 18:
    case 19: {  // one byte of a valid temperature replaced: by its neighbours in ASCII, or any byte
      std::string t = temperature;
      std::string const near = "/:;<=>?-.\r\n\x00\xb0";
      t[rng() % t.size()] = rng() % 2 ? near[rng() % near.size()] : static_cast<char>(rng() % 256);
      return name + ";" + t;
    }
    default: return name + ";" + temperature;
  }
}

}  // namespace support
