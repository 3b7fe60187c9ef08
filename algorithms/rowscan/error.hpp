// SPDX-License-Identifier: Apache-2.0
// rowscan/error.hpp: errors are exceptions with context, caught once in main.
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>

namespace rowscan {

/// Any failure rowscan reports to its user: the message is one line, ready to print after "rowscan: error: ".
class error : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

/// Input that breaks the format rules, located in the input: `FILE:LINE: byte OFFSET: what`.
class input_error : public error {
 public:
  input_error(std::string const& file, std::uint64_t line, std::uint64_t byte_offset, std::string const& what)
      : error(file + ":" + std::to_string(line) + ": byte " + std::to_string(byte_offset) + ": " + what),
        line_(line), byte_offset_(byte_offset), why_(what) {}
  std::uint64_t line() const { return line_; }          ///< 1-based line number
  std::uint64_t byte_offset() const { return byte_offset_; }  ///< 0-based offset of the offending byte
  /// What is wrong, without the position (to place the error again in a larger input: several files, ranks).
  std::string const& why() const { return why_; }

 private:
  std::uint64_t line_;
  std::uint64_t byte_offset_;
  std::string why_;
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
