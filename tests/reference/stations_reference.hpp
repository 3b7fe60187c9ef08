// SPDX-License-Identifier: Apache-2.0
// A scalar reference for `rowscan stations`: a plain std::map loop, written to be obviously right and
// to share no code with the compositions it checks.
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace reference {

/// The first bad line of an input: 1-based line number and the byte offset of the faulty field.
struct bad_input : std::runtime_error {
  bad_input(std::uint64_t line_, std::uint64_t byte_offset_)
      : std::runtime_error("bad line " + std::to_string(line_) + " at byte " + std::to_string(byte_offset_)),
        line(line_), byte_offset(byte_offset_) {}
  std::uint64_t line;
  std::uint64_t byte_offset;
};

/// A bad line that --skip-invalid left out: where bad_input would have said.
struct skipped_line {
  std::uint64_t line;
  std::uint64_t byte_offset;
  bool operator==(skipped_line const& o) const { return line == o.line && byte_offset == o.byte_offset; }
};

/// The One Billion Row Challenge answer for the measurements in text, "{...}\n"; throws bad_input at
/// the first bad line (at the '\r' when a good temperature is followed by one: a CR LF line ending).
///
/// With skipped (--skip-invalid), bad lines are left out of the answer and appended to *skipped
/// instead, all of them, in order; only a line longer than 4096 bytes with its '\n' (the reader's
/// carry) still throws bad_input.
std::string stations_answer(std::string_view text, std::vector<skipped_line>* skipped = nullptr);

}  // namespace reference
