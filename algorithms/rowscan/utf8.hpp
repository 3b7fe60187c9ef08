// SPDX-License-Identifier: Apache-2.0
// rowscan/utf8.hpp: where bytes are well-formed UTF-8, for the outputs and messages that must be text.
// Station names and file names are bytes; rowscan never requires them to be UTF-8
// (docs/input-rules.md), so each writer decides what to do with a byte that is not.
#pragma once

#include <cstddef>
#include <string>

namespace rowscan {

/// The length of the well-formed UTF-8 sequence that starts at s[i] (RFC 3629, table 3-7 of the Unicode
/// standard: no overlong forms, no surrogates, nothing above U+10FFFF), or 0 if none starts there.
inline std::size_t utf8_sequence_length(std::string const& s, std::size_t i) {
  auto byte = [&](std::size_t k) { return i + k < s.size() ? static_cast<unsigned char>(s[i + k]) : 0u; };
  auto in = [](unsigned b, unsigned lo, unsigned hi) { return b >= lo && b <= hi; };
  unsigned const b0 = byte(0);
  if (b0 < 0x80) return 1;
  if (in(b0, 0xC2, 0xDF)) return in(byte(1), 0x80, 0xBF) ? 2 : 0;
  if (in(b0, 0xE0, 0xEF)) {
    unsigned const lo = b0 == 0xE0 ? 0xA0 : 0x80;
    unsigned const hi = b0 == 0xED ? 0x9F : 0xBF;
    return in(byte(1), lo, hi) && in(byte(2), 0x80, 0xBF) ? 3 : 0;
  }
  if (in(b0, 0xF0, 0xF4)) {
    unsigned const lo = b0 == 0xF0 ? 0x90 : 0x80;
    unsigned const hi = b0 == 0xF4 ? 0x8F : 0xBF;
    return in(byte(1), lo, hi) && in(byte(2), 0x80, 0xBF) && in(byte(3), 0x80, 0xBF) ? 4 : 0;
  }
  return 0;
}

/// Whether all of s is well-formed UTF-8.
inline bool is_utf8(std::string const& s) {
  for (std::size_t i = 0; i < s.size();) {
    std::size_t const length = utf8_sequence_length(s, i);
    if (length == 0) return false;
    i += length;
  }
  return true;
}

/// A file or directory name as messages print it: one line of text whatever its bytes. Control bytes
/// (below 0x20, and 0x7f) and bytes that are not UTF-8 become \xNN (tab, CR and LF: \t, \r, \n), and a
/// backslash that would start such an escape is doubled; everything else, UTF-8 names included, is
/// itself. "<stdin>" and names of plain text come out unchanged.
inline std::string display_name(std::string const& name) {
  static constexpr char hex[] = "0123456789abcdef";
  std::string out;
  out.reserve(name.size());
  for (std::size_t i = 0; i < name.size();) {
    auto const c = static_cast<unsigned char>(name[i]);
    std::size_t const length = utf8_sequence_length(name, i);
    if (c == '\\' && i + 1 < name.size() && (name[i + 1] == 'x' || name[i + 1] == 't' || name[i + 1] == 'r' ||
                                             name[i + 1] == 'n' || name[i + 1] == '\\')) {
      out += "\\\\";
    } else if (c == '\t') {
      out += "\\t";
    } else if (c == '\r') {
      out += "\\r";
    } else if (c == '\n') {
      out += "\\n";
    } else if (c < 0x20 || c == 0x7f || length == 0) {
      out += std::string("\\x") + hex[c >> 4] + hex[c & 15];
    } else {
      out.append(name, i, length);
      i += length;
      continue;
    }
    ++i;
  }
  return out;
}

}  // namespace rowscan
