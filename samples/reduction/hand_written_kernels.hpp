// SPDX-License-Identifier: Apache-2.0
// samples/reduction/hand_written_kernels.hpp: the "before" rungs of the reduction ladder, CUDA only.
//
// The seven kernels of Mark Harris's "Optimizing Parallel Reduction in CUDA" (NVIDIA, 2007), numbered
// as he numbers them and written for today's GPUs, each changing one thing from the one before; then
// the same grid-stride loop around cub::BlockReduce, in two launches or in one launch with atomicAdd.
// rowscan itself contains no hand-written kernel: these exist only to show what the library call
// replaces, and what each step of hand tuning buys.
#pragma once

#include <thrust/device_vector.h>

#include <cstddef>
#include <cstdint>

namespace samples::hand_written {

/// Threads per block of every hand-written kernel (a power of two, at least 64, as the trees need).
constexpr unsigned block_threads = 256;

/// Device memory for the partial sums (one per block of the first level) and the SM count, allocated
/// and queried once, outside timing.
struct scratch {
  explicit scratch(std::size_t n);
  thrust::device_vector<std::uint32_t> a;
  thrust::device_vector<std::uint32_t> b;
  unsigned sms = 0;  ///< streaming multiprocessors of the current device
};

/// Kernels 1 to 6 load one (1-3) or two (4-6) values per thread and are launched level after level until
/// one sum is left; kernel 7 and the rungs after it run a grid that fills the GPU, then one block.
std::uint32_t sum_kernel1(std::uint32_t const* values, std::size_t n, scratch& s);  ///< interleaved, divergent
std::uint32_t sum_kernel2(std::uint32_t const* values, std::size_t n, scratch& s);  ///< interleaved, bank conflicts
std::uint32_t sum_kernel3(std::uint32_t const* values, std::size_t n, scratch& s);  ///< sequential addressing
std::uint32_t sum_kernel4(std::uint32_t const* values, std::size_t n, scratch& s);  ///< first add during load
std::uint32_t sum_kernel5(std::uint32_t const* values, std::size_t n, scratch& s);  ///< last warp unrolled
std::uint32_t sum_kernel6(std::uint32_t const* values, std::size_t n, scratch& s);  ///< completely unrolled
std::uint32_t sum_kernel7(std::uint32_t const* values, std::size_t n, scratch& s);  ///< many values per thread
/// Kernel 7's loop, with cub::BlockReduce for the block's tree; two passes.
std::uint32_t sum_block_reduce(std::uint32_t const* values, std::size_t n, scratch& s);
/// The same block sums, added into one word with atomicAdd: one pass (and a memset).
std::uint32_t sum_atomic(std::uint32_t const* values, std::size_t n, scratch& s);

/// For the float-determinism demonstration (untimed; they allocate their own partials). The sum of
/// kernel 7's shape with cub::BlockReduce on a grid of `blocks` blocks: two passes, or one pass that
/// atomicAdds the blocks' sums in whatever order the blocks finish.
template <class T>
T sum_two_passes(T const* values, std::size_t n, unsigned blocks);
template <class T>
T sum_one_pass_atomic(T const* values, std::size_t n, unsigned blocks);

/// Streaming multiprocessors of the current device.
unsigned multiprocessors();

}  // namespace samples::hand_written
