// SPDX-License-Identifier: Apache-2.0
// samples/occupancy/occupancy.cu: how many blocks of a kernel an SM holds, and what a block size costs
// (docs/occupancy.md).
//
//   calculator  (every build) the occupancy arithmetic for an H100 (compute capability 9.0): warps,
//               registers and shared memory each allow so many blocks per SM; the fewest win
//   sweep       (CUDA) two kernels at block sizes 64..1024: a light one (a scaled copy) and one that
//               keeps eight 128-bit sums per thread (lineitem's K = 8 query, in miniature). For each: the
//               registers the compiler gave it (cudaFuncGetAttributes, as `ptxas -v` prints them), the
//               blocks per SM from cudaOccupancyMaxActiveBlocksPerMultiprocessor against the
//               calculator's, and the time and GB/s of a grid that fills the GPU
//   grid limits (every build prints them; CUDA also launches) a grid of 65,536 blocks in y is refused
//               with cudaErrorInvalidValue, and the error does not stick: the next launch works
//
//   sticky      (CUDA, `occupancy sticky`) a kernel faults: the error comes late, and it sticks
//
// usage: occupancy [sticky] [--shape T,R,S] [--grid X,Y] [--size N] [--repeat R] [--csv] [--print [--expect FILE]]
//   (--print: the calculator and the grid-limit arithmetic alone, the same on every build, which CTest
//   compares; --shape adds a row to the calculator: T threads a block, R registers a thread, S bytes of
//   shared memory a block; --grid launches an empty kernel on a grid of X by Y blocks instead of the
//   sweep, and checks that the launch runs or is refused as the limits say; so the page's exercises
//   need no edit of this file)
#include "../common/sample.hpp"

#include <thrust/device_vector.h>
#include <thrust/sequence.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <iomanip>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

