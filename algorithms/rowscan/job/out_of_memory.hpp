// SPDX-License-Identifier: Apache-2.0
// rowscan/job/out_of_memory.hpp: what a block does when the device runs out of memory: it tries once
// more, in two halves, and then gives up with a clear error.
#pragma once

#include "rowscan/job/tally.hpp"

#include <cstddef>
#include <cstdint>
#include <new>

namespace rowscan::job {

/// Thrown when a text's two halves ran out of device memory too: the text's size, and where it starts
/// relative to the block the driver handed out (the driver names the input and the absolute byte).
struct out_of_memory_twice {
  std::size_t size;
  std::uint64_t offset;
};

/// Runs fold(begin, end) over a text's whole lines [0, size) and returns its tally (positions relative
/// to begin). If the device runs out of memory (std::bad_alloc), it folds again in two halves, split
/// after the '\n' at or after the middle (split_after(size / 2) gives that position, size when there is
/// none), and merges the halves' tallies. If a half runs out of memory too, it throws device_error
/// naming the input and the text (input_offset: where the text starts in the input).
///
/// fold must leave no trace when it throws std::bad_alloc: the caller's state is as before the call.
template <class Fold, class SplitAfter>
tally in_halves_if_out_of_memory(std::size_t size, SplitAfter split_after, Fold fold, std::uint64_t offset = 0) {
  try {
    return fold(std::size_t{0}, size);
  } catch (std::bad_alloc const&) {
  }
  std::size_t const middle = split_after(size / 2);
  try {
    tally const first = fold(std::size_t{0}, middle);
    return middle < size && !first.stop ? merge(first, fold(middle, size)) : first;
  } catch (std::bad_alloc const&) {
    throw out_of_memory_twice{size, offset};
  }
}

}  // namespace rowscan::job
