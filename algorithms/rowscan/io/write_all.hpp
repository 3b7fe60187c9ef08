// rowscan/io/write_all.hpp: write(2) until every byte is out.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <vector>

namespace rowscan::io {

/// Writes all size bytes to fd, retrying partial writes and EINTR. Throws std::system_error (with
/// errno) whose message starts with what.
void write_all(int fd, char const* data, std::size_t size, char const* what);

/// Writes blocks 0 .. blocks-1 to fd in order, making them in parallel: fill(block, buffer) writes
/// block's bytes into buffer (grown as it likes) and returns how many it used. Batches of two blocks
/// per OpenMP thread are filled while a helper thread writes the batch before; the output is the same
/// for any thread count. An exception from fill or from writing is rethrown here.
void write_blocks(int fd, std::uint64_t blocks,
                  std::function<std::size_t(std::uint64_t block, std::vector<char>& buffer)> const& fill,
                  char const* what);

}  // namespace rowscan::io
