// SPDX-License-Identifier: Apache-2.0
// samples/reduction/reduction_ladder.cu: one sum, climbed rung by rung from a loop to the library.
//
//   rung                      backend  what it shows
//   sequential_host_loop      all      the reference: one core, one pass over host memory
//   kernel1_interleaved       CUDA     seed 004's kernel #1: a shared-memory tree, strided, bank conflicts
//   kernel2_sequential        CUDA     seed 004's kernel #2: sequential addressing, conflict free
//   kernel_block_reduce       CUDA     many values per thread + cub::BlockReduce, in two launches
//   cub_device_reduce         CUDA     cub::DeviceReduce::Sum: the same two passes, tuned per GPU
//   thrust_reduce             all      thrust::reduce: CUB's two passes on the GPU, threads on the CPU
//   thrust_transform_reduce   all      a transform fused into the reduce (64-bit sums, same bytes read)
//
// Every rung returns its sum to the host, is checked against the sequential loop, and is timed as the
// median of --repeat runs after a warm-up (CUDA events on the GPU), its result's copy included.
//
// usage: reduction_ladder [--size N] [--repeat R] [--csv] [--print [--expect FILE]]
#include "../common/sample.hpp"
#include "tree_trace.hpp"

#include "rowscan/context.hpp"

#include <thrust/device_vector.h>
#include <thrust/functional.h>
#include <thrust/host_vector.h>
#include <thrust/reduce.h>
#include <thrust/tabulate.h>
#include <thrust/transform_reduce.h>

#if ROWSCAN_HAS_CUB
#  include "hand_written_kernels.hpp"
#  include <cub/device/device_reduce.cuh>
#endif

#include <cstdint>
#include <functional>
#include <iomanip>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

namespace {

char const* const usage = "reduction_ladder [--size N] [--repeat R] [--csv] [--print [--expect FILE]]";

/// The input: a digit 0..9 per position, from a hash of the position (the same on every backend).
struct digit_at {
  ROWSCAN_HD std::uint32_t operator()(std::uint64_t i) const {
    return static_cast<std::uint32_t>(((i + 1) * 0x9E3779B97F4A7C15ull) >> 32) % 10;
  }
};

/// Sums of up to this many digits fit in 32 bits, so every 32-bit rung is exact.
constexpr std::size_t max_size = 0xFFFFFFFFull / 9;

// [docs:sequential]
/// The reference: a loop on one core, as in seed 004's CPU version.
std::uint64_t sequential_sum(std::vector<std::uint32_t> const& values) {
  std::uint32_t sum = 0;
  for (std::uint32_t v : values) sum += v;
  return sum;
}
// [docs:end]

// [docs:thrust-reduce]
/// thrust::reduce: plus over the values, 32-bit like the kernels. On the GPU, CUB's two passes run
/// underneath; temporaries come from the context's pool, so no call allocates after the first.
std::uint64_t thrust_sum(thrust::device_vector<std::uint32_t> const& values, rowscan::context const& ctx) {
  return thrust::reduce(ctx.policy(), values.begin(), values.end(), std::uint32_t{0}, thrust::plus<std::uint32_t>{});
}
// [docs:end]

// [docs:transform-reduce]
/// Each value is widened to 64 bits inside the reduction: the sum cannot overflow, and no widened copy
/// is ever written. transform_reduce reads exactly the bytes reduce reads.
struct widen {
  ROWSCAN_HD std::uint64_t operator()(std::uint32_t v) const { return v; }
};

std::uint64_t thrust_wide_sum(thrust::device_vector<std::uint32_t> const& values, rowscan::context const& ctx) {
  return thrust::transform_reduce(ctx.policy(), values.begin(), values.end(), widen{}, std::uint64_t{0},
                                  thrust::plus<std::uint64_t>{});
}
// [docs:end]

#if ROWSCAN_HAS_CUB
// [docs:device-reduce]
/// cub::DeviceReduce::Sum is called twice: the first call (no storage) only says how many bytes of
/// temporary storage it needs (room for pass 1's partial sums), the second runs both passes.
class cub_sum {
 public:
  cub_sum(std::uint32_t const* values, std::size_t n) : values_(values), n_(n) {
    SAMPLE_CUDA_TRY(cub::DeviceReduce::Sum(nullptr, temp_bytes_, values_, sum_.data().get(), n_));
    temp_.resize(temp_bytes_);  // allocated once, outside the timed runs
  }
  std::uint64_t operator()() {
    SAMPLE_CUDA_TRY(cub::DeviceReduce::Sum(temp_.data().get(), temp_bytes_, values_, sum_.data().get(), n_));
    return sum_[0];  // copies the result to the host
  }

