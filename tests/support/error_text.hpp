// SPDX-License-Identifier: Apache-2.0
// The position and quote an input error gives a bad line, written out independently of
// rowscan/error.hpp so that the tests check its rules: `FILE:LINE:COLUMN: why: "the line"`, the column
// 1-based in bytes from the line's start, the quote escaped and cut after 80 characters with "...".
#pragma once

#include <cstdint>
#include <string>

namespace support {

/// The 1-based column of byte `offset` of text, in its line.
inline std::uint64_t column_of(std::string const& text, std::uint64_t offset) {
  std::size_t const newline = offset == 0 ? std::string::npos : text.rfind('\n', offset - 1);
  return offset - (newline == std::string::npos ? 0 : newline + 1) + 1;
}

/// The quote of the line of text that holds byte `offset`.
inline std::string quote_of(std::string const& text, std::uint64_t offset) {
  std::size_t const newline = offset == 0 ? std::string::npos : text.rfind('\n', offset - 1);
  std::size_t const start = newline == std::string::npos ? 0 : newline + 1;
  std::size_t end = text.find('\n', start);
  if (end == std::string::npos) end = text.size();
  std::string const line = text.substr(start, end - start);
  std::string out;
  bool cut = line.size() > 96;  // rowscan keeps a line's first 96 bytes
  for (std::size_t i = 0; i < line.size() && i < 96; ++i) {
    auto const c = static_cast<unsigned char>(line[i]);
    char piece[8];
    if (c == '"' || c == '\\') {
      piece[0] = '\\', piece[1] = static_cast<char>(c), piece[2] = '\0';
    } else if (c == '\t' || c == '\r') {
      piece[0] = '\\', piece[1] = c == '\t' ? 't' : 'r', piece[2] = '\0';
    } else if (c >= 0x20 && c < 0x7f) {
      piece[0] = static_cast<char>(c), piece[1] = '\0';
    } else {
      static constexpr char hex[] = "0123456789abcdef";
      piece[0] = '\\', piece[1] = 'x', piece[2] = hex[c >> 4], piece[3] = hex[c & 15], piece[4] = '\0';
    }
    if (out.size() + std::string(piece).size() > 80) {
      cut = true;
      break;
    }
    out += piece;
  }
  return "\"" + out + (cut ? "...\"" : "\"");
}

/// `FILE:LINE:COLUMN: ` of the bad byte at `offset` of text, which is FILE.
inline std::string position_of(std::string const& file, std::uint64_t line, std::string const& text, std::uint64_t offset) {
  return file + ":" + std::to_string(line) + ":" + std::to_string(column_of(text, offset)) + ": ";
}

}  // namespace support
