// SPDX-License-Identifier: Apache-2.0
// rowscan/io/byte_range.hpp: a byte range of a file, moved to line starts, so that ranges cut anywhere
// hold whole lines and every line lands in exactly one of them (scale-out: one rank's share).
//
// A line belongs to the range where it starts, as the chunked reader decides for blocks: the range
// [b, e) of a file is read as [line_start_at_or_after(b), line_start_at_or_after(e)). Neighbouring
// ranges [.., x) and [x, ..) use the same cut, so they meet exactly.
//
//   text:   "ab\ncde\nf\n"       ranges [0, 4) and [4, 9)
//   starts:  0    3     7        [0, 4) -> [0, 7) ("ab\ncde\n"), [4, 9) -> [7, 9) ("f\n")
#pragma once

#include <cstdint>
#include <string>

namespace rowscan::io {

/// The first line start at or after `offset` in the regular file fd of file_size bytes: 0 for 0, the
/// byte after the first '\n' at or after offset - 1, or file_size when no '\n' follows. Reads with
/// pread (the descriptor's position does not move), 64 KiB at a time, as far as the next '\n': one
/// line beyond the offset, however long. Throws rowscan::error naming label if reading fails.
std::uint64_t line_start_at_or_after(int fd, std::uint64_t offset, std::uint64_t file_size, std::string const& label);

}  // namespace rowscan::io
