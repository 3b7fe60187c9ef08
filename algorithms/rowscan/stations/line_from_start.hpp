// SPDX-License-Identifier: Apache-2.0
// rowscan/stations/line_from_start.hpp: the host engine's parse, which reads a line from its start and
// so learns where the next line starts without searching for the '\n'.
//
// A host worker folds its lines one after another (fast_reducer::fold_known_lines). Searched for, each
// '\n' is a call to memchr, and a line parsed from its end makes every later line wait for that search.
// Read from its start, a valid line says where it ends:
//
//   "Hamburg;-12.3\n"
//    ^ the first ';' is in the first words, found 8 bytes at a time (a byte-equality mask, no loop per byte)
//           ^ the temperature -?d?d.d: its '.' is the 2nd or 3rd byte after the sign, so it is 3 to 5
//             bytes long, and '\n' (or the text's end) must follow it
//
// The next line's start then waits only for two loads and their masks. The name's lookup (the one
// the GPU's fast path calls, given the words already loaded: dictionary_view::find_words) and the fold
// into its row hang off that chain, so a core overlaps them with the lines after.
//
// Exactly the lines parse_line accepts with a name the dictionary knows are taken: a name of 1 to 100
// bytes before the first ';', a temperature -?[0-9]{1,2}\.[0-9], then '\n' or the end of the text. Any
// other line (a new station, a bad line, a '\r' before the '\n') gets needs_general_path, and the worker
// hands it to the general path, which learns it or reports it.
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

}  // namespace from_start

/// A line read from its start: its station and reading, and where the line after it starts.
struct station_line {
  station_id id;  ///< needs_general_path: not a valid line of a known station (then nothing else is set)
  std::int16_t tenths;
  std::uint32_t next;
};

/// Reads the line that starts at text[begin] (begin < size; host memory followed by text_padding_bytes
/// readable bytes).
inline station_line read_station_line_from_start(char const* text, std::uint32_t begin, std::uint32_t size,
                                                 dictionary_view const& dictionary) {
  using namespace from_start;
  station_line const refused{needs_general_path, 0, begin};
  char const* const line = text + begin;
  std::uint32_t const left = size - begin;
  name_words const words{line};  // 8-byte loads from the line's start (the text's padding keeps them inside)

  // The first ';'. Most names are shorter than 16 bytes, about half of them shorter than 8: both first
  // words are searched at once, and a select, not a branch, picks the word the ';' is in.
  std::uint64_t const w0 = words.word_at(0);
  std::uint64_t const w1 = words.word_at(8);
  std::uint64_t const in0 = bytes_equal(w0, ';');
  std::uint64_t const in1 = bytes_equal(w1, ';');
  std::uint32_t separator = 0;
  std::uint64_t name0 = 0;  // the name's words, zero above its end (what dictionary_view::find_words takes)
  std::uint64_t name1 = 0;
  if ((in0 | in1) != 0) {
    // Which word holds the ';' comes at random, line after line: masks pick it, since a branch on it
    // would be mispredicted about every other line.
    std::uint64_t const in_first = 0 - static_cast<std::uint64_t>(in0 != 0);  // all ones if the first word has it
    std::uint64_t const flags = (in0 & in_first) | (in1 & ~in_first);
    std::uint64_t const below = (flags ^ (flags - 1)) >> 8;  // the bytes below the ';'
    separator = first_flagged(flags) + static_cast<std::uint32_t>(8 & ~in_first);
    name0 = w0 & (below | ~in_first);
    name1 = w1 & below & ~in_first;
  } else {  // a name of 16 bytes or more: a word at a time, up to max_name_bytes + 1 bytes
    std::uint64_t flags = 0;
    for (separator = 16; separator <= max_name_bytes && separator < left; separator += 8) {
      flags = bytes_equal(words.word_at(separator), ';');
      if (flags != 0) break;
    }
    if (flags == 0) return refused;
    separator += first_flagged(flags);
    name0 = w0;
    name1 = w1;
  }
  if (separator == 0 || separator >= left) return refused;  // an empty name, or a ';' in the padding

  // The temperature, -?d?d.d: after its sign, its '.' is the 2nd or 3rd byte. One digit or two comes at
  // random, line after line, so shifts and masks, not branches, line both shapes up as "Dd.d\n" (D is
  // '0' for a one-digit temperature), and one test of the word checks every byte of it.
  std::uint64_t t = words.word_at(separator + 1);
  std::uint32_t const negative = byte_of(t, 0) == '-';
  t >>= 8 * negative;
  std::uint32_t const two_digits = byte_of(t, 1) != '.';
  std::uint64_t const shape = (t << (8 * (1 - two_digits))) | (two_digits ? 0 : std::uint64_t{'0'});
  std::uint64_t const x = shape ^ 0x0a302e3030ull;  // "00.0\n": digits become 0..9, '.' and '\n' zero
  std::uint32_t const end = separator + 1 + negative + 3 + two_digits;  // the line's bytes before its '\n'
  bool const ends_text = end == left;
  // Bits that must be zero: a digit's high nibble, all of the '.', and the '\n' unless the text ends.
  std::uint64_t const zero_bits = 0xf0fff0f0ull | (ends_text ? 0 : 0xff00000000ull);
  bool const digits_below_ten = (((x & 0x0f000f0full) + 0x06000606ull) & 0x10001010ull) == 0;
  bool const valid = ((x & zero_bits) == 0) & digits_below_ten & (end <= left);
  if (!valid) return refused;
  auto const value = static_cast<std::int32_t>(byte_of(x, 0) * 100 + byte_of(x, 1) * 10 + byte_of(x, 3));
  station_id const id =
      separator > max_name_bytes ? needs_general_path : dictionary.find_words(line, separator, name0, name1);
  auto const tenths = static_cast<std::int16_t>((value ^ -static_cast<std::int32_t>(negative)) + static_cast<std::int32_t>(negative));
  return {id, tenths, begin + end + (ends_text ? 0u : 1u)};
}

ROWSCAN_SYSTEM_END
}  // namespace rowscan::stations
