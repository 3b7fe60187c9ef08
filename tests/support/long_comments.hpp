// SPDX-License-Identifier: Apache-2.0
// Valid lineitem.tbl text with some rows made long: plain C++, for the library's tests and the CLI's.
#pragma once

#include <cstddef>
#include <string>

namespace support {

/// text with the comment of every `every`-th row (the first among them) lengthened by `extra` bytes: still
/// valid, but with extra > 1024 a row the lineitem one pass leaves to the step-by-step composition
/// (rowscan/lineitem/one_pass.hpp), so a block that holds one allocates its records and columns.
inline std::string with_long_comments(std::string const& text, std::size_t every, std::size_t extra) {
  std::string out;
  std::size_t row = 0;
  for (std::size_t begin = 0; begin < text.size(); ++row) {
    std::size_t const newline = text.find('\n', begin);
    std::size_t const end = newline == std::string::npos ? text.size() : newline + 1;
    std::string line = text.substr(begin, end - begin);
    std::size_t const last_pipe = line.rfind('|');
    if (row % every == 0 && last_pipe != std::string::npos) line.insert(last_pipe, extra, 'c');
    out += line;
    begin = end;
  }
  return out;
}

}  // namespace support
