// SPDX-License-Identifier: Apache-2.0
#include "rowscan/io/write_all.hpp"

#include <omp.h>

#include <algorithm>
#include <array>
#include <cerrno>
#include <exception>
#include <future>
#include <string>
#include <system_error>
#include <unistd.h>

namespace rowscan::io {

void write_all(int fd, char const* data, std::size_t size, char const* what) {
  while (size > 0) {
    ssize_t const written = ::write(fd, data, size);
    if (written < 0) {
      if (errno == EINTR) continue;
      throw write_error(errno, std::generic_category(), std::string(what) + ": write failed");
    }
    data += written;
    size -= static_cast<std::size_t>(written);
  }
}

void write_blocks(int fd, std::uint64_t blocks,
                  std::function<std::size_t(std::uint64_t block, std::vector<char>& buffer)> const& fill,
                  char const* what, write_progress const& written) {
  // Two blocks per thread per batch: enough for dynamic balancing, while memory stays bounded.
  std::size_t const batch = 2 * static_cast<std::size_t>(std::max(1, omp_get_max_threads()));
  std::size_t const buffers_per_set = static_cast<std::size_t>(std::min<std::uint64_t>(batch, blocks));
  // Two buffer sets: one batch is written by a helper thread while the next is filled.
  std::array<std::vector<std::vector<char>>, 2> buffers{std::vector<std::vector<char>>(buffers_per_set),
                                                        std::vector<std::vector<char>>(buffers_per_set)};
  std::array<std::vector<std::size_t>, 2> used{std::vector<std::size_t>(buffers_per_set),
                                               std::vector<std::size_t>(buffers_per_set)};
  std::future<void> writing;  // declared after the buffers, so unwinding waits for it before freeing them
  std::uint64_t bytes_out = 0;  // touched by the writing thread only, one batch after another

  for (std::uint64_t first = 0, set = 0; first < blocks; first += batch, set ^= 1) {
    auto const in_batch = static_cast<std::size_t>(std::min<std::uint64_t>(batch, blocks - first));
    std::vector<std::vector<char>>& block_buffers = buffers[set];
    std::vector<std::size_t>& block_used = used[set];
    std::exception_ptr failure;  // exceptions must not escape an OpenMP region
#pragma omp parallel for schedule(dynamic, 1)
    for (std::size_t k = 0; k < in_batch; ++k) {
      try {
        block_used[k] = fill(first + k, block_buffers[k]);
      } catch (...) {
#pragma omp critical(rowscan_write_blocks_failure)
        failure = std::current_exception();
      }
    }
    if (failure) std::rethrow_exception(failure);
    if (writing.valid()) writing.get();  // the previous batch is out (or its error is thrown here)
    writing = std::async(std::launch::async, [=, &block_buffers, &block_used, &bytes_out, &written] {
      for (std::size_t k = 0; k < in_batch; ++k) {
        write_all(fd, block_buffers[k].data(), block_used[k], what);
        bytes_out += block_used[k];
      }
      if (written) written(first + in_batch, blocks, bytes_out);
    });
  }
  if (writing.valid()) writing.get();
}

}  // namespace rowscan::io
