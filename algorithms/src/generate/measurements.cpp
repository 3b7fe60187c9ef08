// SPDX-License-Identifier: Apache-2.0
// generate_measurements.cpp: the One Billion Row Challenge input generator.
//
// Everything random comes from our own splitmix64/xoshiro256** streams and our own gaussian, so the
// bytes depend only on the options (not on the standard library's distributions or the thread count).
#include "rowscan/io/write_all.hpp"
#include "rowscan/generate/measurements.hpp"
#include "rowscan/generate/random.hpp"

#include <unistd.h>

#include <algorithm>
#include <array>
#include <cerrno>
#include <cmath>
#include <cstddef>
#include <cstring>
#include <exception>
#include <stdexcept>
#include <string>
#include <string_view>
#include <system_error>
#include <unordered_set>
#include <vector>

namespace rowscan::generate {
namespace {

// ---------------------------------------------------------------------------------------------------
// Random numbers

/// Independent streams of one seed: names, station means and each row block get their own.
enum class stream_tag : std::uint64_t { names = 1, means = 2, rows = 3 };

/// The shared xoshiro256** stream, named by this generator's tags.
class rng : public random_stream {
 public:
  rng(std::uint64_t seed, stream_tag tag, std::uint64_t index)
      : random_stream(seed, static_cast<std::uint64_t>(tag), index) {}
};

/// Standard normal deviates by the Marsaglia polar method; keeps the second deviate of each pair.
class gaussian {
 public:
  double next(rng& random) {
    if (has_spare_) {
      has_spare_ = false;
      return spare_;
    }
    double u, v, s;
    do {
      u = 2.0 * random.unit() - 1.0;
      v = 2.0 * random.unit() - 1.0;
      s = u * u + v * v;
    } while (s >= 1.0 || s == 0.0);
    double const factor = std::sqrt(-2.0 * std::log(s) / s);
    spare_ = v * factor;
    has_spare_ = true;
    return u * factor;
  }