namespace {

char const* const usage =
    "occupancy [sticky] [--shape T,R,S] [--grid X,Y] [--size N] [--repeat R] [--csv] [--print [--expect FILE]]";

struct kernel_shape {
  int threads, registers, shared;
};

/// --shape's value: threads a block (1 to 1,024), registers a thread (1 to 255), shared bytes a block.
kernel_shape parse_shape(std::string const& text) {
  kernel_shape k{0, 0, -1};
  char tail = 0;
  if (std::sscanf(text.c_str(), "%d,%d,%d%c", &k.threads, &k.registers, &k.shared, &tail) != 3 || k.threads < 1 ||
      k.threads > 1024 || k.registers < 1 || k.registers > 255 || k.shared < 0 || k.shared > 232448) {
    throw rowscan::error(
        "--shape takes THREADS,REGISTERS,SHARED_BYTES (1-1024, 1-255, 0-232448), such as 512,48,0, not '" + text + "'");
  }
  return k;
}

/// --grid's value: blocks in x and in y, 1 to 2^32 - 1 each (what dim3 holds).
struct grid_shape {
  unsigned long long x, y;
  /// gridDim.x holds 2^31 - 1 blocks, y 65,535 (compute capability 3.0 and later).
  bool within_limits() const { return x <= (1ull << 31) - 1 && y <= 65535; }
};

grid_shape parse_grid(std::string const& text) {
  grid_shape g{0, 0};
  char tail = 0;
  if (std::sscanf(text.c_str(), "%llu,%llu%c", &g.x, &g.y, &tail) != 2 || text[0] == '-' || g.x < 1 || g.y < 1 ||
      g.x > 0xFFFFFFFFull || g.y > 0xFFFFFFFFull) {
    throw rowscan::error("--grid takes X,Y blocks (1 to 4294967295 each), such as 65536,1, not '" + text + "'");
  }
  return g;
}

/// What the limits say of a launch on grid g (the same on every build).
std::string grid_prediction(grid_shape g) {
  std::ostringstream out;
  out << "a grid of dim3(" << g.x << ", " << g.y << ") blocks: ";
  if (g.within_limits()) {
    out << "within the limits (x up to 2^31 - 1, y up to 65,535): the launch runs\n";
  } else {
    out << "beyond " << (g.x > (1ull << 31) - 1 ? "gridDim.x's 2^31 - 1" : "gridDim.y's 65,535")
        << ": the launch is refused\n";
  }
  return out.str();
}

// [docs:calculator]
/// One SM's limits on compute capability 9.0 (the H100), from the CUDA C++ Programming Guide's table.
struct sm_limits {
  int threads = 2048;              // 64 warps
  int blocks = 32;
  int registers = 65536;           // 32-bit registers
  int register_unit = 256;         // a warp's registers are allocated in units of 256
  int shared_bytes = 228 * 1024;   // 228 KB, of which a block may use at most 227 KB
  int shared_reserved = 1024;      // the system reserves 1 KB of shared memory per block
};

struct occupancy {
  int by_warps, by_registers, by_shared, blocks;  // blocks per SM each limit allows, and the least
  double percent;                                  // resident warps / the SM's maximum
};

/// Blocks of `threads` threads using `registers` registers each and `shared` bytes per block.
occupancy blocks_per_sm(int threads, int registers, int shared, sm_limits const& sm = {}) {
  int const warps = (threads + 31) / 32;
  int const max_warps = sm.threads / 32;
  occupancy o{};
  o.by_warps = std::min(sm.blocks, max_warps / warps);
  int const warp_registers = (registers * 32 + sm.register_unit - 1) / sm.register_unit * sm.register_unit;
  o.by_registers = registers == 0 ? sm.blocks : std::min(sm.blocks, (sm.registers / warp_registers) / warps);
  o.by_shared = std::min(sm.blocks, sm.shared_bytes / (shared + sm.shared_reserved));
  o.blocks = std::min({o.by_warps, o.by_registers, o.by_shared});
  o.percent = 100.0 * o.blocks * warps / max_warps;
  return o;
}
// [docs:end]

std::string calculator_table(std::vector<kernel_shape> const& added) {
  std::ostringstream out;
  out << "occupancy on an H100 SM (2048 threads, 32 blocks, 65536 registers, 228 KB shared):\n";
  out << "threads  registers  shared B   by warps  by regs  by shared  blocks/SM  occupancy\n";
  // The sweep's kernels as `ptxas -v` reports them for sm_90 (samples/occupancy/ptxas-sm90.txt): 14 and 48
  // registers; 255 is the most a thread may have; 48 KB a block is the static shared-memory limit;
  // 6,608 bytes is privatization.md's table of 413 stations, 116,224 bytes a block that leaves no room
  // for a second one (two would need 2 x (116,224 + 1,024) > 228 KB).
  std::vector<kernel_shape> shapes{{256, 14, 0},  {1024, 14, 0},    {256, 48, 0},    {1024, 48, 0},     {256, 128, 0},
                                   {256, 255, 0}, {256, 16, 49152}, {256, 16, 6608}, {128, 16, 116224}, {64, 32, 0}};
  shapes.insert(shapes.end(), added.begin(), added.end());  // --shape
  for (auto const& k : shapes) {
    occupancy const o = blocks_per_sm(k.threads, k.registers, k.shared);
    out << std::setw(7) << k.threads << std::setw(11) << k.registers << std::setw(10) << k.shared << std::setw(11)
        << o.by_warps << std::setw(9) << o.by_registers << std::setw(11) << o.by_shared << std::setw(11) << o.blocks
        << std::setw(10) << std::fixed << std::setprecision(1) << o.percent << "%\n";
  }
  return out.str();
}

// [docs:grid-limits]
/// A 1-D grid with one element per thread: how many blocks n needs, and whether gridDim.x can hold them.
std::string grid_arithmetic(unsigned long long n, unsigned threads) {
  unsigned long long const max_x = (1ull << 31) - 1, max_yz = 65535;
  unsigned long long const blocks = (n + threads - 1) / threads;
  std::ostringstream out;
  out << n << " elements, " << threads << " threads a block, one element a thread: " << blocks << " blocks; ";
  if (blocks <= max_yz) {
    out << "fits any grid dimension\n";
  } else if (blocks <= max_x) {
    out << "more than the 65,535 of gridDim.y or .z (and of gridDim.x before compute capability 3.0), "
           "within the 2^31 - 1 of gridDim.x\n";
  } else {
    out << "more than gridDim.x's 2^31 - 1: use a grid-stride loop\n";
  }
  return out.str();
}
// [docs:end]

#if ROWSCAN_HAS_CUB
/// The light kernel: a scaled copy, grid-stride.
__global__ void scaled_copy(float const* x, float* y, std::size_t n) {
  for (std::size_t i = blockIdx.x * std::size_t{blockDim.x} + threadIdx.x; i < n; i += std::size_t{gridDim.x} * blockDim.x) {
    y[i] = 3.0f * x[i] + 1.0f;
  }
}

/// The heavy kernel: eight exact 128-bit sums per thread (of x[i] * x[i] where x[i] < each of eight
/// thresholds), lineitem's K = 8 accumulators in miniature; each thread writes its eight sums at the end.
__global__ void eight_wide_sums(std::uint32_t const* x, std::size_t n, unsigned __int128* out) {
  unsigned __int128 sum[8] = {};
  for (std::size_t i = blockIdx.x * std::size_t{blockDim.x} + threadIdx.x; i < n; i += std::size_t{gridDim.x} * blockDim.x) {
    std::uint64_t const v = x[i];
#  pragma unroll
    for (int k = 0; k < 8; ++k) {
      if (v < (std::uint64_t{1} << (25 + k))) sum[k] += v * v;
    }
  }
  std::size_t const t = blockIdx.x * std::size_t{blockDim.x} + threadIdx.x;
#  pragma unroll
  for (int k = 0; k < 8; ++k) out[t * 8 + k] = sum[k];
}

__global__ void empty_kernel() {}

/// Writes through a pointer it is given: handed a null pointer, it faults (an illegal address).
__global__ void write_through(int* p) { *p = 1; }

// [docs:sticky-error]
/// An error inside a running kernel: the launch itself succeeds; the fault is reported by a later call
/// (asynchronously), and it sticks: every later call of this process fails with it.
int sticky_error(std::ostream& text) {
  write_through<<<1, 1>>>(nullptr);
  cudaError_t const launched = cudaGetLastError();         // the launch was valid: cudaSuccess
  cudaError_t const synchronized = cudaDeviceSynchronize();  // the fault arrives here
  void* p = nullptr;
  cudaError_t const allocated = cudaMalloc(&p, 16);          // and stays: this fails too
  text << "a kernel that writes through a null pointer: launch " << cudaGetErrorName(launched)
       << ", cudaDeviceSynchronize " << cudaGetErrorName(synchronized) << ", a later cudaMalloc "
       << cudaGetErrorName(allocated) << '\n';
  bool const ok = launched == cudaSuccess && synchronized != cudaSuccess && allocated == synchronized;
  text << (ok ? "the fault was reported late and stuck, as expected" : "MISMATCH: the fault did not behave as expected")
       << '\n';
  return ok ? 0 : 1;
}
// [docs:end]

template <class Kernel, class Launch>
void sweep(std::ostream& text, bool csv, std::string const& device, char const* name, Kernel kernel, std::size_t n,
           std::size_t bytes, int repeat, Launch launch) {
  // [docs:occupancy-api]
  cudaFuncAttributes attributes{};  // what ptxas gave the kernel: numRegs, sharedSizeBytes, localSizeBytes
  SAMPLE_CUDA_TRY(cudaFuncGetAttributes(&attributes, kernel));
  int gpu = 0, sms = 0;
  SAMPLE_CUDA_TRY(cudaGetDevice(&gpu));
  SAMPLE_CUDA_TRY(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, gpu));
  int min_grid = 0, suggested = 0;
  SAMPLE_CUDA_TRY(cudaOccupancyMaxPotentialBlockSize(&min_grid, &suggested, kernel));
  text << name << ": " << attributes.numRegs << " registers a thread, " << attributes.localSizeBytes
       << " bytes of local memory; cudaOccupancyMaxPotentialBlockSize suggests " << suggested << " threads\n";
  for (int threads = 64; threads <= 1024; threads *= 2) {
    int per_sm = 0;  // the driver's answer: blocks of this size that one SM holds at once
    SAMPLE_CUDA_TRY(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, kernel, threads, 0));
    occupancy const calculated = blocks_per_sm(threads, attributes.numRegs, 0);
    // [docs:end]
    unsigned const blocks = static_cast<unsigned>(sms * std::max(per_sm, 1));
    launch(blocks, static_cast<unsigned>(threads));
    double const ms = samples::median_ms(repeat, [&] {
      return samples::device_ms([&] { launch(blocks, static_cast<unsigned>(threads)); });
    });
    double const pct = 100.0 * per_sm * threads / 2048;
    if (csv) {
      samples::print_csv_row("occupancy", device, {std::string(name) + "_" + std::to_string(threads), n, bytes, ms},
                             std::cout);
    }
    text << "  " << std::setw(5) << threads << " threads: " << per_sm << " blocks/SM (calculator " << calculated.blocks
         << (calculated.blocks == per_sm ? "" : ", differs") << "), occupancy " << std::fixed << std::setprecision(1)
         << pct << "%, " << std::setprecision(3) << ms << " ms, " << std::setprecision(1)
         << static_cast<double>(bytes) / (ms * 1e6) << " GB/s\n";
  }
}
#endif