 private:
  std::uint32_t const* values_;
  std::size_t n_;
  std::size_t temp_bytes_ = 0;
  thrust::device_vector<unsigned char> temp_;
  thrust::device_vector<std::uint32_t> sum_ = thrust::device_vector<std::uint32_t>(1);
};
// [docs:end]
#endif

struct rung {
  std::string name;
  std::function<std::uint64_t()> sum;
  bool on_host;  // timed by the host clock (the loop), not on the device system
};

/// --print: a tiny input through the trees of kernels #1 and #2, their costs on a 256-thread block,
/// and the two passes of a device-wide reduction.
void print_worked_example(std::ostream& out, std::vector<std::uint32_t> const& values) {
  out << "input (" << values.size() << " values):";
  for (auto v : values) out << ' ' << v;
  out << "\nsequential sum: " << sequential_sum(values) << "\n\n";

  std::size_t block = 1;
  while (block * 2 <= values.size() && block < 16) block *= 2;
  std::vector<std::uint32_t> const first_block(values.begin(), values.begin() + static_cast<long>(block));
  for (auto a : {samples::trace::addressing::interleaved, samples::trace::addressing::sequential}) {
    out << samples::trace::name(a) << ", one block of the first " << block << " values:\n  start:";
    for (auto v : first_block) out << std::setw(3) << v;
    out << '\n';
    samples::trace::print_tree(out, a, first_block);
  }
  out << '\n';
  samples::trace::print_costs(out, 256);

  std::size_t const tile = 4;
  out << "\ntwo passes, tiles of " << tile << " values:\n  pass 1, one partial sum per tile:";
  std::vector<std::uint32_t> partials;
  for (std::size_t i = 0; i < values.size(); i += tile) {
    std::uint32_t s = 0;
    for (std::size_t k = i; k < i + tile && k < values.size(); ++k) s += values[k];
    partials.push_back(s);
    out << ' ' << s;
  }
  out << "\n  pass 2, one block sums the partials: " << sequential_sum(partials) << '\n';
}

}  // namespace

int main(int argc, char** argv) {
  return samples::run_sample("reduction_ladder", [&] {
    auto const opt = samples::parse_options(argc, argv, std::size_t{1} << 24, usage);
    if (opt.size > max_size) {
      throw rowscan::error("--size at most " + std::to_string(max_size) + ": larger sums of digits overflow 32 bits");
    }
    if (opt.print && (opt.size < 2 || opt.size > 64)) throw rowscan::error("--print wants a --size of 2 to 64");
    std::size_t const n = opt.size;
    rowscan::context ctx;

    thrust::device_vector<std::uint32_t> values(n);
    thrust::tabulate(ctx.policy(), values.begin(), values.end(), digit_at{});
    thrust::host_vector<std::uint32_t> const staged = values;
    std::vector<std::uint32_t> const host(staged.begin(), staged.end());
    if (opt.print) {  // with --expect FILE, the example must equal FILE (docs quote that file)
      std::ostringstream example;
      print_worked_example(example, host);
      samples::deliver_answer(opt, example.str());
      return 0;
    }

    std::vector<rung> rungs;
    rungs.push_back({"sequential_host_loop", [&] { return sequential_sum(host); }, true});
#if ROWSCAN_HAS_CUB
    std::uint32_t const* raw = values.data().get();
    samples::hand_written::scratch scratch(n);
    cub_sum cub_device_reduce(raw, n);
    rungs.push_back({"kernel1_interleaved", [&] { return samples::hand_written::sum_interleaved(raw, n, scratch); }, false});
    rungs.push_back({"kernel2_sequential", [&] { return samples::hand_written::sum_sequential_addressing(raw, n, scratch); }, false});
    rungs.push_back({"kernel_block_reduce", [&] { return samples::hand_written::sum_block_reduce(raw, n, scratch); }, false});
    rungs.push_back({"cub_device_reduce", [&] { return cub_device_reduce(); }, false});
#endif
    rungs.push_back({"thrust_reduce", [&] { return thrust_sum(values, ctx); }, false});
    rungs.push_back({"thrust_transform_reduce", [&] { return thrust_wide_sum(values, ctx); }, false});

    std::string const device = samples::device_name();
    std::uint64_t const expected = sequential_sum(host);
    bool all_ok = true;
    if (opt.csv) {
      samples::print_csv_header();
    } else {
      std::cout << "reduction ladder: " << n << " uint32 digits (" << std::fixed << std::setprecision(1)
                << static_cast<double>(n * 4) / 1e6 << " MB) on " << device << ", median of " << opt.repeat
                << " runs\n"
                << std::left << std::setw(26) << "rung" << std::right << std::setw(14) << "result" << std::setw(5)
                << "ok" << std::setw(12) << "time ms" << std::setw(10) << "GB/s" << '\n';
    }
    for (auto& r : rungs) {
      std::uint64_t const result = r.sum();  // the warm-up run gives the result that is checked
      bool const ok = result == expected;
      all_ok = all_ok && ok;
      volatile std::uint64_t sink = 0;  // keeps the optimizer from dropping a result nobody reads
      double const ms = samples::median_ms(opt.repeat, [&] {
        return r.on_host ? samples::host_ms([&] { sink = r.sum(); }) : samples::device_ms([&] { sink = r.sum(); });
      });
      samples::measurement const m{r.name, n, n * sizeof(std::uint32_t), ms};
      if (opt.csv) {
        samples::print_csv_row("reduction_ladder", device, m);
      } else {
        std::cout << std::left << std::setw(26) << r.name << std::right << std::setw(14) << result << std::setw(5)
                  << (ok ? "yes" : "NO") << std::setw(12) << std::setprecision(3) << ms << std::setw(10)
                  << std::setprecision(2) << m.gb_per_s() << '\n';
      }
    }
    (opt.csv ? std::cerr : std::cout) << (all_ok ? "all rungs agree" : "MISMATCH: some rung differs from the loop")
                                      << " (sum " << expected << ")\n";
    return all_ok ? 0 : 1;
  });
}
