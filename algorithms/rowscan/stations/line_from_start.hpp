// SPDX-License-Identifier: Apache-2.0
// rowscan/stations/line_from_start.hpp: the host engine's parse, which reads a line from its start and
// so learns where the next line starts without searching for the '\n'.
//
// A host worker folds its lines one after another (fast_reducer::fold_known_lines). Searched for, each
// '\n' is a call to memchr, and a line parsed from its end makes every later line wait for that search.
// Read from its start, a valid line says where it ends:
//
//   "Hamburg;-12.3\n"
//    ^ the first ';' is in the first 16 bytes, found by two byte-equality masks of 8 bytes (no loop per
//      byte), or in the words after them
//           ^ the temperature -?d?d.d: its '.' is the 2nd or 3rd byte after the sign, so it is 3 to 5
//             bytes long, and '\n' must follow it
//
// The next line's start then waits only for a few loads and compares. The name's lookup (the one
// the GPU's fast path calls, given the words already loaded: dictionary_view::find_words) and the fold
// into its row hang off that chain, so a core overlaps them with the lines after.
//
// Exactly the lines parse_line accepts with a name the dictionary knows are taken: a name of 1 to 100
// bytes before the first ';', a temperature -?[0-9]{1,2}\.[0-9], then '\n'. Any other line (a new
// station, a bad line, a '\r' before the '\n', and the text's last line when no '\n' ends it) gets
// needs_general_path, and the worker hands it to the general path, which learns it, reports it or
// takes it. Changes here are kept by the time they measure on a core, not by reasoning about it: a '\n'
// search that shortened the chain from line to line but added instructions made the fold 1.2 times
// slower, and a compare that saved 13% of the instructions (short_name_by_words) cost time as well.
#pragma once

#include "rowscan/config.hpp"
#include "rowscan/stations/dense_ids.hpp"
#include "rowscan/stations/line_format.hpp"

#include <cstdint>

