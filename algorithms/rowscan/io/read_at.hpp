// SPDX-License-Identifier: Apache-2.0
// rowscan/io/read_at.hpp: bytes of a regular file read at an offset, whole, or the error that says why not.
// The reader's ring (io/chunked_reader.hpp) and the copies of mapped windows (io/mapped_windows.hpp)
// both read this way, so a file that shrinks is reported in the same words by either.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

namespace rowscan::io {

/// "LABEL: the file shrank while it was read (it had FILE_SIZE bytes)": the start of every error (and of
/// SIGBUS's line) for a file that lost bytes while it was read.
std::string shrank_while_read(std::string const& label, std::uint64_t file_size);

/// Reads size bytes of fd at offset (from the file's start) into out with pread, retrying short reads
/// and EINTR. Throws rowscan::error naming label: the system's reason for a failed read, or, if the file
/// ends first, shrank_while_read with the byte where reading stopped (file_size: its size when reading began).
void read_at(int fd, char* out, std::size_t size, std::uint64_t offset, std::string const& label, std::uint64_t file_size);

}  // namespace rowscan::io
