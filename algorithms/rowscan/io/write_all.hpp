// SPDX-License-Identifier: Apache-2.0
// rowscan/io/write_all.hpp: write(2) until every byte is out.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <system_error>
#include <vector>

namespace rowscan::io {

/// A failed write(2): code() holds its errno. A caller that knows what the descriptor is (a file
/// name, standard output) catches it and names that instead of the writing function.
class write_error : public std::system_error {
 public:
  using std::system_error::system_error;
};

/// Writes all size bytes to fd, retrying partial writes and EINTR. Throws write_error (with errno)
/// whose message starts with what.
void write_all(int fd, char const* data, std::size_t size, char const* what);

/// Writes blocks 0 .. blocks-1 to fd in order, making them in parallel: fill(block, buffer) writes
/// block's bytes into buffer (grown as it likes) and returns how many it used. Batches of two blocks
/// per OpenMP thread are filled while a helper thread writes the batch before; the output is the same
/// for any thread count. An exception from fill or from writing (write_error) is rethrown here.
/// written, if given, is called on the writing thread after each batch is out, with how many of the
/// blocks and how many bytes have been written so far (a progress bar's figures).
using write_progress =
    std::function<void(std::uint64_t blocks_written, std::uint64_t blocks, std::uint64_t bytes_written)>;
void write_blocks(int fd, std::uint64_t blocks,
                  std::function<std::size_t(std::uint64_t block, std::vector<char>& buffer)> const& fill,
                  char const* what, write_progress const& written = {});

}  // namespace rowscan::io
