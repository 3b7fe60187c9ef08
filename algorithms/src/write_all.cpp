#include "rowscan/io/write_all.hpp"

#include <cerrno>
#include <string>
#include <system_error>
#include <unistd.h>

namespace rowscan::io {

void write_all(int fd, char const* data, std::size_t size, char const* what) {
  while (size > 0) {
    ssize_t const written = ::write(fd, data, size);
    if (written < 0) {
      if (errno == EINTR) continue;
      throw std::system_error(errno, std::generic_category(), std::string(what) + ": write failed");
    }
    data += written;
    size -= static_cast<std::size_t>(written);
  }
}

}  // namespace rowscan::io