namespace rowscan::stations {
ROWSCAN_SYSTEM_BEGIN

namespace from_start {

constexpr std::uint64_t every_byte = 0x0101010101010101ull;
constexpr std::uint64_t high_bits = 0x8080808080808080ull;

/// The high bit of every byte of w equal to c. Exact up to the first such byte (a borrow may flag a
/// byte above it), which is the only one read.
inline std::uint64_t bytes_equal(std::uint64_t w, char c) {
  std::uint64_t const x = w ^ (every_byte * static_cast<unsigned char>(c));
  return (x - every_byte) & ~x & high_bits;
}

/// The position of the lowest flagged byte (flags != 0).
inline std::uint32_t first_flagged(std::uint64_t flags) { return static_cast<std::uint32_t>(__builtin_ctzll(flags)) / 8; }

/// Byte i of w.
inline std::uint32_t byte_of(std::uint64_t w, std::uint32_t i) { return static_cast<std::uint32_t>(w >> (8 * i)) & 0xffu; }

/// A line's first ';' when it lies in the line's first 16 bytes (found), and the name before it as
/// dictionary_view::find_words takes it: two words, zero above the name's end.
struct short_name {
  bool found;
  std::uint32_t separator;
  std::uint64_t w0;
  std::uint64_t w1;
};

/// short_name from the line's first two 8-byte words w0 and w1, by byte-equality masks over both: a
/// select, not a branch, picks the word the ';' is in (which word comes at random, line after line).
/// One 16-byte SSE2 compare instead runs fewer instructions but measured slower
/// (docs/data/host_parse-h100.csv).
inline short_name short_name_by_words(std::uint64_t w0, std::uint64_t w1) {
  std::uint64_t const in0 = bytes_equal(w0, ';');
  std::uint64_t const in1 = bytes_equal(w1, ';');
  if ((in0 | in1) == 0) return {false, 0, 0, 0};
  std::uint64_t const in_first = 0 - static_cast<std::uint64_t>(in0 != 0);  // all ones if the first word has it
  std::uint64_t const flags = (in0 & in_first) | (in1 & ~in_first);
  std::uint64_t const below = (flags ^ (flags - 1)) >> 8;  // the bytes below the ';'
  return {true, first_flagged(flags) + static_cast<std::uint32_t>(8 & ~in_first), w0 & (below | ~in_first),
          w1 & below & ~in_first};
}

}  // namespace from_start

/// A line read from its start: its station and reading, and where the line after it starts.
template <class Id>
struct basic_station_line {
  Id id;  ///< the dictionary's unknown id: not a valid line of a known station (then nothing else is set)
  std::int16_t tenths;
  std::uint32_t next;
};
using station_line = basic_station_line<station_id>;

/// Reads the line that starts at text[begin] (begin < size; host memory followed by text_padding_bytes
/// readable bytes).
template <class Id>
inline basic_station_line<Id> read_station_line_from_start(char const* text, std::uint32_t begin, std::uint32_t size,
                                                           basic_dictionary_view<Id> const& dictionary) {
  using namespace from_start;
  basic_station_line<Id> const refused{basic_dictionary_view<Id>::unknown, 0, begin};
  char const* const line = text + begin;
  std::uint32_t const left = size - begin;
  name_words const words{line};  // 8-byte loads from the line's start (the text's padding keeps them inside)

  // The first ';'. Most names are shorter than 16 bytes, about half of them shorter than 8: the first
  // 16 bytes are searched at once.
  std::uint64_t const w0 = words.word_at(0);
  std::uint64_t const w1 = words.word_at(8);
  short_name const name = short_name_by_words(w0, w1);
  std::uint32_t separator = name.separator;
  std::uint64_t name0 = name.w0;  // the name's words, zero above its end (what dictionary_view::find_words takes)
  std::uint64_t name1 = name.w1;
  if (!name.found) {  // a name of 16 bytes or more: a word at a time, up to max_name_bytes + 1 bytes
    std::uint64_t flags = 0;
    for (separator = 16; separator <= max_name_bytes && separator < left; separator += 8) {
      flags = bytes_equal(words.word_at(separator), ';');
      if (flags != 0) break;
    }
    if (flags == 0) return refused;
    separator += first_flagged(flags);
    if (separator > max_name_bytes) return refused;
    name0 = w0;
    name1 = w1;
  }
  if (separator == 0 || separator >= left) return refused;  // an empty name, or a ';' in the padding

  // The temperature, -?d?d.d: after its sign, its '.' is the 2nd or 3rd byte. One digit or two comes at
  // random, line after line, so selects (conditional moves, not branches) line both shapes up as
  // "Dd.d\n" (D is '0' for a one-digit temperature), and one test of the word checks every byte of it.
  // Selects between two fixed shifts measured faster than shifts by a computed count
  // (docs/data/host_parse-h100.csv).
  std::uint64_t const signed_t = words.word_at(separator + 1);
  std::uint32_t const negative = byte_of(signed_t, 0) == '-';
  std::uint64_t const t = negative ? signed_t >> 8 : signed_t;
  std::uint32_t const two_digits = byte_of(t, 1) != '.';
  std::uint64_t const shape = two_digits ? t : (t << 8) | std::uint64_t{'0'};
  std::uint64_t const x = shape ^ 0x0a302e3030ull;  // "00.0\n": digits become 0..9, '.' and '\n' zero
  std::uint32_t const end = separator + 1 + negative + 3 + two_digits;  // the line's bytes before its '\n'
  // Bits that must be zero: a digit's high nibble, all of the '.' and of the '\n'. Only a line the '\n'
  // ends is taken, so no line pays for a check of the text's end: the text's last line, when no '\n'
  // ends it, is the general path's.
  bool const digits_below_ten = (((x & 0x0f000f0full) + 0x06000606ull) & 0x10001010ull) == 0;
  bool const valid = ((x & 0xfff0fff0f0ull) == 0) & digits_below_ten & (end < left);
  if (!valid) return refused;
  // One multiply sums the three digits (bytes 0, 1 and 3) times 100, 10 and 1 into bits 24-33: the
  // products below stay under bit 24, and those above are multiples of 1 << 34 (the ones digit's
  // 100 << 32 is 25 << 34).
  auto const value = static_cast<std::int32_t>((((x & 0x0f000f0full) * 0x640a0001ull) >> 24) & 0x3ff);
  Id const id = dictionary.find_words(line, separator, name0, name1);
  auto const tenths = static_cast<std::int16_t>((value ^ -static_cast<std::int32_t>(negative)) + static_cast<std::int32_t>(negative));
  return {id, tenths, begin + end + 1};
}

ROWSCAN_SYSTEM_END
}  // namespace rowscan::stations
