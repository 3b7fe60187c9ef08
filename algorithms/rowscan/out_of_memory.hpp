// SPDX-License-Identifier: Apache-2.0
// rowscan/out_of_memory.hpp: what a chunk does when the device runs out of memory: it tries once more,
// in two halves, and then gives up with a clear error.
#pragma once

#include "rowscan/error.hpp"

#include <cstddef>
#include <cstdint>
#include <new>
#include <string>

namespace rowscan {

/// Runs work(begin, end, lines_before) over a chunk's whole lines [0, size), where lines_before is the
/// number of lines work has already taken from [0, begin), and returns the lines it took in all.
/// If the device runs out of memory (std::bad_alloc), it runs work again over two halves, split after
/// the '\n' at or after the middle: split_after(size / 2) gives that position (size when there is
/// none). If a half runs out of memory too, it throws device_error naming the input and the chunk.
///
/// work must leave no trace when it throws std::bad_alloc: the caller's state is as before the call.
template <class Work, class SplitAfter>
std::size_t in_halves_if_out_of_memory(std::size_t size, SplitAfter split_after, Work work, std::string const& label,
                                       std::uint64_t input_offset) {
  try {
    return work(std::size_t{0}, size, std::size_t{0});
  } catch (std::bad_alloc const&) {
  }
  std::size_t const middle = split_after(size / 2);
  try {
    std::size_t const lines = work(std::size_t{0}, middle, std::size_t{0});
    return lines + (middle < size ? work(middle, size, lines) : 0);
  } catch (std::bad_alloc const&) {
    throw device_error(label + ": out of device memory for the " + std::to_string(size) +
                       "-byte chunk at byte " + std::to_string(input_offset) +
                       ", and again for half of it; give a smaller --chunk-size");
  }
}

}  // namespace rowscan
