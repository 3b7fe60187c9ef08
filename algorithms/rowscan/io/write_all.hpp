// rowscan/io/write_all.hpp: write(2) until every byte is out.
#pragma once

#include <cstddef>

namespace rowscan::io {

/// Writes all size bytes to fd, retrying partial writes and EINTR. Throws std::system_error (with
/// errno) whose message starts with what.
void write_all(int fd, char const* data, std::size_t size, char const* what);

}  // namespace rowscan::io
