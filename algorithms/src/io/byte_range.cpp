// SPDX-License-Identifier: Apache-2.0
// Byte ranges moved to line starts (rowscan/io/byte_range.hpp).
#include "rowscan/io/byte_range.hpp"

#include "rowscan/error.hpp"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <unistd.h>
#include <vector>

namespace rowscan::io {

std::uint64_t line_start_at_or_after(int fd, std::uint64_t offset, std::uint64_t file_size, std::string const& label) {
  if (offset == 0 || offset >= file_size) return std::min(offset, file_size);
  std::vector<char> buffer(std::size_t{64} << 10);
  // The byte before the offset may itself end a line: then the offset is a line start.
  for (std::uint64_t at = offset - 1; at < file_size;) {
    std::size_t const want = static_cast<std::size_t>(std::min<std::uint64_t>(buffer.size(), file_size - at));
    ssize_t const got = ::pread(fd, buffer.data(), want, static_cast<off_t>(at));
    if (got < 0 && errno == EINTR) continue;
    if (got < 0) throw error(label + ": cannot read at byte " + std::to_string(at) + ": " + std::strerror(errno));
    if (got == 0) break;  // the file shrank: no '\n' after the offset
    auto const* newline = static_cast<char const*>(std::memchr(buffer.data(), '\n', static_cast<std::size_t>(got)));
    if (newline != nullptr) return at + static_cast<std::uint64_t>(newline - buffer.data()) + 1;
    at += static_cast<std::uint64_t>(got);
  }
  return file_size;
}

}  // namespace rowscan::io
