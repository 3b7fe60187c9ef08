// SPDX-License-Identifier: Apache-2.0
// Reading an input small enough for --explain (rowscan/explain/arrays.hpp).
#include "rowscan/explain/arrays.hpp"

#include "rowscan/error.hpp"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <unistd.h>

namespace rowscan::explain {
namespace {

[[noreturn]] void throw_too_large(std::string const& label, std::string const& what) {
  throw error(label + ": --explain prints every array of the pipeline, so it takes at most " +
              std::to_string(max_bytes) + " bytes and " + std::to_string(max_lines) + " lines; this input has " +
              what + " (run without --explain)");
}

}  // namespace

std::string read_small_input(int fd, std::string const& label) {
  std::string text;
  char buffer[1024];
  while (text.size() <= max_bytes) {  // one byte past the limit is enough to refuse
    ssize_t const got = ::read(fd, buffer, sizeof buffer);
    if (got < 0 && errno == EINTR) continue;
    if (got < 0) throw error(label + ": cannot read: " + std::strerror(errno));
    if (got == 0) break;
    text.append(buffer, static_cast<std::size_t>(got));
  }
  if (text.size() > max_bytes) throw_too_large(label, "more than " + std::to_string(max_bytes) + " bytes");
  std::size_t lines = static_cast<std::size_t>(std::count(text.begin(), text.end(), '\n'));
  if (!text.empty() && text.back() != '\n') ++lines;  // the last line may lack its '\n'
  if (lines > max_lines) throw_too_large(label, std::to_string(lines) + " lines");
  return text;
}

}  // namespace rowscan::explain