#if ROWSCAN_HAS_CUB
/// --grid X,Y: the empty kernel launched on that grid; true if it ran or was refused as the limits say.
bool launch_on_grid(std::ostream& text, grid_shape g) {
  empty_kernel<<<dim3(static_cast<unsigned>(g.x), static_cast<unsigned>(g.y)), 1>>>();
  cudaError_t const launched = cudaGetLastError();
  cudaError_t const synchronized = cudaDeviceSynchronize();
  text << "launched on " << samples::device_name() << ": " << cudaGetErrorName(launched) << ", then "
       << cudaGetErrorName(synchronized) << '\n';
  bool const ok = g.within_limits() ? launched == cudaSuccess && synchronized == cudaSuccess
                                    : launched == cudaErrorInvalidValue && synchronized == cudaSuccess;
  text << (ok ? "as the limits say" : "MISMATCH: the launch did not do what the limits say") << '\n';
  return ok;
}
#endif

int run(int argc, char** argv) {
  std::string const shape_text = samples::take_value(argc, argv, "--shape", "", usage);
  std::string const grid_text = samples::take_value(argc, argv, "--grid", "", usage);
  std::vector<kernel_shape> added;
  if (!shape_text.empty()) added.push_back(parse_shape(shape_text));
  auto const opt = samples::parse_options(argc, argv, std::size_t{1} << 28, usage);
  if (opt.inputs.size() > 1 || (opt.inputs.size() == 1 && opt.inputs.front() != "sticky")) {
    throw rowscan::error(std::string("usage: ") + usage);
  }
  if (!opt.inputs.empty()) {  // `occupancy sticky`: the fault, alone, since nothing works after it
#if ROWSCAN_HAS_CUB
    return sticky_error(std::cout);
#else
    std::cout << "(the sticky error needs the CUDA build)\n";
    return 0;
#endif
  }
  std::ostringstream fixed;  // the same on every build
  fixed << calculator_table(added) << "\ngrid limits (compute capability 3.0 and later): gridDim.x up to 2^31 - 1, "
        << "gridDim.y and .z up to 65,535, 1,024 threads a block\n";
  fixed << grid_arithmetic(16776960ull, 256) << grid_arithmetic(6001152ull, 64)  // seed 004: lineitem at SF 1
        << grid_arithmetic(600000000000ull, 256);
  if (opt.print) {
    samples::deliver_answer(opt, fixed.str());
    return 0;
  }
  if (!grid_text.empty()) {  // the exercise's launch alone: no sweep
    grid_shape const g = parse_grid(grid_text);
    std::cout << grid_prediction(g);
#if ROWSCAN_HAS_CUB
    return launch_on_grid(std::cout, g) ? 0 : 1;
#else
    std::cout << "(the launch itself needs the CUDA build)\n";
    return 0;
#endif
  }
  std::ostream& text = opt.csv ? std::cerr : std::cout;
  text << fixed.str();
#if ROWSCAN_HAS_CUB
  std::string const device = samples::device_name();
  if (opt.csv) samples::print_csv_header();
  std::size_t const n = opt.size;
  text << "\nblock-size sweep on " << device << ", " << n << " elements, a grid of SMs x blocks per SM:\n";
  {
    thrust::device_vector<float> x(n, 1.0f), y(n);
    sweep(text, opt.csv, device, "scaled_copy", scaled_copy, n, 2 * n * sizeof(float), opt.repeat,
          [&](unsigned blocks, unsigned threads) {
            scaled_copy<<<blocks, threads>>>(x.data().get(), y.data().get(), n);
            SAMPLE_CUDA_TRY(cudaGetLastError());
          });
  }
  {
    thrust::device_vector<std::uint32_t> x(n);
    thrust::sequence(x.begin(), x.end());
    thrust::device_vector<unsigned __int128> out;  // eight sums a thread; sized at each block size's warm-up launch
    sweep(text, opt.csv, device, "eight_wide_sums", eight_wide_sums, n, n * sizeof(std::uint32_t), opt.repeat,
          [&](unsigned blocks, unsigned threads) {
            if (std::size_t{blocks} * threads * 8 > out.size()) out.resize(std::size_t{blocks} * threads * 8);
            eight_wide_sums<<<blocks, threads>>>(x.data().get(), n, out.data().get());
            SAMPLE_CUDA_TRY(cudaGetLastError());
          });
  }
  // [docs:failed-launch]
  // A grid of 65,536 blocks in y: the launch is refused, and cudaGetLastError reports it (and clears it).
  empty_kernel<<<dim3(1, 65536), 1>>>();
  cudaError_t const refused = cudaGetLastError();
  // A configuration error does not stick: the next launch and synchronization succeed.
  empty_kernel<<<dim3(1, 65535), 1>>>();
  cudaError_t const next = cudaGetLastError();
  cudaError_t const synchronized = cudaDeviceSynchronize();
  // [docs:end]
  text << "\na launch of dim3(1, 65536) blocks: " << cudaGetErrorName(refused) << "; the next launch: "
       << cudaGetErrorName(next) << ", then " << cudaGetErrorName(synchronized) << '\n';
  // CUDA 13 on the H100 answers cudaErrorInvalidValue for a grid dimension out of range (measured);
  // cudaErrorInvalidConfiguration is what it answers for a block too large.
  bool const ok = refused == cudaErrorInvalidValue && next == cudaSuccess && synchronized == cudaSuccess;
  text << (ok ? "the refused launch failed as expected, and the error did not stick"
              : "MISMATCH: the grid-limit launch did not behave as expected")
       << '\n';
  return ok ? 0 : 1;
#else
  text << "\n(the block-size sweep and the refused launch need the CUDA build)\n";
  return 0;
#endif
}

}  // namespace

int main(int argc, char** argv) { return samples::run_sample("occupancy", [&] { return run(argc, argv); }); }
