// SPDX-License-Identifier: Apache-2.0
// rowscan/stations/line_format.hpp: one measurement line "<name>;<temperature>", parsed exactly.
//
// The rules are the One Billion Row Challenge's: the name is 1..100 bytes without ';' or '\n' (any
// other byte belongs to it, taken as-is); the temperature is -99.9..99.9 with exactly one fractional
// digit: -?[0-9]{1,2}\.[0-9]. It becomes integer tenths; nothing here touches floating point.
//
// A line whose only fault is a '\r' before its '\n' gets a status of its own (carriage_return, at the
// '\r'), so that a file with Windows line endings is named as such instead of as a bad temperature.
//
// The checks run in a fixed order that only ever looks at a line's first 101 bytes to place the ';',
// so a prefix of a too-long line (a chunk of >= 128 bytes without a newline) fails exactly like the
// whole line would: the device parse, the error report and the scalar reference all agree.
#pragma once

#include "rowscan/hd.hpp"

#include <cstdint>

namespace rowscan::stations {

constexpr std::uint32_t max_name_bytes = 100;
/// The longest valid line: a 100-byte name, ';', "-99.9" and '\n'.
constexpr std::uint32_t max_line_bytes = max_name_bytes + 1 + 5 + 1;

enum class line_status : std::uint8_t {
  ok = 0,
  missing_separator,  ///< no ';' in a line of at most 100 bytes
  name_too_long,      ///< no ';' within the first 101 bytes
  empty_name,         ///< the line starts with ';'
  bad_temperature,    ///< what follows ';' is not -?[0-9]{1,2}\.[0-9]
  carriage_return,    ///< a valid temperature followed by '\r': a Windows (CR LF) line ending
};

/// What a line parses to. key is a 64-bit hash of the name: equal names give equal keys; the
/// grouping step proves the converse for the data at hand (see group.hpp).
struct parsed_line {
  std::uint64_t key;
  std::int16_t tenths;
  std::uint8_t name_size;
  line_status status;
  std::uint32_t error_at;  ///< offset in the line of the field at fault (0: the name, after ';': the temperature)
};

/// Bytes [i, i + n) of a name as a little-endian word, zero above byte n (n <= 8): the unit of name_hash.
ROWSCAN_HD inline std::uint64_t name_word(char const* bytes, std::uint32_t n) {
  std::uint64_t w = 0;
  for (std::uint32_t k = 0; k < n; ++k) w |= static_cast<std::uint64_t>(static_cast<unsigned char>(bytes[k])) << (8 * k);
  return w;
}

/// name_hash's state before the first word.
constexpr std::uint64_t name_hash_seed = 0x243f6a8885a308d3ull;

/// One step of name_hash: mixes the next 8-byte word into the state.
ROWSCAN_HD inline std::uint64_t hash_step(std::uint64_t h, std::uint64_t word) {
  h = (h ^ word) * 0x9e3779b97f4a7c15ull;
  return h ^ (h >> 32);
}

/// The last step of name_hash: mixes in the size and spreads every bit over the top bits (the fast
/// path's directory buckets by the top 16).
ROWSCAN_HD inline std::uint64_t hash_finish(std::uint64_t h, std::uint32_t size) {
  h ^= size;
  h ^= h >> 33;
  h *= 0xff51afd7ed558ccdull;
  h ^= h >> 33;
  h *= 0xc4ceb9fe1a85ec53ull;
  return h ^ (h >> 33);
}

/// The name's 64-bit key, eight bytes at a time so that a name of 100 bytes costs 13 steps: the same
/// value on every backend, and on the fast path, which assembles the same words from aligned loads.
ROWSCAN_HD inline std::uint64_t name_hash(char const* name, std::uint32_t size) {
  std::uint64_t h = name_hash_seed;
  for (std::uint32_t i = 0; i < size; i += 8) h = hash_step(h, name_word(name + i, size - i < 8 ? size - i : 8));
  return hash_finish(h, size);
}

ROWSCAN_HD inline bool is_digit(char c) { return c >= '0' && c <= '9'; }

/// Parses "-?[0-9]{1,2}\.[0-9]" (all of [t, t + size)) into tenths; false if it does not match.
ROWSCAN_HD inline bool parse_tenths(char const* t, std::uint32_t size, std::int16_t& tenths) {
  std::uint32_t i = 0;
  bool const negative = size > 0 && t[0] == '-';
  if (negative) ++i;
  std::uint32_t const int_digits = size - i - 2;  // what is left before ".d"
  if (size < i + 3 || int_digits > 2) return false;
  int value = 0;
  for (std::uint32_t k = 0; k < int_digits; ++k, ++i) {
    if (!is_digit(t[i])) return false;
    value = value * 10 + (t[i] - '0');
  }
  if (t[i] != '.' || !is_digit(t[i + 1])) return false;
  value = value * 10 + (t[i + 1] - '0');
  tenths = static_cast<std::int16_t>(negative ? -value : value);
  return true;
}

/// Parses one line given without its '\n'. Only the name's hash, its size and the tenths leave here.
ROWSCAN_HD inline parsed_line parse_line(char const* line, std::uint32_t size) {
  parsed_line out{0, 0, 0, line_status::ok, 0};
  std::uint32_t const scan_limit = size < max_name_bytes + 1 ? size : max_name_bytes + 1;
  std::uint32_t sep = 0;
  while (sep < scan_limit && line[sep] != ';') ++sep;
  if (sep == scan_limit) {
    out.status = size > max_name_bytes ? line_status::name_too_long : line_status::missing_separator;
    return out;
  }
  if (sep == 0) {
    out.status = line_status::empty_name;
    return out;
  }
  if (!parse_tenths(line + sep + 1, size - sep - 1, out.tenths)) {
    // Only on this failure path: is the one thing wrong a '\r' before the '\n' (a CR LF file)?
    std::int16_t ignored = 0;
    bool const crlf = line[size - 1] == '\r' && parse_tenths(line + sep + 1, size - sep - 2, ignored);
    out.status = crlf ? line_status::carriage_return : line_status::bad_temperature;
    out.error_at = crlf ? size - 1 : sep + 1;
    return out;
  }
  out.key = name_hash(line, sep);
  out.name_size = static_cast<std::uint8_t>(sep);
  return out;
}

/// A user-facing description of a status (host only).
char const* describe(line_status status);

}  // namespace rowscan::stations
