// SPDX-License-Identifier: Apache-2.0
// The host engine's parse from a line's start (rowscan/stations/line_from_start.hpp) against the scalar
// rules: parse_line and a std::map of the known names. Host systems only (the CUDA system's fast path
// parses on the device, from the line's end).
#include "rowscan/config.hpp"

#include <gtest/gtest.h>

#if !ROWSCAN_HAS_CUB
#  include "rowscan/context.hpp"
#  include "rowscan/stations/dictionary.hpp"
#  include "rowscan/stations/line_format.hpp"
#  include "rowscan/stations/line_from_start.hpp"
#  include "rowscan/stations/table.hpp"
#  include "rowscan/stations/worker.hpp"
#  include "rowscan/strings/column.hpp"

#  include <algorithm>
#  include <cstdint>
#  include <cstdlib>
#  include <cstring>
#  include <map>
#  include <random>
#  include <string>
#  include <vector>

namespace {

using namespace rowscan::stations;

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
    table.keys = rowscan::device_buffer<std::uint64_t>(names.size());
    for (std::size_t i = 0; i < names.size(); ++i) ids.emplace(names[i], static_cast<station_id>(i));
  }
  dictionary_view view() { return dictionary.view(table, ctx); }
};

/// What the scalar rules say of the line text[begin, ...): the station and tenths if parse_line takes it,
/// its name is known and a '\n' ends it, else needs_general_path (the text's last line without one is
/// the general path's); and where the next line starts.
station_line expected_line(std::string const& text, std::uint32_t begin, std::map<std::string, station_id> const& ids) {
  std::size_t const newline = text.find('\n', begin);
  std::uint32_t const stop = newline == std::string::npos ? static_cast<std::uint32_t>(text.size())
                                                          : static_cast<std::uint32_t>(newline);
  std::uint32_t const next = newline == std::string::npos ? stop : stop + 1;
  parsed_line const p = parse_line(text.data() + begin, stop - begin);
  if (p.status != line_status::ok || newline == std::string::npos) return {needs_general_path, 0, next};
  auto const known = ids.find(text.substr(begin, p.name_size));
  if (known == ids.end()) return {needs_general_path, 0, next};
  return {known->second, p.tenths, next};
}

