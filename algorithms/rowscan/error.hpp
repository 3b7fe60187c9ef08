// SPDX-License-Identifier: Apache-2.0
// rowscan/error.hpp: errors are exceptions with context, caught once in main.
#pragma once

#include "rowscan/utf8.hpp"

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <stdexcept>
#include <string>

namespace rowscan {

/// Any failure rowscan reports to its user: the message is one line, ready to print after "rowscan: error: ".
/// A usage error: a missing, unknown or malformed option or operand. The CLI prints it and exits with 2.
class usage_error : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

class error : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

/// Bytes of a bad line kept to quote it in its error (the quote shows at most line_quote_chars of them).
constexpr std::size_t line_excerpt_bytes = 96;
/// The most characters of a quoted line, escapes included, before "...".
constexpr std::size_t line_quote_chars = 80;

/// A line's first bytes as an error quotes them: in double quotes, printable ASCII as itself (with \"
/// and \\), tab and CR as \t and \r, any other byte as \xNN; cut with "..." after line_quote_chars
/// characters, or where the kept bytes end and `more` says the line goes on.
inline std::string quoted_line(std::string const& bytes, bool more) {
  static constexpr char hex[] = "0123456789abcdef";
  std::string out = "\"";
  bool cut = more;
  for (std::size_t i = 0; i < bytes.size(); ++i) {
    auto const c = static_cast<unsigned char>(bytes[i]);
    std::string piece;
    if (c == '"' || c == '\\') {
      piece = std::string("\\") + static_cast<char>(c);
    } else if (c == '\t') {
      piece = "\\t";
    } else if (c == '\r') {
      piece = "\\r";
    } else if (c >= 0x20 && c < 0x7f) {
      piece = std::string(1, static_cast<char>(c));
    } else {
      piece = std::string("\\x") + hex[c >> 4] + hex[c & 15];
    }
    if (out.size() - 1 + piece.size() > line_quote_chars) {
      cut = true;
      break;
    }
    out += piece;
  }
  return out + (cut ? "...\"" : "\"");
}

/// Testing aid: ROWSCAN_ERROR_BYTE_OFFSETS=1 adds each bad line's 0-based byte offset in its file to its
/// error, after the column: `FILE:LINE:COLUMN: byte OFFSET: what`.
inline bool byte_offsets_in_errors() {
  static bool const on = [] {
    char const* value = std::getenv("ROWSCAN_ERROR_BYTE_OFFSETS");
    return value != nullptr && value[0] == '1';
  }();
  return on;
}

/// Input that breaks the format rules, located in the input and quoted:
/// `FILE:LINE:COLUMN: what: "the line"`. The column is 1-based, in bytes from the line's start; the
/// quote is the line's start (quoted_line). Without a column (0) or a quote (empty), those parts are
/// left out.
class input_error : public error {
 public:
  input_error(std::string const& file, std::uint64_t line, std::uint64_t byte_offset, std::string const& what,
              std::uint64_t column = 0, std::string const& quote = "")
      : error(file + ":" + std::to_string(line) + ":" + (column != 0 ? std::to_string(column) + ":" : "") +
              (byte_offsets_in_errors() || column == 0 ? " byte " + std::to_string(byte_offset) + ":" : "") + " " +
              what + (quote.empty() ? "" : ": " + quote)),
        line_(line), byte_offset_(byte_offset), why_(what), column_(column), quote_(quote) {}
  std::uint64_t line() const { return line_; }          ///< 1-based line number
  std::uint64_t byte_offset() const { return byte_offset_; }  ///< 0-based offset of the offending byte
  /// What is wrong, without the position (to place the error again in a larger input: several files, ranks).
  std::string const& why() const { return why_; }
  std::uint64_t column() const { return column_; }      ///< 1-based, in bytes from the line's start; 0: unknown
  std::string const& quote() const { return quote_; }   ///< the quoted line (quoted_line), or empty

 private:
  std::uint64_t line_;
  std::uint64_t byte_offset_;
  std::string why_;
  std::uint64_t column_;
  std::string quote_;
};

/// A failing device call (CUDA runtime or Thrust).
class device_error : public error {
 public:
  using error::error;
};

}  // namespace rowscan

/// Throws rowscan::error with the message when the condition fails.
#define ROWSCAN_EXPECTS(cond, message)                     \
  do {                                                     \
    if (!(cond)) throw ::rowscan::error(message);          \
  } while (0)
