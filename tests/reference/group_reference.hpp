// SPDX-License-Identifier: Apache-2.0
// A scalar reference for `rowscan group`: a plain RFC 4180 reader (a byte-at-a-time state machine), a
// std::map of keys and exact sums, written to be obviously right and to share no code with the
// compositions it checks.
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace reference {

/// How the reference reads a text: the CLI's --delimiter, --quote (0 for --no-quote), --header,
/// --key and --value (0-based columns) and --scale (-1: none).
struct group_format {
  char delimiter = ',';
  char quote = '"';
  bool header = false;
  std::vector<std::uint32_t> keys;
  std::vector<std::uint32_t> values;
  int scale = -1;
  std::vector<std::string> value_names;  ///< the output's name of each value column; empty: its position
};

/// The first bad record: the 1-based line it starts on and the 1-based column of its faulty byte,
/// counted from the record's start.
struct bad_record : std::runtime_error {
  bad_record(std::uint64_t line_, std::uint64_t column_)
      : std::runtime_error("bad record at line " + std::to_string(line_) + ", column " + std::to_string(column_)),
        line(line_),
        column(column_) {}
  std::uint64_t line;
  std::uint64_t column;
};

/// A record of the text by the parity rule: [begin, end) with its '\n', and its 0-based start line.
struct reference_record {
  std::size_t begin;
  std::size_t end;
  std::size_t line;
};

/// The records of a text: a '\n' ends one when an even number of quotes came before it in the text.
std::vector<reference_record> split_records(std::string_view text, char quote);

/// `rowscan group --format csv`'s output for the texts of several files read in turn (each file's
/// first record a header with format.header). Throws bad_record at the first bad record, unless
/// `skipped` is given: bad records are then left out and counted there.
std::string group_answer(std::vector<std::string> const& files, group_format const& format,
                         std::uint64_t* skipped = nullptr);

}  // namespace reference