 private:
  double spare_ = 0.0;
  bool has_spare_ = false;
};

// ---------------------------------------------------------------------------------------------------
// Station names

constexpr std::uint32_t max_stations = 1'000'000;
constexpr std::size_t max_name_bytes = 100;

void append_utf8(std::string& out, char32_t cp) {
  if (cp < 0x80) {
    out += static_cast<char>(cp);
  } else if (cp < 0x800) {
    out += static_cast<char>(0xC0 | (cp >> 6));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  } else if (cp < 0x10000) {
    out += static_cast<char>(0xE0 | (cp >> 12));
    out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  } else {
    out += static_cast<char>(0xF0 | (cp >> 18));
    out += static_cast<char>(0x80 | ((cp >> 12) & 0x3F));
    out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  }
}

template <class T, std::size_t N>
T const& pick(rng& random, std::array<T, N> const& items) {
  return items[random.below(N)];
}

char32_t pick_char(rng& random, std::u32string_view letters) {
  return letters[random.below(static_cast<std::uint32_t>(letters.size()))];
}

// Latin words alternate consonant clusters and vowels; accented names swap in accented vowels.
constexpr std::array<std::string_view, 24> latin_onsets = {"b", "c", "d", "f", "g", "h", "k", "l", "m", "n", "p", "r",
                                                           "s", "t", "v", "w", "z", "br", "ch", "st", "tr", "sh", "gr", "th"};
constexpr std::array<std::string_view, 10> latin_vowels = {"a", "e", "i", "o", "u", "y", "ou", "ea", "ai", "io"};
constexpr std::u32string_view accented_vowels = U"áéíóúàèäëïöüâêôåøæãõőűçñł";

void append_latin_word(std::string& out, rng& random, bool accented) {
  std::uint32_t const syllables = random.between(1, 4);
  for (std::uint32_t i = 0; i < syllables; ++i) {
    std::string_view onset = pick(random, latin_onsets);
    if (i == 0) {  // capitalize the word
      out += static_cast<char>(onset[0] - 'a' + 'A');
      onset.remove_prefix(1);
    }
    out += onset;
    if (accented && random.below(3) == 0) {
      append_utf8(out, pick_char(random, accented_vowels));
    } else {
      out += pick(random, latin_vowels);
    }
  }
  if (random.below(3) == 0) out += pick(random, latin_onsets);
}

/// Words of alternating consonants and vowels in a bicameral script whose capitals sit `upper_offset` below.
void append_alphabet_word(std::string& out, rng& random, std::u32string_view consonants, std::u32string_view vowels,
                          char32_t upper_offset) {
  std::uint32_t const letters = random.between(2, 8);
  bool vowel = random.below(3) == 0;
  for (std::uint32_t i = 0; i < letters; ++i, vowel = !vowel) {
    char32_t cp = pick_char(random, vowel ? vowels : consonants);
    if (i == 0) cp -= upper_offset;
    append_utf8(out, cp);
  }
}

void append_cyrillic_word(std::string& out, rng& random) {
  append_alphabet_word(out, random, U"бвгдзклмнпрстфхцчшщ", U"аеиоуыэюя", 0x20);
}

void append_greek_word(std::string& out, rng& random) {
  append_alphabet_word(out, random, U"βγδζθκλμνξπρστφχψ", U"αεηιουω", 0x20);
}

void append_arabic_word(std::string& out, rng& random) {
  append_alphabet_word(out, random, U"بتثجحخدذرزسشصضطظعغفقكلمنه", U"اوي", 0);
}

/// Characters drawn from one contiguous block of assigned code points.
void append_block_word(std::string& out, rng& random, char32_t first, char32_t last, std::uint32_t min_chars,
                       std::uint32_t max_chars) {
  std::uint32_t const chars = random.between(min_chars, max_chars);
  for (std::uint32_t i = 0; i < chars; ++i) append_utf8(out, random.between(first, last));
}

void append_han_word(std::string& out, rng& random) {
  append_block_word(out, random, 0x4E00, 0x9FA5, 1, 3);  // CJK Unified Ideographs
  if (random.below(3) == 0) append_utf8(out, pick_char(random, U"市山川町村港島"));
}

void append_kana_word(std::string& out, rng& random) { append_block_word(out, random, 0x30A2, 0x30F3, 2, 5); }

void append_hangul_word(std::string& out, rng& random) { append_block_word(out, random, 0xAC00, 0xD7A3, 2, 3); }

/// A 4-byte character: a landscape/weather emoji or, less often, a CJK Extension B ideograph.
void append_astral_char(std::string& out, rng& random) {
  if (random.below(4) == 0) {
    append_utf8(out, random.between(0x20000, 0x2A6D6));
  } else {
    append_utf8(out, random.between(0x1F300, 0x1F320));
  }
}

enum class script { latin, accented, cyrillic, greek, arabic, han, kana, hangul, mixed };

/// Weighted so roughly half the names are plain ASCII, like a real weather-station list.
script pick_script(rng& random) {
  std::uint32_t const r = random.below(100);
  if (r < 48) return script::latin;
  if (r < 63) return script::accented;
  if (r < 73) return script::cyrillic;
  if (r < 79) return script::greek;
  if (r < 83) return script::arabic;
  if (r < 90) return script::han;
  if (r < 93) return script::kana;
  if (r < 97) return script::hangul;
  return script::mixed;
}

void append_word(std::string& out, rng& random, script kind) {
  switch (kind) {
    case script::latin: return append_latin_word(out, random, false);
    case script::accented: return append_latin_word(out, random, true);
    case script::cyrillic: return append_cyrillic_word(out, random);
    case script::greek: return append_greek_word(out, random);
    case script::arabic: return append_arabic_word(out, random);
    case script::han: return append_han_word(out, random);
    case script::kana: return append_kana_word(out, random);
    case script::hangul: return append_hangul_word(out, random);
    case script::mixed: return append_word(out, random, static_cast<script>(random.below(8)));
  }
}

/// Ideographic scripts write place names without spaces.
bool separates_words(script kind) { return kind != script::han && kind != script::kana; }

void append_separator(std::string& out, rng& random) {
  std::uint32_t const r = random.below(20);
  out += r < 17 ? ' ' : r < 19 ? '-' : '\'';
}

/// Lists of up to this many stations are shaped like the official 1BRC list of 413 names (3..24
/// bytes, about 8 on average); longer lists get the long tail up to 100 bytes.
constexpr std::uint32_t max_compact_stations = 500;

/// Target byte length. Compact lists: 65% in 3..8, 28% in 9..14, 7% in 15..24 (mean about 8.2).
/// Long lists: 84% in 1..13, 13% in 14..30, 3% in 31..99 (mean about 11), besides the 100-byte slots.
/// The means make a 1e9-row file about 14 GB (413 stations) or 18 GB (10,000), like the files
/// the published timings of other programs were taken on.
std::size_t pick_length(rng& random, bool compact) {
  std::uint32_t const r = random.below(100);
  if (compact) {
    if (r < 65) return random.between(3, 8);
    if (r < 93) return random.between(9, 14);
    return random.between(15, 24);
  }
  if (r < 84) return random.between(1, 13);
  if (r < 97) return random.between(14, 30);
  return random.between(31, 99);
}

bool is_continuation_byte(char c) { return (static_cast<unsigned char>(c) & 0xC0) == 0x80; }

bool is_separator(char c) { return c == ' ' || c == '-' || c == '\''; }

/// Cuts to at most `length` bytes on a character boundary, drops dangling separators, then pads with
/// ASCII letters so the name is exactly `length` bytes (which is how the 100-byte names get exact).
void fit_to_length(std::string& name, std::size_t length, rng& random) {
  if (name.size() > length) {
    std::size_t cut = length;
    while (cut > 0 && is_continuation_byte(name[cut])) --cut;
    name.resize(cut);
  }
  while (!name.empty() && is_separator(name.back())) name.pop_back();
  while (name.size() < length) name += static_cast<char>('a' + random.below(26));
}

std::string make_name(rng& random, std::size_t length) {
  script const kind = pick_script(random);
  bool with_emoji = random.below(40) == 0;
  std::string name;
  while (name.size() < length) {
    if (!name.empty() && separates_words(kind)) append_separator(name, random);
    append_word(name, random, kind);
    if (with_emoji && name.size() < length) {  // right after the first word, so short names keep it too
      name += ' ';
      append_astral_char(name, random);
      with_emoji = false;
    }
  }
  fit_to_length(name, length, random);
  return name;
}

// ---------------------------------------------------------------------------------------------------
// Measurements

constexpr std::uint64_t rows_per_block = std::uint64_t{1} << 16;  // fixed: part of the output's definition
constexpr int max_tenths = 999;
constexpr double temperature_stddev = 10.0;

/// "<name>;" for every station, back to back, so a row costs two short copies.
struct station_table {
  std::string prefixes;                 // with 16 bytes of slack for over-wide copies
  std::vector<std::uint32_t> offsets;   // offsets[i] .. offsets[i + 1] is station i's prefix
  std::vector<double> means;
};

/// Means uniform in [-20, 35] except about 1 in 20 stations, which sit in [-45, -35] (all readings negative).
std::vector<double> station_means(std::uint32_t count, std::uint64_t seed) {
  rng random(seed, stream_tag::means, 0);
  std::vector<double> means(count);
  for (double& mean : means) {
    bool const cold = random.below(20) == 0;
    mean = cold ? -45.0 + 10.0 * random.unit() : -20.0 + 55.0 * random.unit();
  }
  return means;
}

station_table make_station_table(measurements_options const& options) {
  station_table table;
  std::vector<std::string> const names = station_names(options.stations, options.seed);
  table.offsets.reserve(names.size() + 1);
  for (std::string const& name : names) {
    table.offsets.push_back(static_cast<std::uint32_t>(table.prefixes.size()));
    table.prefixes += name;
    table.prefixes += ';';
  }
  table.offsets.push_back(static_cast<std::uint32_t>(table.prefixes.size()));
  table.prefixes.append(16, '\0');
  table.means = station_means(options.stations, options.seed);
  return table;
}

/// "-12.3\n" for every tenths value in [-999, 999], in 8-byte slots for fixed-width copies.
struct temperature_table {
  struct entry {
    std::array<char, 8> text{};
    std::uint8_t size = 0;
  };
  std::array<entry, 2 * max_tenths + 1> entries;

