// SPDX-License-Identifier: Apache-2.0
#include "rowscan/io/read_at.hpp"

#include "rowscan/error.hpp"

#include <cerrno>
#include <cstring>
#include <unistd.h>

namespace rowscan::io {

std::string shrank_while_read(std::string const& label, std::uint64_t file_size) {
  return label + ": the file shrank while it was read (it had " + std::to_string(file_size) + " bytes";
}

void read_at(int fd, char* out, std::size_t size, std::uint64_t offset, std::string const& label, std::uint64_t file_size) {
  for (std::size_t done = 0; done < size;) {
    ssize_t const got = ::pread(fd, out + done, size - done, static_cast<off_t>(offset + done));
    if (got < 0) {
      if (errno == EINTR) continue;
      throw error(label + ": cannot read at byte " + std::to_string(offset + done) + ": " + std::strerror(errno));
    }
    if (got == 0) {
      throw error(shrank_while_read(label, file_size) + "; reading stopped at byte " + std::to_string(offset + done) + ")");
    }
    done += static_cast<std::size_t>(got);
  }
}

}  // namespace rowscan::io