/// Names of every length that matters to the word-at-a-time search (1, 7-9, 15-17, 23-25, 100 bytes),
/// of any byte but ';' and '\n'. A quarter are an earlier name with one byte changed, cut or added, so
/// that names share their first words and differ only in a later one, or only in their size (a 0 byte
/// added: zero-padded words cannot tell them apart).
std::vector<std::string> random_names(std::mt19937& rng, std::size_t count) {
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

std::string random_temperature(std::mt19937& rng) {
  int const tenths = static_cast<int>(rng() % 1999) - 999;
  std::string t = tenths < 0 ? "-" : "";
  t += std::to_string(std::abs(tenths) / 10) + "." + std::to_string(std::abs(tenths) % 10);
  return t;
}

/// One line: mostly a known station's valid line, else one that breaks a rule near where the parse looks.
std::string random_line(std::mt19937& rng, std::vector<std::string> const& names) {
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

TEST(LineFromStart, TakesExactlyTheValidLinesOfKnownStationsAndSaysWhereTheNextStarts) {
  // Whole keys (a name is most often its bucket's first entry), and keys of 3 bits (every name in one
  // bucket, eight keys among them: a lookup walks the bucket and compares names of equal keys).
  for (unsigned seed = 1; seed <= 40; ++seed) {
    std::uint64_t const key_mask = seed % 2 ? ~std::uint64_t{0} : 7;
    SCOPED_TRACE("seed=" + std::to_string(seed) + " key_mask=" + std::to_string(key_mask));
    std::mt19937 rng(seed);
    std::vector<std::string> const names = random_names(rng, 5 + rng() % 60);
    known_names known(names, key_mask);
    std::string text;
    std::size_t const lines = 200 + rng() % 400;
    for (std::size_t i = 0; i < lines; ++i) text += random_line(rng, names) + (i + 1 < lines || rng() % 2 ? "\n" : "");
    auto const size = static_cast<std::uint32_t>(text.size());
    // The padding the reader leaves after a block, filled with bytes a careless parse would take for
    // the line's end: digits, '.', ';' and '\n'.
    std::string padded = text;
    for (std::size_t i = 0; i < text_padding_bytes; ++i) padded += ".;\n0123456789"[rng() % 14];
    dictionary_view const view = known.view();
    for (std::uint32_t at = 0; at < size;) {
      station_line const expected = expected_line(text, at, known.ids);
      station_line const got = read_station_line_from_start(padded.data(), at, size, view);
      std::string const line = text.substr(at, expected.next - at);
      ASSERT_EQ(got.id, expected.id) << "line at byte " << at << ": '" << line << "'";
      if (expected.id != needs_general_path) {
        ASSERT_EQ(got.tenths, expected.tenths) << "line at byte " << at << ": '" << line << "'";
        ASSERT_EQ(got.next, expected.next) << "line at byte " << at << ": '" << line << "'";
      }
      at = expected.next;
    }
  }
}

TEST(LineFromStart, EveryTemperatureShapeAndTheTextsLastLine) {
  known_names known({"a", "Abéché", "Petropavlovsk-Kamchatsky", std::string(100, 'n')});
  dictionary_view const view = known.view();
  for (std::string const& name : {std::string("a"), std::string("Abéché"), std::string("Petropavlovsk-Kamchatsky"),
                                  std::string(100, 'n')}) {
    for (int tenths = -999; tenths <= 999; ++tenths) {
      std::string const t = (tenths < 0 ? "-" : "") + std::to_string(std::abs(tenths) / 10) + "." +
                            std::to_string(std::abs(tenths) % 10);
      for (bool last : {false, true}) {
        std::string const line = name + ";" + t + (last ? "" : "\n");
        std::string const padded = line + std::string(text_padding_bytes, '\n');
        station_line const got =
            read_station_line_from_start(padded.data(), 0, static_cast<std::uint32_t>(line.size()), view);
        if (last) {  // the text's last line, no '\n' after it: the general path's
          ASSERT_EQ(got.id, needs_general_path) << line;
          continue;
        }
        ASSERT_EQ(got.id, known.ids.at(name)) << line;
        ASSERT_EQ(got.tenths, tenths) << line;
        ASSERT_EQ(got.next, line.size()) << line;
      }
    }
  }
  // A temperature cut short by the text's end is refused whatever the padding holds.
  for (std::string const cut : {"a;1", "a;1.", "a;-", "a;12", "a;-1."}) {
    std::string const padded = std::string(cut) + "5\n" + std::string(text_padding_bytes, '0');
    EXPECT_EQ(read_station_line_from_start(padded.data(), 0, static_cast<std::uint32_t>(std::string(cut).size()), view).id,
              needs_general_path)
        << cut;
  }
}

// Names that a lookup must tell apart by one word or by the size alone, each known set in random order
// and with keys of 0 bits (every name in one bucket under one key: the bucket's first station is
// compared first, and is each name's twin about as often as not) as well as whole keys.
TEST(LineFromStart, NamesThatShareTheirFirstWordsOrDifferOnlyInSizeAreToldApart) {
  using namespace std::string_literals;
  // Names over 16 bytes: the same first 16 bytes, and then the same last word (bytes 16-23 of a
  // 24-byte name, 17-24 of a 25-byte one), the same middle or only a size apart.
  std::string const head = "abcdefgh12345678";
  std::vector<std::string> const twins = {"abcdefgh12345678", "abcdefgh12345679", "abcdefgh1234567", "abcdefgh1234567\0"s,
                                          "abcdefgh", "abcdefgh\0"s, "abcdefgx", "a", "a\0"s, "b",
                                          head + "XYZ", head + "XYZ\0"s, head + "XYz", head + "tailtail", head + "tailtaix",
                                          head + "Mtailtail", head + "Ntailtail", head + "middle01tailtail",
                                          head + "middle02tailtail", head + "middle01tailtail\0"s};
  std::vector<std::string> const unknown = {"abcdefgh12345670", "abcdefgh1234566", "abcdefgh\0\0"s, "a\0\0"s, "c",
                                            head + "XY", head + "XYZ\0\0"s, head + "tailtaiy", head + "Otailtail",
                                            head + "middle03tailtail", head + "middle01tailtaiL"};
  for (unsigned seed = 1; seed <= 24; ++seed) {
    std::uint64_t const key_mask = seed % 3 == 0 ? ~std::uint64_t{0} : 0;
    SCOPED_TRACE("seed=" + std::to_string(seed) + " key_mask=" + std::to_string(key_mask));
    std::mt19937 rng(seed);
    std::vector<std::string> names = twins;
    std::shuffle(names.begin(), names.end(), rng);
    names.resize(3 + rng() % (names.size() - 2));  // some twins known, their other halves not
    known_names known(names, key_mask);
    dictionary_view const view = known.view();
    std::vector<std::string> lookups = twins;
    lookups.insert(lookups.end(), unknown.begin(), unknown.end());
    for (std::string const& name : lookups) {
      std::string const line = name + ";-1.5\n";
      std::string const padded = line + std::string(text_padding_bytes, '\0');
      auto const known_id = known.ids.find(name);
      station_id const expected = known_id == known.ids.end() ? needs_general_path : known_id->second;
      EXPECT_EQ(read_station_line_from_start(padded.data(), 0, static_cast<std::uint32_t>(line.size()), view).id, expected)
          << "name of " << name.size() << " bytes: '" << name.c_str() << "'";
    }
  }
}

// A dictionary of 32-bit ids (the host's past 65,535 stations): 300,000 random names of 1 to 40 bytes,
// each line of a known name read to its id (up to 299,999, far above the 16-bit sentinel) and each other
// name refused, with whole keys and with keys of 12 bits (about 73 names a key: the bucket walks).
TEST(LineFromStart, WideIdsNameThreeHundredThousandStations) {
  constexpr std::size_t stations = 300000;
  for (std::uint64_t key_mask : {~std::uint64_t{0}, std::uint64_t{0xFFF} << 52}) {
    std::uint32_t const seed = key_mask == ~std::uint64_t{0} ? 11 : 12;
    SCOPED_TRACE("seed=" + std::to_string(seed) + " key_mask=" + std::to_string(key_mask));
    std::mt19937 rng(seed);
    std::map<std::string, wide_station_id> ids;
    std::vector<std::string> names;
    std::vector<std::string> unknown;
    while (names.size() < stations || unknown.size() < 1000) {
      std::string name(1 + rng() % 40, 'x');
      for (char& c : name) c = static_cast<char>('0' + rng() % 75);
      for (char& c : name) c = c == ';' ? ':' : c;  // a name holds no ';'
      if (ids.count(name) != 0 || std::find(unknown.begin(), unknown.end(), name) != unknown.end()) continue;
      if (names.size() < stations) {
        ids.emplace(name, static_cast<wide_station_id>(names.size()));
        names.push_back(name);
      } else {
        unknown.push_back(name);
      }
    }
    rowscan::context ctx;
    station_table table;
    table.names = rowscan::make_strings_column(names);
    table.keys = rowscan::device_buffer<std::uint64_t>(names.size());
    wide_station_dictionary dictionary(key_mask);
    wide_dictionary_view const view = dictionary.view(table, ctx);
    auto id_of = [&](std::string const& name) {
      std::string const line = name + ";-12.5\n";
      std::string const padded = line + std::string(text_padding_bytes, '\0');
      return read_station_line_from_start(padded.data(), 0, static_cast<std::uint32_t>(line.size()), view).id;
    };
    for (std::size_t i = 0; i < names.size(); i += key_mask == ~std::uint64_t{0} ? 1 : 7) {
      ASSERT_EQ(id_of(names[i]), static_cast<wide_station_id>(i)) << "name '" << names[i] << "'";
    }
    for (std::string const& name : unknown)
      ASSERT_EQ(id_of(name), wide_dictionary_view::unknown) << "name '" << name << "'";
  }
}

// The search for a line's first ';' in its first 16 bytes against a scalar search, on random bytes
// weighted to ';' (the masks' borrows come from bytes below it), and on each position of one ';'.
TEST(LineFromStart, TheSearchForTheFirstSemicolonAgreesWithAScalarSearch) {
  auto check = [](std::string const& bytes) {
    std::uint64_t w0 = 0;
    std::uint64_t w1 = 0;
    std::memcpy(&w0, bytes.data(), 8);
    std::memcpy(&w1, bytes.data() + 8, 8);
    std::size_t const at = bytes.find(';');
    bool const found = at < 16;
    std::string name = bytes.substr(0, found ? at : 0);
    name.resize(16, '\0');
    std::uint64_t name0 = 0;
    std::uint64_t name1 = 0;
    std::memcpy(&name0, name.data(), 8);
    std::memcpy(&name1, name.data() + 8, 8);
    from_start::short_name const got = from_start::short_name_by_words(w0, w1);
    ASSERT_EQ(got.found, found);
    if (!found) return;
    ASSERT_EQ(got.separator, at);
    ASSERT_EQ(got.w0, name0);
    ASSERT_EQ(got.w1, name1);
  };
  for (std::size_t at = 0; at <= 16; ++at) {
    std::string bytes(16, 'x');
    if (at < 16) bytes[at] = ';';
    SCOPED_TRACE("one ';' at " + std::to_string(at));
    check(bytes);
  }
  std::mt19937 rng(7);
  for (int i = 0; i < 20000; ++i) {
    std::string bytes(16, '\0');
    for (char& c : bytes) c = rng() % 24 == 0 ? ';' : static_cast<char>(rng() % 256);
    SCOPED_TRACE("seed 7, case " + std::to_string(i));
    check(bytes);
  }
}

}  // namespace
#endif