  temperature_table() {
    for (int tenths = -max_tenths; tenths <= max_tenths; ++tenths) {
      int const index = tenths + max_tenths;  // 0 for the lowest temperature
      entry& e = entries[static_cast<std::size_t>(index)];
      int magnitude = tenths < 0 ? -tenths : tenths;
      std::size_t n = 0;
      if (tenths < 0) e.text[n++] = '-';  // zero is never negative, so "-0.0" cannot appear
      if (magnitude >= 100) e.text[n++] = static_cast<char>('0' + magnitude / 100);
      e.text[n++] = static_cast<char>('0' + magnitude / 10 % 10);
      e.text[n++] = '.';
      e.text[n++] = static_cast<char>('0' + magnitude % 10);
      e.text[n++] = '\n';
      e.size = static_cast<std::uint8_t>(n);
    }
  }

  entry const& operator[](int tenths) const {
    int const index = tenths + max_tenths;
    return entries[static_cast<std::size_t>(index)];
  }
};

int to_tenths(double celsius) {
  double const tenths = std::floor(celsius * 10.0 + 0.5);
  return static_cast<int>(std::clamp(tenths, double{-max_tenths}, double{max_tenths}));
}

/// Room for a row of the longest name: "<100 bytes>;-99.9\n" plus the 16-byte over-copy.
constexpr std::size_t row_headroom = max_name_bytes + 1 + 8 + 16;

/// Expected bytes of a block, so its buffer rarely grows.
std::size_t block_size_estimate(station_table const& table, std::uint64_t rows) {
  double const mean_prefix = static_cast<double>(table.offsets.back()) / static_cast<double>(table.means.size());
  return static_cast<std::size_t>(static_cast<double>(rows) * (mean_prefix + 5.5) * 1.02) + row_headroom;
}

/// Formats the `rows` rows of block number `block` into `buffer`; returns the bytes used. Only the
/// block number picks the random stream, so the bytes do not depend on which thread runs the block.
std::size_t fill_block(std::uint64_t block, std::uint64_t rows, std::uint64_t seed, station_table const& stations,
                       temperature_table const& temperatures, std::vector<char>& buffer) {
  rng random(seed, stream_tag::rows, block);
  gaussian normal;
  auto const count = static_cast<std::uint32_t>(stations.means.size());
  buffer.resize(std::max(buffer.size(), block_size_estimate(stations, rows)));
  std::size_t used = 0;
  for (std::uint64_t r = 0; r < rows; ++r) {
    if (buffer.size() - used < row_headroom) buffer.resize(buffer.size() + buffer.size() / 2 + row_headroom);
    char* out = buffer.data() + used;

    std::uint32_t const station = random.below(count);
    char const* prefix = stations.prefixes.data() + stations.offsets[station];
    std::size_t const prefix_size = stations.offsets[station + 1] - stations.offsets[station];
    if (prefix_size <= 16) {
      std::memcpy(out, prefix, 16);  // fixed-size copy; the tail is overwritten next
    } else {
      std::memcpy(out, prefix, prefix_size);
    }
    out += prefix_size;

    auto const& reading = temperatures[to_tenths(stations.means[station] + temperature_stddev * normal.next(random))];
    std::memcpy(out, reading.text.data(), reading.text.size());
    used += prefix_size + reading.size;
  }
  return used;
}

}  // namespace

std::vector<std::string> station_names(std::uint32_t count, std::uint64_t seed) {
  if (count == 0 || count > max_stations) {
    throw std::invalid_argument("station_names: count must be in 1..1000000, not " + std::to_string(count));
  }
  rng random(seed, stream_tag::names, 0);
  std::vector<std::string> names;
  names.reserve(count);
  std::unordered_set<std::string_view> seen;  // views of `names`, which never reallocates (reserved)
  seen.reserve(count);
  while (names.size() < count) {
    // In long lists every hundredth slot is a maximal name, so they exercise the 100-byte limit.
    bool const compact = count <= max_compact_stations;
    std::size_t const length = !compact && names.size() % 100 == 99 ? max_name_bytes : pick_length(random, compact);
    names.push_back(make_name(random, length));
    if (!seen.insert(names.back()).second) names.pop_back();  // on a clash, draw again
  }
  return names;
}

void write_measurements(int fd, measurements_options const& options, io::write_progress const& progress) {
  station_table const stations = make_station_table(options);  // validates options.stations
  temperature_table const temperatures;

  std::uint64_t const blocks = (options.rows + rows_per_block - 1) / rows_per_block;
  io::write_blocks(
      fd, blocks,
      [&](std::uint64_t block, std::vector<char>& buffer) {
        std::uint64_t const rows = std::min(rows_per_block, options.rows - block * rows_per_block);
        return fill_block(block, rows, options.seed, stations, temperatures, buffer);
      },
      "write_measurements", progress);
}

}  // namespace rowscan::generate
