// SPDX-License-Identifier: Apache-2.0
// samples/reduction/hand_written_kernels.cu: the hand-written reduction kernels (CUDA only).
// CMake compiles this file only when ROWSCAN_BACKEND is CUDA; docs/reduction.md walks through it.
//
// Kernels 1 to 7 follow the seven steps of Mark Harris's "Optimizing Parallel Reduction in CUDA"
// (NVIDIA, 2007), with his numbering: each one changes one thing of the one before. They are written
// here from his descriptions for this project; kernel 5 differs from the deck where today's GPUs need
// it to (see warp_tree).
#include "hand_written_kernels.hpp"

#include "../common/sample.hpp"

#include <cub/block/block_reduce.cuh>

#include <algorithm>
#include <utility>

namespace samples::hand_written {

namespace {

// [docs:kernel-1]
/// Kernel 1: interleaved addressing with divergent branching. Each block loads one value per thread into
/// shared memory and adds pairs in a tree: at step s, every thread whose tid is a multiple of 2s adds word
/// tid + s into word tid. The working threads are spread over every warp, so all warps issue every
/// step while most of their lanes sit idle (divergence), and `%` is a slow instruction.
__global__ void reduce1_divergent(std::uint32_t const* in, std::uint32_t* out, std::size_t n) {
  extern __shared__ std::uint32_t partial[];
  unsigned const tid = threadIdx.x;
  std::size_t const i = blockIdx.x * std::size_t{blockDim.x} + tid;
  partial[tid] = i < n ? in[i] : 0;
  __syncthreads();
  for (unsigned s = 1; s < blockDim.x; s *= 2) {
    if (tid % (2 * s) == 0) partial[tid] += partial[tid + s];
    __syncthreads();
  }
  if (tid == 0) out[blockIdx.x] = partial[0];
}
// [docs:end]

// [docs:kernel-2]
/// Kernel 2: interleaved addressing with a strided index. The same adds, handed to other threads: at
/// step s, thread tid adds word 2*s*tid + s into word 2*s*tid. The working threads are now the first
/// blockDim/(2s), so whole warps drop out together. But the threads of a warp touch words 2s apart: with
/// 32 banks of 4-byte words, stride 2s puts up to 2s of them (as many as are active) in one bank, a bank
/// conflict that the hardware serializes.
__global__ void reduce2_strided_index(std::uint32_t const* in, std::uint32_t* out, std::size_t n) {
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

// [docs:kernel-3]
/// Kernel 3: sequential addressing. The tree folded the other way: at step s (half the remaining width),
/// thread tid adds word tid + s into word tid. Consecutive threads touch consecutive words, one per bank,
/// so no bank conflicts. But half the threads idle from the first step on: each thread loads one value
/// and does at most one add with it.
__global__ void reduce3_sequential(std::uint32_t const* in, std::uint32_t* out, std::size_t n) {
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

// [docs:kernel-4]
/// Kernel 4: first add during the global load. Each block covers twice as many values (so half as many
/// blocks are launched), and each thread adds its two values before it stores one word: the first step
/// of kernel 3's tree, done in registers, with no idle thread. The tree is kernel 3's.
__global__ void reduce4_first_add(std::uint32_t const* in, std::uint32_t* out, std::size_t n) {
  extern __shared__ std::uint32_t partial[];
  unsigned const tid = threadIdx.x;
  std::size_t const i = blockIdx.x * (2 * std::size_t{blockDim.x}) + tid;
  std::uint32_t sum = i < n ? in[i] : 0;
  if (i + blockDim.x < n) sum += in[i + blockDim.x];
  partial[tid] = sum;
  __syncthreads();
  for (unsigned s = blockDim.x / 2; s > 0; s >>= 1) {
    if (tid < s) partial[tid] += partial[tid + s];
    __syncthreads();
  }
  if (tid == 0) out[blockIdx.x] = partial[0];
}
// [docs:end]

// [docs:warp-tree]
/// The last six steps of the tree (64 words to 1), run by the first warp alone, so no __syncthreads().
/// Harris's deck relied on the 32 lanes of a warp running in lockstep and marked the words `volatile`.
/// Since Volta, lanes are scheduled independently: lane 16 may write word 16 before lane 0 has read it,
/// and `volatile` (which only stops the compiler keeping a word in a register) cannot prevent that.
/// __syncwarp() can: it waits for the warp's lanes and orders their shared-memory accesses. So every
/// step reads into a register, waits, writes, and waits. Called by all 32 lanes of warp 0 (tid < 32).
template <class T>
__device__ void warp_tree(T* partial, unsigned tid) {
  T sum = partial[tid];
#pragma unroll
  for (unsigned s = 32; s > 0; s >>= 1) {
    sum += partial[tid + s];
    __syncwarp();  // every lane has read word tid + s ...
    partial[tid] = sum;
    __syncwarp();  // ... before any lane writes, and every write is seen by the next step's reads
  }
}
// [docs:end]

// [docs:kernel-5]
/// Kernel 5: the last warp unrolled. Once 32 or fewer threads work, they are all in warp 0: the loop
/// stops at s = 64, and warp_tree does the last six steps without block-wide barriers or `if (tid < s)`.
__global__ void reduce5_unroll_last_warp(std::uint32_t const* in, std::uint32_t* out, std::size_t n) {
  extern __shared__ std::uint32_t partial[];
  unsigned const tid = threadIdx.x;
  std::size_t const i = blockIdx.x * (2 * std::size_t{blockDim.x}) + tid;
  std::uint32_t sum = i < n ? in[i] : 0;
  if (i + blockDim.x < n) sum += in[i + blockDim.x];
  partial[tid] = sum;
  __syncthreads();
  for (unsigned s = blockDim.x / 2; s > 32; s >>= 1) {
    if (tid < s) partial[tid] += partial[tid + s];
    __syncthreads();
  }
  if (tid < 32) warp_tree(partial, tid);
  if (tid == 0) out[blockIdx.x] = partial[0];
}
// [docs:end]

// [docs:kernel-6]
/// Kernel 6: completely unrolled. The block size is a template argument instead of blockDim.x, so every
/// loop bound is a constant: the compiler unrolls the whole tree, and the steps a block of this size does
/// not need (and their tests of s) disappear. A launch picks the instantiation (here: Block = 256).
template <unsigned Block, class T>
__device__ void block_tree(T* partial, unsigned tid) {
  static_assert(Block >= 64 && (Block & (Block - 1)) == 0, "the tree needs a power of two of at least 64");
#pragma unroll
  for (unsigned s = Block / 2; s > 32; s >>= 1) {
    if (tid < s) partial[tid] += partial[tid + s];
    __syncthreads();
  }
  if (tid < 32) warp_tree(partial, tid);
}

template <unsigned Block>
__global__ void reduce6_unrolled(std::uint32_t const* in, std::uint32_t* out, std::size_t n) {
  extern __shared__ std::uint32_t partial[];  // Block words, like kernels 1-5 (reduce_in_levels sizes it)
  unsigned const tid = threadIdx.x;
  std::size_t const i = blockIdx.x * (2 * std::size_t{Block}) + tid;
  std::uint32_t sum = i < n ? in[i] : 0;
  if (i + Block < n) sum += in[i + Block];
  partial[tid] = sum;
  __syncthreads();
  block_tree<Block>(partial, tid);
  if (tid == 0) out[blockIdx.x] = partial[0];
}
// [docs:end]

// [docs:kernel-7]
/// Kernel 7: multiple elements per thread. The grid no longer grows with n: it is just big enough to fill
/// the GPU, and each thread walks the input with a grid-wide stride, adding two values per step in a
/// register (the loads of a warp stay coalesced). Only then does the block run kernel 6's tree, once.
template <unsigned Block, class T>
__device__ T grid_stride_sum(T const* in, std::size_t n) {
  std::size_t const stride = 2 * std::size_t{Block} * gridDim.x;
  T sum = 0;
  for (std::size_t i = blockIdx.x * (2 * std::size_t{Block}) + threadIdx.x; i < n; i += stride) {
    sum += in[i];
    if (i + Block < n) sum += in[i + Block];
  }
  return sum;
}

template <unsigned Block, class T>
__global__ void reduce7_many_per_thread(T const* in, T* out, std::size_t n) {
  __shared__ T partial[Block];
  unsigned const tid = threadIdx.x;
  partial[tid] = grid_stride_sum<Block>(in, n);
  __syncthreads();
  block_tree<Block>(partial, tid);
  if (tid == 0) out[blockIdx.x] = partial[0];
}
// [docs:end]

// [docs:block-reduce]
/// Kernel 7 with the block's tree left to the library: cub::BlockReduce sums the block's 256 values with
/// warp shuffles (registers, not shared memory) and one shared-memory step between warps.
template <class T>
__global__ void reduce_with_block_reduce(T const* in, T* out, std::size_t n) {
  using block_reduce = cub::BlockReduce<T, block_threads>;
  __shared__ typename block_reduce::TempStorage temp;
  T const block_sum = block_reduce(temp).Sum(grid_stride_sum<block_threads>(in, n));
  if (threadIdx.x == 0) out[blockIdx.x] = block_sum;
}
// [docs:end]

// [docs:atomic]
/// One pass: the same block sums, added into one word by atomicAdd as each block finishes, so no second
/// launch reads them back. The word must be zeroed first. The order of the adds is the order in which
/// blocks finish, which changes from run to run: exact for integers, not for floats.
template <class T>
__global__ void reduce_atomic(T const* in, T* sum, std::size_t n) {
  using block_reduce = cub::BlockReduce<T, block_threads>;
  __shared__ typename block_reduce::TempStorage temp;
  T const block_sum = block_reduce(temp).Sum(grid_stride_sum<block_threads>(in, n));
  if (threadIdx.x == 0) atomicAdd(sum, block_sum);
}
// [docs:end]

// [docs:levels]
/// Runs a kernel that leaves one sum per block level after level: n values -> one sum per block -> ... ->
/// 1. Each block covers `per_block` values (blockDim for kernels 1-3, twice that for 4-6). CUDA has no
/// grid-wide barrier inside a kernel, so the end of each launch is the synchronization.
template <class Kernel>
std::uint32_t reduce_in_levels(Kernel kernel, std::size_t per_block, std::uint32_t const* values, std::size_t n,
                               scratch& s) {
  if (n == 0) return 0;
  std::uint32_t const* in = values;
  std::uint32_t* out = thrust::raw_pointer_cast(s.a.data());
  std::uint32_t* spare = thrust::raw_pointer_cast(s.b.data());
  do {
    std::size_t const blocks = (n + per_block - 1) / per_block;
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

/// Blocks for kernel 7 and after: enough to fill every SM (8 blocks of 256 threads is 2048 threads, an
/// SM's maximum since Volta), fewer when n is small.
unsigned grid_for(std::size_t n, unsigned sms) {
  std::size_t const needed = std::max<std::size_t>(1, (n + 2 * block_threads - 1) / (2 * block_threads));
  return static_cast<unsigned>(std::min<std::size_t>(needed, std::size_t{sms} * 8));
}

template <class T, class Kernel>
T reduce_in_two_passes(Kernel kernel, T const* values, std::size_t n, unsigned blocks, T* partials, T* sum_out) {
  kernel<<<blocks, block_threads>>>(values, partials, n);  // pass 1: one sum per block
  SAMPLE_CUDA_TRY(cudaGetLastError());
  kernel<<<1, block_threads>>>(partials, sum_out, blocks);  // pass 2: one block sums the partials
  SAMPLE_CUDA_TRY(cudaGetLastError());
  T sum{};
  SAMPLE_CUDA_TRY(cudaMemcpy(&sum, sum_out, sizeof sum, cudaMemcpyDeviceToHost));
  return sum;
}

template <class T>
T reduce_in_one_pass(T const* values, std::size_t n, unsigned blocks, T* sum_out) {
  SAMPLE_CUDA_TRY(cudaMemsetAsync(sum_out, 0, sizeof(T)));
  reduce_atomic<<<blocks, block_threads>>>(values, sum_out, n);
  SAMPLE_CUDA_TRY(cudaGetLastError());
  T sum{};
  SAMPLE_CUDA_TRY(cudaMemcpy(&sum, sum_out, sizeof sum, cudaMemcpyDeviceToHost));
  return sum;
}

}  // namespace

unsigned multiprocessors() {
  int device = 0, sms = 0;
  SAMPLE_CUDA_TRY(cudaGetDevice(&device));
  SAMPLE_CUDA_TRY(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
  return static_cast<unsigned>(sms);
}

scratch::scratch(std::size_t n)
    : a(std::max<std::size_t>(1, (n + block_threads - 1) / block_threads)), b(a.size()), sms(multiprocessors()) {}

std::uint32_t sum_kernel1(std::uint32_t const* values, std::size_t n, scratch& s) {
  return reduce_in_levels(reduce1_divergent, block_threads, values, n, s);
}
std::uint32_t sum_kernel2(std::uint32_t const* values, std::size_t n, scratch& s) {
  return reduce_in_levels(reduce2_strided_index, block_threads, values, n, s);
}
std::uint32_t sum_kernel3(std::uint32_t const* values, std::size_t n, scratch& s) {
  return reduce_in_levels(reduce3_sequential, block_threads, values, n, s);
}
std::uint32_t sum_kernel4(std::uint32_t const* values, std::size_t n, scratch& s) {
  return reduce_in_levels(reduce4_first_add, 2 * block_threads, values, n, s);
}
std::uint32_t sum_kernel5(std::uint32_t const* values, std::size_t n, scratch& s) {
  return reduce_in_levels(reduce5_unroll_last_warp, 2 * block_threads, values, n, s);
}
std::uint32_t sum_kernel6(std::uint32_t const* values, std::size_t n, scratch& s) {
  return reduce_in_levels(reduce6_unrolled<block_threads>, 2 * block_threads, values, n, s);
}

// [docs:two-passes]
/// Kernel 7 and the BlockReduce rung run in two passes, the shape of cub::DeviceReduce: pass 1 launches
/// just enough blocks to fill the GPU and leaves one sum per block; pass 2 reduces those few thousand
/// sums with a single block. No block waits for another.
std::uint32_t sum_kernel7(std::uint32_t const* values, std::size_t n, scratch& s) {
  return reduce_in_two_passes(reduce7_many_per_thread<block_threads, std::uint32_t>, values, n, grid_for(n, s.sms),
                              s.a.data().get(), s.b.data().get());
}

std::uint32_t sum_block_reduce(std::uint32_t const* values, std::size_t n, scratch& s) {
  return reduce_in_two_passes(reduce_with_block_reduce<std::uint32_t>, values, n, grid_for(n, s.sms),
                              s.a.data().get(), s.b.data().get());
}
// [docs:end]

std::uint32_t sum_atomic(std::uint32_t const* values, std::size_t n, scratch& s) {
  return reduce_in_one_pass(values, n, grid_for(n, s.sms), s.b.data().get());
}

template <class T>
T sum_two_passes(T const* values, std::size_t n, unsigned blocks) {
  thrust::device_vector<T> partials(blocks), sum(1);
  return reduce_in_two_passes(reduce_with_block_reduce<T>, values, n, blocks, partials.data().get(), sum.data().get());
}

template <class T>
T sum_one_pass_atomic(T const* values, std::size_t n, unsigned blocks) {
  thrust::device_vector<T> sum(1);
  return reduce_in_one_pass(values, n, blocks, sum.data().get());
}

template float sum_two_passes<float>(float const*, std::size_t, unsigned);
template std::uint32_t sum_two_passes<std::uint32_t>(std::uint32_t const*, std::size_t, unsigned);
template float sum_one_pass_atomic<float>(float const*, std::size_t, unsigned);
template std::uint32_t sum_one_pass_atomic<std::uint32_t>(std::uint32_t const*, std::size_t, unsigned);

}  // namespace samples::hand_written
