// SPDX-License-Identifier: Apache-2.0
// samples/reduction/hand_written_kernels.cu: the hand-written reduction kernels (CUDA only).
// CMake compiles this file only when ROWSCAN_BACKEND is CUDA; docs/reduction.md walks through it.
#include "hand_written_kernels.hpp"

#include "../common/sample.hpp"

#include <cub/block/block_reduce.cuh>

#include <algorithm>
#include <utility>

namespace samples::hand_written {

namespace {

// [docs:kernel-1]
/// Kernel #1 of seed 004: each block loads one value per thread into shared memory and adds pairs in a
/// tree. At step s, thread tid adds word 2*s*tid + s into word 2*s*tid. The active threads are the
/// first blockDim/(2s), so whole warps drop out together (the first version, `if (tid % (2*s) == 0)`,
/// kept every warp busy with most lanes idle). But the threads of a warp touch words 2s apart: with 32
/// banks of 4-byte words, stride 2s puts up to 2s of them (as many as are active) in one bank, a bank
/// conflict that the hardware serializes.
__global__ void reduce_interleaved(std::uint32_t const* in, std::uint32_t* out, std::size_t n) {
  extern __shared__ std::uint32_t partial[];
  unsigned const tid = threadIdx.x;
  std::size_t const i = blockIdx.x * std::size_t{blockDim.x} + tid;
  partial[tid] = i < n ? in[i] : 0;
  __syncthreads();
  for (unsigned s = 1; s < blockDim.x; s *= 2) {
    unsigned const index = 2 * s * tid;
    if (index < blockDim.x) partial[index] += partial[index + s];
    __syncthreads();
  }
  if (tid == 0) out[blockIdx.x] = partial[0];
}
// [docs:end]

// [docs:kernel-2]
/// Kernel #2 of seed 004: the same tree, folded the other way. At step s (half the remaining width),
/// thread tid adds word tid + s into word tid: consecutive threads touch consecutive words, one per
/// bank, so no bank conflicts. Half the threads still idle from the first step on.
__global__ void reduce_sequential_addressing(std::uint32_t const* in, std::uint32_t* out, std::size_t n) {
  extern __shared__ std::uint32_t partial[];
  unsigned const tid = threadIdx.x;
  std::size_t const i = blockIdx.x * std::size_t{blockDim.x} + tid;
  partial[tid] = i < n ? in[i] : 0;
  __syncthreads();
  for (unsigned s = blockDim.x / 2; s > 0; s >>= 1) {
    if (tid < s) partial[tid] += partial[tid + s];
    __syncthreads();
  }
  if (tid == 0) out[blockIdx.x] = partial[0];
}
// [docs:end]

// [docs:levels]
/// Runs a one-value-per-thread kernel level after level: n values -> one sum per block -> ... -> 1.
/// CUDA has no grid-wide barrier inside a kernel, so the end of each launch is the synchronization.
template <class Kernel>
std::uint32_t reduce_in_levels(Kernel kernel, std::uint32_t const* values, std::size_t n, scratch& s) {
  if (n == 0) return 0;
  std::uint32_t const* in = values;
  std::uint32_t* out = thrust::raw_pointer_cast(s.a.data());
  std::uint32_t* spare = thrust::raw_pointer_cast(s.b.data());
  do {
    std::size_t const blocks = (n + block_threads - 1) / block_threads;
    kernel<<<static_cast<unsigned>(blocks), block_threads, block_threads * sizeof(std::uint32_t)>>>(in, out, n);
    SAMPLE_CUDA_TRY(cudaGetLastError());  // a bad launch (say, too many blocks) fails here, not silently
    in = out;
    std::swap(out, spare);
    n = blocks;
  } while (n > 1);
  std::uint32_t sum = 0;
  SAMPLE_CUDA_TRY(cudaMemcpy(&sum, in, sizeof sum, cudaMemcpyDeviceToHost));
  return sum;
}
// [docs:end]

// [docs:block-reduce]
/// Many values per thread, summed in a register over a grid-stride loop; then cub::BlockReduce combines
/// the block's 256 sums (warp shuffles, one shared-memory step) and thread 0 writes the block's sum.
__global__ void reduce_with_block_reduce(std::uint32_t const* in, std::uint32_t* out, std::size_t n) {
  using block_reduce = cub::BlockReduce<std::uint32_t, block_threads>;
  __shared__ typename block_reduce::TempStorage temp;
  std::uint32_t sum = 0;
  std::size_t const stride = std::size_t{gridDim.x} * block_threads;
  for (std::size_t i = blockIdx.x * std::size_t{block_threads} + threadIdx.x; i < n; i += stride) sum += in[i];
  std::uint32_t const block_sum = block_reduce(temp).Sum(sum);
  if (threadIdx.x == 0) out[blockIdx.x] = block_sum;
}
// [docs:end]

}  // namespace

scratch::scratch(std::size_t n) : a(std::max<std::size_t>(1, (n + block_threads - 1) / block_threads)), b(a.size()) {}

std::uint32_t sum_interleaved(std::uint32_t const* values, std::size_t n, scratch& s) {
  return reduce_in_levels(reduce_interleaved, values, n, s);
}

std::uint32_t sum_sequential_addressing(std::uint32_t const* values, std::size_t n, scratch& s) {
  return reduce_in_levels(reduce_sequential_addressing, values, n, s);
}

// [docs:two-passes]
/// The shape of cub::DeviceReduce: pass 1 launches just enough blocks to fill the GPU and leaves one sum
/// per block; pass 2 reduces those few thousand sums with a single block. No block waits for another.
std::uint32_t sum_block_reduce(std::uint32_t const* values, std::size_t n, scratch& s) {
  int device = 0, sms = 0;
  SAMPLE_CUDA_TRY(cudaGetDevice(&device));
  SAMPLE_CUDA_TRY(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
  std::size_t const needed = std::max<std::size_t>(1, (n + block_threads - 1) / block_threads);
  auto const blocks = static_cast<unsigned>(std::min<std::size_t>(needed, std::size_t(sms) * 8));
  std::uint32_t* partials = thrust::raw_pointer_cast(s.a.data());
  std::uint32_t* sum_out = thrust::raw_pointer_cast(s.b.data());
  reduce_with_block_reduce<<<blocks, block_threads>>>(values, partials, n);  // pass 1
  SAMPLE_CUDA_TRY(cudaGetLastError());
  reduce_with_block_reduce<<<1, block_threads>>>(partials, sum_out, blocks);  // pass 2
  SAMPLE_CUDA_TRY(cudaGetLastError());
  std::uint32_t sum = 0;
  SAMPLE_CUDA_TRY(cudaMemcpy(&sum, sum_out, sizeof sum, cudaMemcpyDeviceToHost));
  return sum;
}
// [docs:end]

}  // namespace samples::hand_written
