// SPDX-License-Identifier: Apache-2.0
// samples/scan/scan_ladder.cu: an inclusive sum of N uint32 values, timed rung by rung.
//
//   device_copy             the yardstick: a copy of the same bytes (bytes read + written)
//   blelloch_three_passes   (CUDA) Blelloch's scan in each block's shared memory (1,024 values a block:
//                           up-sweep, down-sweep), the block totals scanned, then added to every value:
//                           the input read twice and the output written twice
//   cub_device_scan         (CUDA) cub::DeviceScan::InclusiveSum: one pass, decoupled look-back
//   thrust_inclusive_scan   the device system's thrust::inclusive_scan (CUB's on the GPU)
//
// Every rung's output is compared with a host loop (uint32 sums wrap alike in every order).
//
// usage: scan_ladder [--size N] [--repeat R] [--csv]   (default 2^28 values)
#include "../common/sample.hpp"

#include <thrust/copy.h>
#include <thrust/fill.h>
#include <thrust/device_vector.h>
#include <thrust/host_vector.h>
#include <thrust/scan.h>

#if ROWSCAN_HAS_CUB
#include <cub/device/device_scan.cuh>
#endif

#include <algorithm>
#include <cstdint>
#include <iostream>
#include <string>
#include <vector>

namespace {

char const* const usage = "scan_ladder [--size N] [--repeat R] [--csv]";

#if ROWSCAN_HAS_CUB
constexpr unsigned block_threads = 512, block_items = 2 * block_threads;

// [docs:blelloch-block]
/// Pass 1: each block scans its 1,024 values in shared memory, Blelloch's way (docs/scan.md: the
/// up-sweep builds the reduction tree in place, the down-sweep turns it into exclusive prefixes), writes
/// the inclusive prefixes and its total.
__global__ void blelloch_block_scan(std::uint32_t const* in, std::uint32_t* out, std::uint32_t* totals, std::size_t n) {
  __shared__ std::uint32_t a[block_items];
  std::size_t const base = std::size_t{blockIdx.x} * block_items;
  unsigned const t = threadIdx.x;
  std::uint32_t const x0 = base + 2 * t < n ? in[base + 2 * t] : 0;
  std::uint32_t const x1 = base + 2 * t + 1 < n ? in[base + 2 * t + 1] : 0;
  a[2 * t] = x0;
  a[2 * t + 1] = x1;
  for (unsigned d = 1; d < block_items; d *= 2) {  // up-sweep
    __syncthreads();
    unsigned const k = (2 * t + 2) * d - 1;
    if (k < block_items) a[k] += a[k - d];
  }
  __syncthreads();
  if (t == 0) {
    totals[blockIdx.x] = a[block_items - 1];
    a[block_items - 1] = 0;
  }
  for (unsigned d = block_items / 2; d >= 1; d /= 2) {  // down-sweep
    __syncthreads();
    unsigned const k = (2 * t + 2) * d - 1;
    if (k < block_items) {
      std::uint32_t const left = a[k - d];
      a[k - d] = a[k];
      a[k] += left;
    }
  }
  __syncthreads();
  if (base + 2 * t < n) out[base + 2 * t] = a[2 * t] + x0;  // exclusive + own value = inclusive
  if (base + 2 * t + 1 < n) out[base + 2 * t + 1] = a[2 * t + 1] + x1;
}

/// Pass 3: every value gets the sum of the blocks before its own.
__global__ void add_block_prefix(std::uint32_t* out, std::uint32_t const* prefixes, std::size_t n) {
  std::size_t const i = std::size_t{blockIdx.x} * block_items + threadIdx.x;
  std::uint32_t const p = prefixes[blockIdx.x];
  if (i < n) out[i] += p;
  if (i + block_threads < n) out[i + block_threads] += p;
}
// [docs:end]
#endif

int run(int argc, char** argv) {
  auto const opt = samples::parse_options(argc, argv, std::size_t{1} << 28, usage);
  std::size_t const n = opt.size;
  if (n == 0 || !opt.inputs.empty()) throw rowscan::error(std::string("usage: ") + usage);
  std::vector<std::uint32_t> host(n);
  for (std::size_t i = 0; i < n; ++i) host[i] = static_cast<std::uint32_t>((i * 2654435761u) >> 7) % 1000;
  std::vector<std::uint32_t> expected(n);
  std::uint32_t running = 0;
  for (std::size_t i = 0; i < n; ++i) expected[i] = running += host[i];

  thrust::device_vector<std::uint32_t> const in(host.begin(), host.end());
  thrust::device_vector<std::uint32_t> out(n);
  std::size_t const bytes = n * sizeof(std::uint32_t);
  std::vector<samples::measurement> rows;
  bool all_agree = true;
  auto check = [&](char const* rung) {
    thrust::host_vector<std::uint32_t> const got(out);
    bool const same = std::equal(got.begin(), got.end(), expected.begin());
    if (!same) std::cerr << "MISMATCH: " << rung << " differs from the host loop\n";
    all_agree &= same;
    thrust::fill(out.begin(), out.end(), 0u);
  };

  thrust::copy(in.begin(), in.end(), out.begin());  // warm-up: the first call starts the device system's threads
  rows.push_back({"device_copy", n, 2 * bytes, samples::median_ms(opt.repeat, [&] {
                    return samples::device_ms([&] { thrust::copy(in.begin(), in.end(), out.begin()); });
                  })});
  thrust::fill(out.begin(), out.end(), 0u);
#if ROWSCAN_HAS_CUB
  {
    std::size_t const blocks = (n + block_items - 1) / block_items;
    thrust::device_vector<std::uint32_t> totals(blocks), prefixes(blocks);
    auto once = [&] {
      blelloch_block_scan<<<static_cast<unsigned>(blocks), block_threads>>>(in.data().get(), out.data().get(),
                                                                            totals.data().get(), n);
      thrust::exclusive_scan(totals.begin(), totals.end(), prefixes.begin());  // pass 2: the block totals
      add_block_prefix<<<static_cast<unsigned>(blocks), block_threads>>>(out.data().get(), prefixes.data().get(), n);
      SAMPLE_CUDA_TRY(cudaGetLastError());
    };
    once();
    rows.push_back(
        {"blelloch_three_passes", n, bytes, samples::median_ms(opt.repeat, [&] { return samples::device_ms(once); })});
    check("blelloch_three_passes");
  }
  {
    std::size_t temp_bytes = 0;
    SAMPLE_CUDA_TRY(cub::DeviceScan::InclusiveSum(nullptr, temp_bytes, in.data().get(), out.data().get(), n));
    thrust::device_vector<char> temp(temp_bytes);
    auto once = [&] {
      SAMPLE_CUDA_TRY(
          cub::DeviceScan::InclusiveSum(temp.data().get(), temp_bytes, in.data().get(), out.data().get(), n));
    };
    once();
    rows.push_back(
        {"cub_device_scan", n, bytes, samples::median_ms(opt.repeat, [&] { return samples::device_ms(once); })});
    check("cub_device_scan");
  }
#endif
  thrust::inclusive_scan(in.begin(), in.end(), out.begin());
  rows.push_back({"thrust_inclusive_scan", n, bytes, samples::median_ms(opt.repeat, [&] {
                    return samples::device_ms([&] { thrust::inclusive_scan(in.begin(), in.end(), out.begin()); });
                  })});
  check("thrust_inclusive_scan");

  std::string const device = samples::device_name();
  std::ostream& text = opt.csv ? std::cerr : std::cout;
  if (opt.csv) samples::print_csv_header();
  text << "inclusive sum of " << n << " uint32 on " << device << " (GB/s of input read; the copy: read + written)\n";
  for (auto const& m : rows) {
    text << "  " << m.variant << ": " << m.ms << " ms, " << m.gb_per_s() << " GB/s\n";
    if (opt.csv) samples::print_csv_row("scan_ladder", device, m);
  }
  text << (all_agree ? "all rungs agree with the host loop" : "MISMATCH: a rung differs") << '\n';
  return all_agree ? 0 : 1;
}

}  // namespace

int main(int argc, char** argv) {
  return samples::run_sample("scan_ladder", [&] { return run(argc, argv); });
}
