// SPDX-License-Identifier: Apache-2.0
// samples/reduction/hand_written_kernels.hpp: the "before" rungs of the reduction ladder, CUDA only.
//
// The kernels of seed 004 (ETH "Data Processing on Modern Hardware", 2012), written by hand as a
// learner would, plus one that lets cub::BlockReduce do the block's part. rowscan itself contains no
// hand-written kernel: these exist only to show what the library call replaces.
#pragma once

#include <thrust/device_vector.h>

#include <cstddef>
#include <cstdint>

namespace samples::hand_written {

/// Threads per block of every hand-written kernel (a power of two, as the tree loops need).
constexpr unsigned block_threads = 256;

/// Device memory for the partial sums: one per block of the first level, allocated once, outside timing.
struct scratch {
  explicit scratch(std::size_t n);
  thrust::device_vector<std::uint32_t> a;
  thrust::device_vector<std::uint32_t> b;
};

/// Kernel #1 (interleaved addressing) launched level after level until one sum is left.
std::uint32_t sum_interleaved(std::uint32_t const* values, std::size_t n, scratch& s);
/// Kernel #2 (sequential addressing) launched level after level until one sum is left.
std::uint32_t sum_sequential_addressing(std::uint32_t const* values, std::size_t n, scratch& s);
/// A grid-stride kernel around cub::BlockReduce, in two passes: partial sums per block, then one block.
std::uint32_t sum_block_reduce(std::uint32_t const* values, std::size_t n, scratch& s);

}  // namespace samples::hand_written
